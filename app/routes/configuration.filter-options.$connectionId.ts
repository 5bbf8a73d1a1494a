import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { getConnection } from "~/services/connections/connections.server";
import { requireAdmin } from "~/utils/auth.server";
import { orNotFound } from "~/utils/wizard.server";

// The seed names two filter-options paths; /configure-integration/… is canonical and this one
// redirects permanently. The connection is checked first so another tenant's id is a 404 here too.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = await requireAdmin(request, context);
  const connection = await orNotFound(getConnection(ctx, params.connectionId));
  return redirect(`/configure-integration/filter-options/${connection.id}`, 301);
}
