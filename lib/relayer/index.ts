export * from "./domain";
export * from "./relay";
