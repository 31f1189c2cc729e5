import { z } from "zod";
import { EVENT_TYPES } from "@/lib/events/catalog";
import { webhookUrlWarning } from "@/lib/operations/webhooks-schemas";

const dateTime = z.string().meta({ format: "date-time" });
const clientIdField = z.string().max(64).meta({ description: "A client ID linked to this orchestrator (`cli_…`)", example: "cli_01j…" });

/** An https URL (no credentials): logo and support links on the hosted page. */
const httpsUrl = (what: string) =>
  z
    .string()
    .max(2048)
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return url.protocol === "https:" && url.hostname !== "" && url.username === "" && url.password === "";
        } catch {
          return false;
        }
      },
      { message: "must be an https URL" },
    )
    .meta({ description: what, format: "uri" });

// ---------------------------------------------------------------------------------------------
// Webhooks
// ---------------------------------------------------------------------------------------------

export const orchestratorWebhookSchema = z
  .object({ id: z.string(), url: z.string(), isActive: z.boolean(), createdAt: dateTime })
  .meta({ id: "OrchestratorWebhook" });

export const createOrchestratorWebhookBodySchema = z.strictObject({
  url: z.string().min(1).max(2048).meta({
    description:
      "HTTPS URL that receives signed POSTs (never a private, loopback or link-local address; under `npm run dev`, this machine's own over http too)",
  }),
});

export const orchestratorWebhookCreatedSchema = z
  .object({
    webhook: orchestratorWebhookSchema,
    secret: z.string().meta({ description: "The signing secret (`whsec_…`), shown only here" }),
    warning: webhookUrlWarning,
  })
  .meta({ id: "OrchestratorWebhookCreated" });

export const orchestratorWebhookListSchema = z.object({ webhooks: z.array(orchestratorWebhookSchema) });

export const setupIdParamsSchema = z.object({ id: z.string().max(64) });

export const testOrchestratorWebhookBodySchema = z.strictObject({
  eventType: z.enum(EVENT_TYPES).meta({ example: "client_id.linked" }),
});

export const testOrchestratorWebhookResultSchema = z
  .object({
    sent: z.number().int().meta({ description: "Test deliveries the receiver accepted (2xx) on the first attempt" }),
    failed: z.number().int().meta({ description: "Test deliveries whose first attempt failed (retried like any delivery)" }),
  })
  .meta({ id: "OrchestratorWebhookTestResult" });

// ---------------------------------------------------------------------------------------------
// Fee configs
// ---------------------------------------------------------------------------------------------

const percentageBps = z.number().int().min(0).max(10_000).meta({ description: "Fee rate in basis points (100 = 1%)", example: 100 });
const capUsd = z
  .string()
  .max(24)
  .regex(/^\d{1,18}(\.\d{1,2})?$/, "must be a USD amount such as 5 or 2.50")
  .meta({ description: "Cap of the fee per payment, in USD", example: "5" });
const feeBearer = z.enum(["payer", "payee"]).meta({ description: "Who bears the fee (default payer)" });
const evmAddress = z.string().max(64).meta({ description: "EVM address receiving the fee (EIP-55 checksum when mixed-case)" });
const tronAddress = z.string().max(64).meta({ description: "Tron address receiving the fee on Tron" });
const label = z.string().trim().min(1).max(80).meta({ description: "Label of the fee in fee plans", example: "Platform fee" });

export const feeConfigSchema = z
  .object({
    id: z.string(),
    flow: z.enum(["get_paid", "pay"]),
    percentageBps: z.number().int(),
    capUsd: z.string().nullable(),
    feeBearer: z.enum(["payer", "payee"]),
    evmAddress: z.string().nullable(),
    tronAddress: z.string().nullable(),
    label: z.string(),
    clientId: z.string().nullable().meta({ description: "The linked client ID of a per-client override; null for the default" }),
    active: z.boolean(),
    createdAt: dateTime,
  })
  .meta({ id: "OrchestratorFeeConfig" });

export const createFeeConfigBodySchema = z.strictObject({
  flow: z.enum(["get_paid", "pay"]).meta({ description: "get_paid: incoming links; pay: outgoing links", example: "get_paid" }),
  percentageBps,
  capUsd: capUsd.optional(),
  feeBearer: feeBearer.optional(),
  evmAddress: evmAddress.optional(),
  tronAddress: tronAddress.optional(),
  label: label.optional(),
  clientId: clientIdField.optional().meta({ description: "Makes a per-client override for this linked client ID" }),
});

export const updateFeeConfigBodySchema = z.strictObject({
  percentageBps: percentageBps.optional(),
  capUsd: capUsd.nullable().optional(),
  feeBearer: feeBearer.optional(),
  evmAddress: evmAddress.nullable().optional(),
  tronAddress: tronAddress.nullable().optional(),
  label: label.optional(),
});

export const feeConfigQuerySchema = z.object({ clientId: clientIdField.optional() });

export const feeConfigListSchema = z.object({ feeConfigs: z.array(feeConfigSchema) });

// ---------------------------------------------------------------------------------------------
// Branding
// ---------------------------------------------------------------------------------------------

export const brandingSchema = z
  .object({
    id: z.string(),
    clientId: z.string().nullable(),
    displayName: z.string(),
    logoUrl: z.string().nullable(),
    accentColor: z.string().nullable(),
    supportUrl: z.string().nullable(),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .meta({ id: "OrchestratorBranding" });

const displayName = z.string().trim().min(1).max(80).meta({ description: "Name shown on the hosted page", example: "Acme Pay" });
const logoUrl = httpsUrl("Logo (https only)");
const accentColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, "must be a #rrggbb color")
  .meta({ description: "Accent color, #rrggbb", example: "#1a73e8" });
const supportUrl = httpsUrl("Support page (https only)");

export const createBrandingBodySchema = z.strictObject({
  displayName,
  logoUrl: logoUrl.optional(),
  accentColor: accentColor.optional(),
  supportUrl: supportUrl.optional(),
  clientId: clientIdField.optional().meta({ description: "Makes a per-client override for this linked client ID" }),
});

export const updateBrandingBodySchema = z.strictObject({
  displayName: displayName.optional(),
  logoUrl: logoUrl.nullable().optional(),
  accentColor: accentColor.nullable().optional(),
  supportUrl: supportUrl.nullable().optional(),
});

export const brandingQuerySchema = z.object({
  clientId: clientIdField.optional().meta({ description: "Selects the per-client override; without it, the default branding" }),
});
