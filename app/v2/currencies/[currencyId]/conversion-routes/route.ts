import { conversionRoutesOp } from "@/lib/contracts/currencies";
import { getConversionRoutes } from "@/lib/currencies/list-currencies";
import { json, withApi } from "@/lib/http/handler";

export const dynamic = "force-dynamic";

export const GET = withApi(conversionRoutesOp, async ({ params, query }) => json(await getConversionRoutes(params.currencyId, query)));
