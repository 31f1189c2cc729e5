import { z } from "zod";
import { credentialsBodySchema, verifyBodySchema } from "@/lib/auth/schemas";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";

const tags = ["Auth"];

export const challengeBodySchema = z.strictObject({
  address: z.string().min(1).max(100).meta({ description: "EVM (0x...) or Tron (T...) address; the type is detected from the format" }),
  chainId: z.number().int().positive().optional().meta({ description: "EVM chain ID for the message (default 1; ignored for Tron)" }),
});

export const challengeResponseSchema = z
  .object({ challengeId: z.string(), nonce: z.string(), message: z.string(), expiresAt: z.string() })
  .meta({ id: "WalletChallenge" });

export { credentialsBodySchema, verifyBodySchema };

export const sessionResponseSchema = z
  .object({
    token: z
      .string()
      .meta({ description: "Session token, also set as the httpOnly session_token cookie; send it as Authorization: Bearer" }),
    expiresAt: z.string(),
    user: z.object({
      id: z.string(),
      accountId: z.string(),
      walletAddress: z.string().optional(),
      email: z.string().nullable().optional(),
    }),
  })
  .meta({ id: "Session" });

export const challengeOp = defineOperation({
  method: "POST",
  path: "/v1/auth/wallet/challenge",
  operationId: "createWalletChallenge",
  summary: "Get a sign-in message for a wallet",
  description: "An EIP-4361 message to sign with personal_sign (EVM) or TRON message signing v2 (Tron). Valid for 5 minutes, single use.",
  tags,
  auth: [],
  body: challengeBodySchema,
  responses: { 201: { description: "Challenge", schema: challengeResponseSchema }, ...errorResponses(400, 429) },
});

export const verifyOp = defineOperation({
  method: "POST",
  path: "/v1/auth/wallet/verify",
  operationId: "verifyWalletChallenge",
  summary: "Sign in with a signed challenge",
  description: "Checks the signature, domain, URI, chain ID, nonce and expiry, then creates a wallet session (15 minutes idle timeout).",
  tags,
  auth: [],
  body: verifyBodySchema,
  responses: {
    200: { description: "Signed in; sets the session cookie", schema: sessionResponseSchema },
    ...errorResponses(400, 401, 429),
  },
});

export const logoutOp = defineOperation({
  method: "POST",
  path: "/v1/auth/logout",
  operationId: "logout",
  summary: "End the session",
  tags,
  auth: ["session"],
  responses: { 200: { description: "Signed out; the token no longer works" }, ...errorResponses(401, 403) },
});

export const registerOp = defineOperation({
  method: "POST",
  path: "/v1/auth/register",
  operationId: "register",
  summary: "Create an account with email and password",
  description:
    "Answers 201 `{id, accountId, email}` alike for a new email and for one that already has an account (then nothing is created or changed, and the IDs name nothing), so registration does not tell which emails exist. Sign in with POST /v1/auth/login.",
  tags,
  auth: [],
  body: credentialsBodySchema,
  responses: { 201: { description: "Account created" }, ...errorResponses(400, 429) },
});

export const loginOp = defineOperation({
  method: "POST",
  path: "/v1/auth/login",
  operationId: "login",
  summary: "Sign in with email and password",
  description:
    "Creates a session valid for 30 days. After 5 wrong attempts in a row for an email, sign-in with that email is locked for 15 minutes (429), whether or not an account has it.",
  tags,
  auth: [],
  body: credentialsBodySchema,
  responses: {
    200: { description: "Signed in; sets the session cookie", schema: sessionResponseSchema },
    ...errorResponses(400, 401, 429),
  },
});

export const currentSessionOp = defineOperation({
  method: "GET",
  path: "/v1/auth/session",
  operationId: "getSession",
  summary: "The signed-in session",
  tags,
  auth: ["session"],
  responses: {
    200: {
      description: "Session",
      schema: z.object({
        userId: z.string(),
        accountId: z.string(),
        kind: z.enum(["wallet", "email"]),
        walletAddress: z.string().nullable(),
        email: z.string().nullable(),
      }),
    },
    ...errorResponses(401),
  },
});
