import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { fileDomainConfigs } from "~/db/schema";
import { FILE_DOMAINS, type DomainConfig, type FileDomain } from "~/utils/file-options";

export { type DomainConfig } from "~/utils/file-options";
import { clock, type TenantContext } from "../platform/context.server";
import { ServiceError } from "../platform/errors.server";

export function defaultDomainConfig(domain: FileDomain): DomainConfig {
  return { domain, delimiter: "auto", headerRow: 1, dateFormat: "auto", encoding: "auto" };
}

/** The parse options processing uses for files of `domain` (seed files/config?domain=). */
export async function getDomainConfig(db: DbOrTx, tenantId: string, domain: FileDomain): Promise<DomainConfig> {
  const [row] = await db
    .select({
      domain: fileDomainConfigs.domain,
      delimiter: fileDomainConfigs.delimiter,
      headerRow: fileDomainConfigs.headerRow,
      dateFormat: fileDomainConfigs.dateFormat,
      encoding: fileDomainConfigs.encoding,
    })
    .from(fileDomainConfigs)
    .where(and(eq(fileDomainConfigs.tenantId, tenantId), eq(fileDomainConfigs.domain, domain)));
  return row ?? defaultDomainConfig(domain);
}

/** Every domain's configuration, defaults filled in. */
export async function listDomainConfigs(ctx: TenantContext) {
  return Promise.all(FILE_DOMAINS.map((domain) => getDomainConfig(ctx.db, ctx.tenantId, domain)));
}

/** Save one domain's parse options (admins only: seed POST files/config). */
export async function saveDomainConfig(ctx: TenantContext, input: DomainConfig) {
  if (ctx.role !== "admin") throw new ServiceError("Only agency admins can change file settings.", 403);
  const now = clock(ctx);
  const values = {
    delimiter: input.delimiter,
    headerRow: input.headerRow,
    dateFormat: input.dateFormat,
    encoding: input.encoding,
    updatedBy: ctx.userId,
    updatedAt: now,
  };
  await ctx.db
    .insert(fileDomainConfigs)
    .values({ tenantId: ctx.tenantId, domain: input.domain, ...values })
    .onConflictDoUpdate({ target: [fileDomainConfigs.tenantId, fileDomainConfigs.domain], set: values });
}
