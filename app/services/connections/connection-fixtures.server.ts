import { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { connections } from "~/db/schema";
import { getIntegration } from "~/utils/integrations";
import { defaultMapping } from "./connection-mapping.server";
import { scanSource } from "./connection-scan.server";
import { connectorOf, saveConnectionSettings, saveMapping, uploadKeyFor } from "./connections.server";
import type { TenantContext } from "../platform/context.server";
import { generateSampleExport, type SampleOptions } from "./sample-export.server";
import { getStorage } from "../files/storage.server";

/** Store a generated sample export under a tenant-scoped key (fixtures, demo, benchmark). */
export async function storeSampleExport(tenantId: string, options: SampleOptions = {}, fileName = "ezlynx-sample-export.csv") {
  const key = uploadKeyFor(tenantId, fileName);
  const { bytes } = await getStorage().write(key, Readable.from(generateSampleExport(options)));
  return { key, name: fileName, bytes };
}

/**
 * A file connection with the sample export, its suggestions accepted and every step saved:
 * ready for "Start import". For tests, the e2e fixture route and the benchmark.
 */
export async function createReadyFileConnection(
  ctx: TenantContext,
  options: SampleOptions & { integrationId?: "csv" | "ezlynx"; name?: string; file?: { key: string; name: string; bytes: number } } = {},
) {
  const integrationId = options.integrationId ?? "ezlynx";
  const file = options.file ?? (await storeSampleExport(ctx.tenantId, options));
  const connection = await saveConnectionSettings(ctx, null, {
    integrationId,
    name: options.name ?? "EZLynx export",
    credentials: {},
    file,
  });
  const connector = connectorOf(ctx, connection);
  const mapping = await defaultMapping(connector, getIntegration(integrationId)!);
  // Through the mapping step's own save, so the people and task options exist as after the wizard.
  const scan = await scanSource(connector, mapping, { previewSize: 0, invalidSamples: 0 });
  await saveMapping(ctx, connection, mapping, { producers: scan.producers, csrs: scan.csrs });
  await ctx.db
    .update(connections)
    .set({
      mapping,
      filters: { excluded: { linesOfBusiness: [], states: [], carriers: [], statuses: [] } },
      step: "COMPLETED",
    })
    .where(and(eq(connections.id, connection.id), eq(connections.tenantId, ctx.tenantId)));
  return { ...connection, mapping, step: "COMPLETED" as const };
}

/**
 * Connection fixtures for Playwright (through /api/test-fixtures, test mode only):
 * `ready-connection` makes a file connection ready to import; `connection-state` reports
 * its latest run and what it imported.
 */
export async function connectionFixture(db: TenantContext["db"], input: Record<string, unknown>) {
  const tenantId = String(input.tenantId ?? "");
  const ctx = { db, tenantId, userId: "", role: "admin" as const };
  if (input.fixture === "ready-connection") {
    const connection = await createReadyFileConnection(ctx as TenantContext, {
      policies: Number(input.policies ?? 200),
      seed: input.seed === undefined ? undefined : Number(input.seed),
      name: typeof input.name === "string" ? input.name : undefined,
    });
    return { connectionId: connection.id };
  }
  if (input.fixture === "connection-state") {
    const { getLatestRun, importedCounts } = await import("./imports.server");
    const connectionId = String(input.connectionId ?? "");
    const run = await getLatestRun(ctx, connectionId);
    const counts = await importedCounts(db, tenantId, connectionId);
    const { sql } = await import("drizzle-orm");
    const digest = (await db.execute(sql`
      select md5(coalesce(string_agg(p.source_key || ':' || p.premium || ':' || p.expiration_date || ':' || c.name, ',' order by p.source_key), '')) as digest
      from policies p join customers c on c.id = p.customer_id
      where p.tenant_id = ${tenantId}::uuid and p.connection_id = ${connectionId}::uuid`)) as unknown as { rows: { digest: string }[] };
    return { run, counts, digest: digest.rows[0]?.digest ?? null };
  }
  return null;
}
