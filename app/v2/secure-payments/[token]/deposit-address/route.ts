import { json, withApi } from "@/lib/http/handler";
import { linkDepositOp } from "@/lib/operations/secure-payments";
import { linkDeposit } from "@/lib/secure-payments/deposit";

export const dynamic = "force-dynamic";

export const POST = withApi(linkDepositOp, async ({ params }) => json(await linkDeposit(params.token)));
