import type { OperationExample } from "@/lib/openapi/example-context";

/** An orchestrator's branding operations' examples (lib/operations/orchestrators.ts). */
export const BRANDING_EXAMPLES: Record<string, () => OperationExample> = {
  createOrchestratorBranding: () => ({
    body: {
      displayName: "Acme Pay",
      logoUrl: "https://acme.example/logo.png",
      accentColor: "#1a73e8",
      supportUrl: "https://acme.example/support",
    },
  }),
  getOrchestratorBranding: () => ({ requires: ["createOrchestratorBranding"] }),
  updateOrchestratorBranding: () => ({
    body: { displayName: "Acme Pay", accentColor: "#0b57d0" },
    requires: ["createOrchestratorBranding"],
  }),
  deleteOrchestratorBranding: () => ({ requires: ["createOrchestratorBranding"] }),
};
