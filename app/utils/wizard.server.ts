import { redirect, type AppLoadContext } from "@remix-run/node";
import { getConnection, type ConnectionRow } from "~/services/connections/connections.server";
import { isServiceError } from "~/services/platform/errors.server";
import { getIntegration, type Integration } from "~/utils/integrations";
import { requireAdmin } from "./auth.server";
import { stepGuardRedirect, type Step } from "./setup-steps";

/** A service's NotFoundError as the 404 response routes throw. */
export async function orNotFound<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (isServiceError(error) && error.status === 404) throw new Response("Not found", { status: 404 });
    throw error;
  }
}

/**
 * Every wizard loader and action starts here: an admin of the tenant, the tenant's connection
 * (another tenant's id is a 404), and the guard that sends a skipped-ahead request back to
 * the step the connection is at.
 */
export async function requireWizardStep(request: Request, context: AppLoadContext, connectionId: string | undefined, step: Step) {
  const ctx = await requireAdmin(request, context);
  const connection: ConnectionRow = await orNotFound(getConnection(ctx, connectionId));
  const integration: Integration | null = getIntegration(connection.integrationId);
  if (!integration) throw new Response("Not found", { status: 404 });
  const goTo = stepGuardRedirect(connection.step, step, connection.id, connection.integrationId);
  if (goTo) throw redirect(goTo);
  return { ctx, connection, integration };
}
