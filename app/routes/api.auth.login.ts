import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { login } from "~/services/auth.server";
import { isServiceError } from "~/services/errors.server";
import { createLoginSession } from "~/services/login-sessions.server";
import { getClientIp } from "~/utils/auth.server";

const LoginSchema = z.object({ email: z.string().trim().email(), password: z.string().min(1, "PASSWORD parameter is required") });

/** Seed auth/login for API clients: e-mail and password in, a bearer access token out. */
export async function action({ request }: ActionFunctionArgs) {
  const body = await request.json().catch(() => null);
  const parsed = LoginSchema.safeParse(body);
  if (!parsed.success) {
    return Response.json({ error: parsed.error.issues[0]?.message ?? "Invalid request" }, { status: 400 });
  }
  const db = await getDb();
  try {
    const result = await login(db, { ...parsed.data, ip: getClientIp(request) });
    if (result.status !== "ok") return Response.json({ error: "Confirm your e-mail address first." }, { status: 403 });
    const { token, idleExpiresAt } = await createLoginSession(db, {
      userId: result.user.id,
      tenantId: result.user.tenantId,
      userAgent: request.headers.get("User-Agent"),
    });
    return Response.json({ access_token: token, token_type: "Bearer", expires_at: idleExpiresAt.toISOString() });
  } catch (error) {
    if (isServiceError(error)) return Response.json({ error: error.message }, { status: error.status });
    throw error;
  }
}

export async function loader() {
  return Response.json({ error: "Use POST" }, { status: 405 });
}
