import { json, withApi } from "@/lib/http/handler";
import { createBrandingOp, deleteBrandingOp, getBrandingOp, updateBrandingOp } from "@/lib/operations/orchestrator-setup";
import { createBranding, deleteBranding, getBranding, updateBranding } from "@/lib/orchestrators/branding";
import { orchestratorIdOf } from "@/lib/orchestrators/orchestrator";

export const dynamic = "force-dynamic";

export const POST = withApi(createBrandingOp, async ({ principal, body }) =>
  json(await createBranding(orchestratorIdOf(principal), body), 201),
);

export const GET = withApi(getBrandingOp, async ({ principal, query }) =>
  json(await getBranding(orchestratorIdOf(principal), query.clientId)),
);

export const PATCH = withApi(updateBrandingOp, async ({ principal, query, body }) =>
  json(await updateBranding(orchestratorIdOf(principal), query.clientId, body)),
);

export const DELETE = withApi(deleteBrandingOp, async ({ principal, query }) =>
  json(await deleteBranding(orchestratorIdOf(principal), query.clientId)),
);
