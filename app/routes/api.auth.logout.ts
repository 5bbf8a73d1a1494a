import type { ActionFunctionArgs } from "@remix-run/node";
import { revokeSession } from "~/services/login-sessions.server";
import { requireApiContext } from "~/utils/api-auth.server";

/** Seed auth/logout: revokes the bearer token's session. */
export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireApiContext(request);
  await revokeSession(ctx.db, ctx.auth.sessionId);
  return new Response(null, { status: 204 });
}
