import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getDb } from "~/db/client.server";
import { touchSession } from "~/services/identity/login-sessions.server";
import { requireAuth } from "~/utils/auth.server";

/** The inactivity modal's Reset: renew the idle window now. */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireAuth(request, context);
  const idleExpiresAt = await touchSession(await getDb(), auth.sessionId);
  if (!idleExpiresAt) throw redirect("/auth/login");
  return { idleExpiresAt: idleExpiresAt.toISOString() };
}

export async function loader() {
  throw redirect("/");
}
