import { z } from "zod";
import { getDb } from "~/db/client.server";
import { getEntitlements } from "~/services/billing/entitlements.server";
import { confirmSignUp, login, signUp } from "~/services/identity/accounts.server";
import { issueApiTokens, refreshApiTokens, revokeApiSession, type ApiTokens } from "~/services/identity/api-tokens.server";
import { getPasswordPolicy } from "~/services/identity/passwords.server";
import { renameUser } from "~/services/identity/team.server";
import { createDemoTenant } from "~/services/platform/demo-data.server";
import { ServiceError, asServiceError } from "~/services/platform/errors.server";
import { personName, signUpFields } from "~/utils/account-schemas";
import { defineOperation, type ApiContext } from "~/utils/api.server";
import { getClientIp } from "~/utils/auth.server";
import { problem } from "~/utils/problem.server";

const tag = "Auth and users";

const TokenSchema = z.object({
  access_token: z.string(),
  token_type: z.literal("Bearer"),
  expires_at: z.string().describe("ISO 8601: when the access token lapses (15 minutes after it was issued)"),
  expires_in: z.number().int().describe("Seconds until the access token lapses"),
  refresh_token: z
    .string()
    .describe("Single use: POST it to /api/auth/refresh for the next access token and refresh token (it lives 30 days unused)"),
});

function tokenBody(tokens: ApiTokens) {
  return {
    access_token: tokens.accessToken,
    token_type: "Bearer" as const,
    expires_at: tokens.accessExpiresAt.toISOString(),
    expires_in: tokens.expiresInSeconds,
    refresh_token: tokens.refreshToken,
  };
}

async function issueToken(request: Request, user: { id: string; tenantId: string }) {
  const tokens = await issueApiTokens(await getDb(), {
    userId: user.id,
    tenantId: user.tenantId,
    userAgent: request.headers.get("User-Agent"),
  });
  return tokenBody(tokens);
}

const unauthorized = (detail: string) => problem(401, detail, { headers: { "WWW-Authenticate": 'Bearer realm="remarket"' } });

export const authLogin = defineOperation({
  method: "POST",
  path: "/api/auth/login",
  tag,
  auth: "none",
  summary: "E-mail and password in: a short-lived bearer access token and a refresh token",
  description: "A wrong e-mail or password is a 401; an address not yet confirmed is a 403.",
  errors: [401, 403, 429],
  input: z.object({
    email: z.string({ error: "email is required." }).trim().email("Enter a valid e-mail address."),
    password: z.string({ error: "password is required." }).min(1, "password is required."),
  }),
  response: TokenSchema,
  run: async (_ctx, input, request) => {
    const db = await getDb();
    const result = await login(db, { ...input, ip: getClientIp(request) }).catch((error: unknown) => {
      // The service answers every wrong e-mail or password alike; over the API that is a 401.
      const refused = asServiceError(error);
      if (refused?.status === 400) throw unauthorized(refused.message);
      throw error;
    });
    if (result.status !== "ok") throw new ServiceError("Confirm your e-mail address first.", 403);
    return issueToken(request, result.user);
  },
});

export const authRefresh = defineOperation({
  method: "POST",
  path: "/api/auth/refresh",
  tag,
  auth: "none",
  summary: "Spend a refresh token: a new access token and a new refresh token",
  description:
    "Refresh tokens rotate: each is good for one refresh, and the answer carries its successor. Presenting a refresh token a second time means it was copied, so every token of that sign-in (refresh and access alike) is revoked and the answer is a 401: sign in again.",
  errors: [401],
  input: z.object({ refresh_token: z.string({ error: "refresh_token is required." }).min(1, "refresh_token is required.") }),
  response: TokenSchema,
  run: async (_ctx, input, request) => {
    const tokens = await refreshApiTokens(await getDb(), input.refresh_token, request.headers.get("User-Agent"));
    if (!tokens) throw unauthorized("The refresh token is not valid (unknown, expired, revoked or already used). Sign in again.");
    return tokenBody(tokens);
  },
});

