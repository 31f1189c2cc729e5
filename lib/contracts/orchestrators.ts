// Orchestrator linking operations (client IDs, link intents).
export {};
