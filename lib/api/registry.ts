import { conversionRoutesOp, listCurrenciesOp } from "@/lib/currencies/operations";
import type { Operation } from "./operation";

/** Every public operation, in documentation order. A new route adds its operation here. */
export const OPERATIONS: readonly Operation[] = [listCurrenciesOp, conversionRoutesOp];
