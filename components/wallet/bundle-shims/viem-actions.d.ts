export * from "viem/actions";
