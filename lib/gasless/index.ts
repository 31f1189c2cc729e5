export { type GaslessPlan, gaslessPlan, gaslessUnavailableReason, PLAN_VALIDITY_SECONDS } from "./plan";
export { type GaslessResult, type GaslessSubmitInput, submitGasless } from "./submit";
export * from "./terms";
export { gaslessPlanView, planView } from "./view";
