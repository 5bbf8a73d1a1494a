import type { LoaderFunctionArgs } from "@remix-run/node";
import { getEntitlements } from "~/services/billing/entitlements.server";
import { jsonRoute, requireApiContext } from "~/utils/api.server";

/** Seed GET auth/user: the signed-in user in the seed's user_data shape. */
export async function loader(args: LoaderFunctionArgs) {
  return jsonRoute(args, ["GET"], async () => {
    const ctx = await requireApiContext(args.request);
    const { paid } = await getEntitlements(ctx.db, ctx.tenantId);
    return {
      id: ctx.auth.user.id,
      email: ctx.auth.user.email,
      name: ctx.auth.user.name,
      tenant: { id: ctx.auth.tenant.id, name: ctx.auth.tenant.name },
      "custom:paid": String(paid),
      "custom:showDemo": String(ctx.auth.tenant.isDemo),
    };
  });
}
