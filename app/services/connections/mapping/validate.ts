import type { ConnectionMapping } from "~/db/schema/connections";
import { transformRow, type SourceRow, type TransformResult } from "./transform";

// The one row validation of an export: the mapping preview (counts of valid and invalid rows)
// and the import (what it writes and what it rejects) both call `createRowValidator`, so the
// preview never counts a row as valid that the import then rejects.

export const duplicateReason = (firstRow: number) => `Duplicate of row ${firstRow} (same customer, policy number and effective date)`;

/**
 * Validates rows in source order: the mapping and value maps (transformRow), then duplicates:
 * a second row with the policy source key (customer + policy number + effective date) of an
 * earlier row is rejected, naming the first.
 */
export function createRowValidator(mapping: ConnectionMapping) {
  const seen = new SourceKeyIndex();
  return (row: SourceRow): TransformResult => {
    const t = transformRow(row, mapping);
    if (!t.ok) return t;
    const first = seen.remember(t.policy.sourceKey, row.rowNumber);
    if (first !== null) return { ok: false, reasons: [duplicateReason(first)] };
    return t;
  };
}

/**
 * Which row first had each source key, for 100 000s of rows in a few MB: a 64-bit hash of the key
 * in typed arrays (open addressing) instead of a Map of key strings, which held 10+ MB of strings
 * per pass and, kept across many young-generation collections, was promoted and left as garbage
 * in the old generation (the import's peak RSS). Two different keys share a 64-bit hash with a
 * probability near 1e-8 for a million rows; the cost then is one row wrongly reported duplicate.
 */
export class SourceKeyIndex {
  private hi = new Uint32Array(1024);
  private lo = new Uint32Array(1024);
  private rows = new Int32Array(1024); // row number + 1; 0 = empty slot
  private size = 0;

  /** The row that first had `key`, or null (and `row` is remembered as its first). */
  remember(key: string, row: number): number | null {
    let h1 = 0x811c9dc5;
    let h2 = 0x9747b28c;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    h1 = fmix(h1 ^ key.length) >>> 0;
    h2 = fmix(h2 ^ key.length) >>> 0;
    if ((this.size + 1) * 2 > this.rows.length) this.grow();
    const mask = this.rows.length - 1;
    for (let slot = h1 & mask; ; slot = (slot + 1) & mask) {
      const stored = this.rows[slot];
      if (stored === 0) {
        this.hi[slot] = h1;
        this.lo[slot] = h2;
        this.rows[slot] = row + 1;
        this.size++;
        return null;
      }
      if (this.hi[slot] === h1 && this.lo[slot] === h2) return stored - 1;
    }
  }

  private grow() {
    const { hi, lo, rows } = this;
    const capacity = rows.length * 2;
    this.hi = new Uint32Array(capacity);
    this.lo = new Uint32Array(capacity);
    this.rows = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let i = 0; i < rows.length; i++) {
      if (rows[i] === 0) continue;
      let slot = hi[i] & mask;
      while (this.rows[slot] !== 0) slot = (slot + 1) & mask;
      this.hi[slot] = hi[i];
      this.lo[slot] = lo[i];
      this.rows[slot] = rows[i];
    }
  }
}

/** MurmurHash3's finalizer: spreads every input bit over the 32 bits. */
function fmix(h: number) {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
