import { json, withApi } from "@/lib/api/handler";
import { getConversionRoutes } from "@/lib/currencies/list-currencies";
import { conversionRoutesOp } from "@/lib/currencies/operations";

export const dynamic = "force-dynamic";

export const GET = withApi(conversionRoutesOp, async ({ params, query }) => json(getConversionRoutes(params.currencyId, query)));
