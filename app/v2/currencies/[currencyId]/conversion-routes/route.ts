import { getConversionRoutes } from "@/lib/currencies/list-currencies";
import { json, withApi } from "@/lib/http/handler";
import { conversionRoutesOp } from "@/lib/operations/currencies";

export const dynamic = "force-dynamic";

export const GET = withApi(conversionRoutesOp, async ({ params, query }) => json(await getConversionRoutes(params.currencyId, query)));
