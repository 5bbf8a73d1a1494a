import { seal, unseal } from "~/utils/sealed.server";
import { clock, type TenantContext } from "./context.server";
import { NotFoundError, ServiceError } from "./errors.server";

// Deep links (seed deeplinks/{id}/verify): a link in an e-mail names a page of the app for one
// agency. The id is the target, the agency and the expiry sealed with AES-256-GCM, so it cannot
// be forged or pointed elsewhere, and it needs no table.

const CONTEXT = "remarket:deeplink:v1";
export const DEEP_LINK_TTL_MS = 7 * 24 * 3_600_000;

type Sealed = { t: string; tenant: string; exp: number };

/** A deep link id for `target` (a path inside the app) for the caller's agency. */
export function createDeepLink(ctx: Pick<TenantContext, "tenantId" | "now">, target: string, ttlMs = DEEP_LINK_TTL_MS) {
  if (!target.startsWith("/") || target.startsWith("//")) throw new ServiceError("target must be a path inside the app.", 400, "target");
  const exp = clock(ctx).getTime() + ttlMs;
  return { id: seal({ t: target, tenant: ctx.tenantId, exp } satisfies Sealed, CONTEXT), expiresAt: new Date(exp) };
}

/** The target of a deep link of the caller's agency; a 404 when forged or another agency's, a 410 when expired. */
export function verifyDeepLink(ctx: Pick<TenantContext, "tenantId" | "now">, id: string) {
  let link: Sealed;
  try {
    link = unseal<Sealed>(id, CONTEXT);
  } catch {
    throw new NotFoundError("Link not found");
  }
  if (link.tenant !== ctx.tenantId) throw new NotFoundError("Link not found");
  if (link.exp <= clock(ctx).getTime()) throw new ServiceError("This link has expired.", 410);
  return { target: link.t, expiresAt: new Date(link.exp) };
}
