import { getDb } from "~/db/client.server";
import type { TenantContext } from "~/services/context.server";
import { isServiceError } from "~/services/errors.server";
import { getAuth } from "./auth.server";

/** Session-authenticated JSON routes: 401 JSON instead of a login redirect. */
export async function requireApiTenantContext(request: Request): Promise<TenantContext> {
  const auth = await getAuth(request);
  if (!auth) throw Response.json({ error: "Unauthorized" }, { status: 401 });
  return { db: await getDb(), tenantId: auth.tenant.id, userId: auth.user.id, role: auth.user.role };
}

/** Run a JSON handler, turning service errors into their status with a message. */
export async function jsonOrError(run: () => Promise<unknown>) {
  try {
    return Response.json(await run());
  } catch (error) {
    if (isServiceError(error)) return Response.json({ error: error.message }, { status: error.status });
    throw error;
  }
}