export const authLogout = defineOperation({
  method: "POST",
  path: "/api/auth/logout",
  tag,
  summary: "Revoke the bearer token's sign-in: its access token and every refresh token of it",
  status: 204,
  run: async (ctx) => {
    if (!ctx.auth.sessionId) throw new ServiceError("An API key does not sign in or out; revoke it under Settings ▸ API keys.", 400);
    await revokeApiSession(ctx.db, ctx.auth.sessionId);
    return null;
  },
});

const UserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  tenant: z.object({ id: z.string(), name: z.string() }),
  "custom:paid": z.enum(["true", "false"]),
  "custom:showDemo": z.enum(["true", "false"]),
});

async function userData(ctx: ApiContext) {
  const { paid } = await getEntitlements(ctx.db, ctx.tenantId);
  return {
    id: ctx.auth.user.id,
    email: ctx.auth.user.email,
    name: ctx.auth.user.name,
    tenant: { id: ctx.auth.tenant.id, name: ctx.auth.tenant.name },
    "custom:paid": String(paid),
    "custom:showDemo": String(ctx.auth.tenant.isDemo),
  };
}

export const authUser = defineOperation({
  method: "GET",
  path: "/api/auth/user",
  tag,
  summary: "The signed-in user in the original product's user_data shape",
  response: UserSchema,
  run: userData,
});

export const authVerifyToken = defineOperation({
  method: "POST",
  path: "/api/auth/verify-token",
  tag,
  summary: "Whether the bearer token is valid: its user, or a 401",
  response: z.object({ data: z.object({ valid: z.literal(true), user: UserSchema }) }),
  run: async (ctx) => ({ data: { valid: true as const, user: await userData(ctx) } }),
});

export const authSignup = defineOperation({
  method: "POST",
  path: "/api/auth/signup",
  tag,
  auth: "none",
  summary: "Create an agency and its admin; a 6-digit code is e-mailed",
  description: "The password policy is the page's. Confirm with /api/auth/confirm-signup.",
  input: signUpFields(getPasswordPolicy()),
  status: 201,
  response: z.object({ data: z.object({ email: z.string(), confirmationRequired: z.literal(true) }) }),
  run: async (_ctx, input) => {
    const { email } = await signUp(await getDb(), input);
    return { data: { email, confirmationRequired: true as const } };
  },
});

export const authConfirmSignup = defineOperation({
  method: "POST",
  path: "/api/auth/confirm-signup",
  tag,
  auth: "none",
  summary: "Confirm the e-mail with its code: a bearer access token",
  errors: [429],
  input: z.object({
    email: z.string({ error: "email is required." }).trim().email("Enter a valid e-mail address."),
    code: z
      .string({ error: "code is required." })
      .trim()
      .regex(/^\d{6}$/, "code is the 6-digit code from the e-mail."),
  }),
  response: TokenSchema,
  run: async (_ctx, input, request) => {
    const user = await confirmSignUp(await getDb(), { ...input, ip: getClientIp(request) });
    return issueToken(request, user);
  },
});

export const authDemoUser = defineOperation({
  method: "POST",
  path: "/api/auth/demo-user",
  tag,
  auth: "none",
  summary: "A fresh demo agency full of sample data, and a token for it",
  status: 201,
  response: TokenSchema,
  run: async (_ctx, _input, request) => issueToken(request, await createDemoTenant(await getDb())),
});

export const usersAfterSignup = defineOperation({
  method: "POST",
  path: "/api/users/after-signup",
  tag,
  summary: "After sign-up: the signed-in user (the agency was created by sign-up itself)",
  description:
    "The original product stored the new user separately after the identity provider's sign-up; here sign-up creates it, so this answers the user as it is.",
  response: z.object({ data: UserSchema }),
  run: async (ctx) => ({ data: await userData(ctx) }),
});

export const renameUserOp = defineOperation({
  method: "PATCH",
  path: "/api/user/{id}",
  tag,
  summary: "Rename a user (oneself, or a teammate when an admin)",
  input: z.object({ id: z.string(), name: personName() }),
  run: async (ctx, input) => ({ data: await renameUser(ctx, input.id, input.name) }),
});
