import type { ActionFunctionArgs } from "@remix-run/node";
import { revokeSession } from "~/services/identity/login-sessions.server";
import { jsonRoute, requireApiContext } from "~/utils/api.server";

/** Seed auth/logout: revokes the bearer token's session. */
export async function action(args: ActionFunctionArgs) {
  return jsonRoute(args, ["POST"], async () => {
    const ctx = await requireApiContext(args.request);
    await revokeSession(ctx.db, ctx.auth.sessionId);
    return new Response(null, { status: 204 });
  });
}
