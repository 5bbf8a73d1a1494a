import { sql } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { queryRows } from "~/db/rows.server";
import { ensureCarrierCatalogue } from "./carrier-catalogue.server";
import { canonicalCarrierName, carrierKey, matchCarrier, type KnownCarrier } from "./carrier-names";

export type ResolvedCarrier = KnownCarrier;

/**
 * The carriers an agency's names can be matched to: the catalogue first (so it wins a shared
 * key), then the agency's own. Other agencies' own carriers are left out: their spellings are
 * theirs.
 */
export async function knownCarriers(db: DbOrTx, tenantId: string): Promise<KnownCarrier[]> {
  await ensureCarrierCatalogue(db);
  return queryRows<KnownCarrier>(
    db,
    sql`
    select c.id, c.name from carriers c
    where exists (select 1 from carrier_lines cl where cl.carrier_id = c.id)
       or exists (select 1 from tenant_carriers tc where tc.carrier_id = c.id and tc.tenant_id = ${tenantId}::uuid)
    order by exists (select 1 from carrier_lines cl where cl.carrier_id = c.id) desc, c.created_at, c.name`,
  );
}

/**
 * Imported carrier names onto carriers: a catalogue or agency carrier when the name is one of
 * its spellings (curated aliases, or equal once case, punctuation, "&" and legal-form suffixes
 * are set aside); otherwise a new carrier of the agency's own, one per normalised name.
 * Remembers what it resolved, so a 100 000-row import asks the database once per new name.
 */
export function createCarrierResolver(tenantId: string) {
  const byName = new Map<string, ResolvedCarrier>();
  let known: KnownCarrier[] | null = null;

  async function resolve(db: DbOrTx, names: readonly string[]) {
    const fresh = [...new Set(names)].filter((n) => !byName.has(n));
    if (fresh.length === 0) return;
    known ??= await knownCarriers(db, tenantId);
    const unmatched = new Map<string, { display: string; names: string[] }>();
    for (const name of fresh) {
      const match = matchCarrier(name, known);
      if (match) {
        byName.set(name, match.carrier);
        continue;
      }
      const key = carrierKey(name);
      const entry = unmatched.get(key) ?? { display: canonicalCarrierName(name) ?? name.trim(), names: [] };
      entry.names.push(name);
      unmatched.set(key, entry);
    }
    if (unmatched.size === 0) return;
    const json = JSON.stringify([...unmatched.values()].map((u) => u.display));
    // The carriers table is shared and unique by lower(name); the agency's link makes it theirs.
    await db.execute(sql`
      insert into carriers (name) select x from json_array_elements_text(${json}::json) as x
      on conflict ((lower(name))) do nothing`);
    const rows = await queryRows<KnownCarrier>(
      db,
      sql`select id, name from carriers where lower(name) in (select lower(x) from json_array_elements_text(${json}::json) as x)`,
    );
    await db.execute(sql`
      insert into tenant_carriers (tenant_id, carrier_id)
      select ${tenantId}::uuid, x::uuid from json_array_elements_text(${JSON.stringify(rows.map((r) => r.id))}::json) as x(x)
      on conflict do nothing`);
    const byLower = new Map(rows.map((r) => [r.name.toLowerCase(), r]));
    for (const entry of unmatched.values()) {
      const carrier = byLower.get(entry.display.toLowerCase());
      if (!carrier) continue;
      known.push(carrier);
      for (const name of entry.names) byName.set(name, carrier);
    }
  }

  return {
    resolve,
    /** The carrier a name resolved to (after `resolve`). */
    get: (name: string) => byName.get(name),
  };
}
