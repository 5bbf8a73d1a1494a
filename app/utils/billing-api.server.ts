import { asServiceError } from "~/services/errors.server";
import { requireApiContext } from "./api-auth.server";

/** API routes take bearer tokens only (see api-auth.server.ts): /api/* skips the Origin check. */
export const requireApiTenantContext = requireApiContext;

/** Run a JSON handler, turning service errors into their status with a message. */
export async function jsonOrError(run: () => Promise<unknown>) {
  try {
    return Response.json(await run());
  } catch (error) {
    const serviceError = asServiceError(error);
    if (serviceError) return Response.json({ error: serviceError.message }, { status: serviceError.status });
    throw error;
  }
}
