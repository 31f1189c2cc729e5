import { listAllCurrenciesJson, listCurrencies } from "@/lib/currencies/list-currencies";
import { json, withApi } from "@/lib/http/handler";
import { listCurrenciesOp } from "@/lib/operations/currencies";

export const dynamic = "force-dynamic";

export const GET = withApi(listCurrenciesOp, async ({ query }) => {
  const unfiltered = query.network === undefined && query.symbol === undefined && query.id === undefined && query.firstOnly === undefined;
  return json(unfiltered ? listAllCurrenciesJson() : listCurrencies(query));
});
