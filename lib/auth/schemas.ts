import { z } from "zod";

/**
 * The sign-in bodies, shared by the /v1 operations (lib/operations/auth.ts) and next-auth's page
 * providers (lib/http/next-auth.ts): one validation for both session paths.
 */
export const verifyBodySchema = z.strictObject({
  challengeId: z.string().min(1).max(64),
  nonce: z.string().min(1).max(64),
  message: z.string().min(1).max(4000),
  signature: z.string().min(1).max(200),
});

export const credentialsBodySchema = z.strictObject({
  email: z.string().email().max(255),
  password: z.string().min(8, "must be 8 to 100 characters").max(100, "must be 8 to 100 characters"),
});
