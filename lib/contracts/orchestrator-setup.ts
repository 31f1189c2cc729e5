// Orchestrator setup operations (webhooks, fee configs, branding): filled in by the orchestrator setup work.
export {};
