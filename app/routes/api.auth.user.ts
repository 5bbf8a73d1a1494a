import type { LoaderFunctionArgs } from "@remix-run/node";
import { getEntitlements } from "~/services/entitlements.server";
import { requireApiContext } from "~/utils/api-auth.server";

/** Seed GET auth/user: the signed-in user in the seed's user_data shape. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiContext(request);
  const { paid } = await getEntitlements(ctx.db, ctx.tenantId);
  return Response.json({
    id: ctx.auth.user.id,
    email: ctx.auth.user.email,
    name: ctx.auth.user.name,
    tenant: { id: ctx.auth.tenant.id, name: ctx.auth.tenant.name },
    "custom:paid": String(paid),
    "custom:showDemo": String(ctx.auth.tenant.isDemo),
  });
}
