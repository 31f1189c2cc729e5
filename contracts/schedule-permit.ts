/**
 * The permit's definition lives in lib/recurring/permit.ts (one source for the API, the executor,
 * the scripts and the tests); this module adds the compiled contract's ABI next to it.
 */
import { compiledContracts } from "./compiled.generated";

export * from "@/lib/recurring/permit";

export const recurringPaymentsAbi = compiledContracts.DuebillRecurringPayments.abi;
