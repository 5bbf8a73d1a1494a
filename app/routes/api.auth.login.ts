import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { login } from "~/services/identity/accounts.server";
import { ServiceError } from "~/services/platform/errors.server";
import { createLoginSession } from "~/services/identity/login-sessions.server";
import { jsonRoute, methodNotAllowed, parseInput, readJsonObject } from "~/utils/api.server";
import { getClientIp } from "~/utils/auth.server";

const LoginSchema = z.object({
  email: z.string({ error: "email is required." }).trim().email("Enter a valid e-mail address."),
  password: z.string({ error: "PASSWORD parameter is required" }).min(1, "PASSWORD parameter is required"),
});

/** Seed auth/login for API clients: e-mail and password in, a bearer access token out. */
export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  return jsonRoute(args, ["POST"], async () => {
    const input = parseInput(LoginSchema, await readJsonObject(request));
    const db = await getDb();
    const result = await login(db, { ...input, ip: getClientIp(request) });
    if (result.status !== "ok") throw new ServiceError("Confirm your e-mail address first.", 403);
    const { token, idleExpiresAt } = await createLoginSession(db, {
      userId: result.user.id,
      tenantId: result.user.tenantId,
      userAgent: request.headers.get("User-Agent"),
    });
    return { access_token: token, token_type: "Bearer", expires_at: idleExpiresAt.toISOString() };
  });
}

export const loader = methodNotAllowed;
