export * from "@wagmi/core";
