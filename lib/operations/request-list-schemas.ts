import { z } from "zod";

const listText = (max: number, description: string) => z.string().min(1).max(max).optional().meta({ description });

/** GET /v2/request's query (lib/requests/list-requests.ts). */
export const listRequestsQuerySchema = z.object({
  walletAddress: listText(100, "Requests whose payee or payer is this wallet (EVM 0x… in any case, or Tron T…)"),
  status: z.enum(["pending", "partially_paid", "paid"]).optional().meta({ description: "Duebill extension" }),
  reference: listText(255, "Your merchant reference (Duebill extension)"),
  fromDate: listText(40, "Created from (inclusive), ISO 8601 UTC (Duebill extension)"),
  toDate: listText(40, "Created until (inclusive), ISO 8601 UTC (Duebill extension)"),
  limit: listText(4, "Page size, 1–100 (default 20)"),
  offset: listText(9, "Requests to skip (default 0)"),
});
