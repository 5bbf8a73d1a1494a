import { FILTER_DIMENSIONS, type ConnectionMapping, type FilterDimension } from "~/db/schema/connections";
import { filterValues, type CanonicalCustomer, type CanonicalPolicy } from "~/services/connections/mapping/transform";
import { createIdentityConflictDetector, type IdentityConflict } from "~/services/connections/mapping/identity";
import { createRowValidator } from "~/services/connections/mapping/validate";
import { createContentMemo } from "~/utils/content-memo.server";
import type { Connector } from "./connectors/types";

// One pass over the source with a mapping: the preview (first 10 mapped rows), valid and invalid
// counts with reasons, and the distinct values the later steps offer (filters, people). Rows are
// validated exactly as the import validates them (createRowValidator: duplicates included).

export type PreviewRow = { rowNumber: number; customer: CanonicalCustomer; policy: CanonicalPolicy };
export type InvalidRow = { rowNumber: number; reasons: string[] };

export type ScanResult = {
  scanned: number;
  /** True when the scan stopped at its row limit before the end of the source. */
  truncated: boolean;
  valid: number;
  invalid: number;
  preview: PreviewRow[];
  invalidRows: InvalidRow[];
  filterValues: Record<FilterDimension, { value: string; count: number }[]>;
  /** Customer keys whose rows disagree on the insured (name, e-mail or address): the first 50. */
  identityConflicts: IdentityConflict[];
  identityConflictCount: number;
  /** Rows marked Active whose expiry has passed (imported as they are; worth a look): the count and the first 50 row numbers. */
  expiredActive: { count: number; rows: number[] };
  producers: string[];
  csrs: string[];
};

type ScanOptions = { limit?: number; previewSize?: number; invalidSamples?: number; today?: string };

// The mapping step scans up to 10,000 rows on every load: kept per stored export, mapping and day
// (the export never changes; see createContentMemo).
const scans = createContentMemo<ScanResult>(50);

export function scanSource(connector: Connector, mapping: ConnectionMapping, options: ScanOptions = {}): Promise<ScanResult> {
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const scan = () => scanOnce(connector, mapping, { ...options, today });
  if (!connector.contentKey) return scan();
  return scans.get(JSON.stringify([connector.contentKey, mapping, { ...options, today }]), scan);
}

async function scanOnce(connector: Connector, mapping: ConnectionMapping, options: ScanOptions): Promise<ScanResult> {
  const limit = options.limit ?? Infinity;
  const previewSize = options.previewSize ?? 10;
  const invalidSamples = options.invalidSamples ?? 50;
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const result: ScanResult = {
    scanned: 0,
    truncated: false,
    valid: 0,
    invalid: 0,
    preview: [],
    invalidRows: [],
    filterValues: { linesOfBusiness: [], states: [], carriers: [], statuses: [] },
    identityConflicts: [],
    identityConflictCount: 0,
    expiredActive: { count: 0, rows: [] },
    producers: [],
    csrs: [],
  };
  const counts = Object.fromEntries(FILTER_DIMENSIONS.map((d) => [d, new Map<string, number>()])) as Record<
    FilterDimension,
    Map<string, number>
  >;
  const producers = new Set<string>();
  const csrs = new Set<string>();
  const attributes = [...new Set(Object.values(mapping.fields).filter(Boolean))];

  const validate = createRowValidator(mapping);
  const identities = createIdentityConflictDetector();
  outer: for await (const page of connector.readRecords(mapping.object, { pageSize: 100, attributes })) {
    for (const row of page) {
      if (result.scanned >= limit) {
        result.truncated = true;
        break outer;
      }
      result.scanned++;
      const t = validate(row);
      if (!t.ok) {
        result.invalid++;
        if (result.invalidRows.length < invalidSamples) result.invalidRows.push({ rowNumber: row.rowNumber, reasons: t.reasons });
        continue;
      }
      result.valid++;
      // Listed by the source's own customer numbers, whichever identity rule the import then applies.
      identities.add(row.rowNumber, t.customer);
      // ISO dates compare as text.
      if (t.policy.status === "active" && t.policy.expirationDate < today) {
        result.expiredActive.count++;
        if (result.expiredActive.rows.length < 50) result.expiredActive.rows.push(row.rowNumber);
      }
      if (result.preview.length < previewSize) result.preview.push({ rowNumber: row.rowNumber, customer: t.customer, policy: t.policy });
      const values = filterValues(t.customer, t.policy);
      for (const d of FILTER_DIMENSIONS) {
        const map = counts[d];
        if (map.has(values[d]) || map.size < 500) map.set(values[d], (map.get(values[d]) ?? 0) + 1);
      }
      if (t.customer.producer && producers.size < 500) producers.add(t.customer.producer);
      if (t.customer.csr && csrs.size < 500) csrs.add(t.customer.csr);
    }
  }
  for (const d of FILTER_DIMENSIONS) {
    result.filterValues[d] = [...counts[d].entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([value, count]) => ({ value, count }));
  }
  const conflicts = identities.conflicts();
  result.identityConflictCount = conflicts.length;
  result.identityConflicts = conflicts.slice(0, 50);
  result.producers = [...producers].sort();
  result.csrs = [...csrs].sort();
  return result;
}
