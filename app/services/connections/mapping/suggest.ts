import { CANONICAL_FIELDS } from "./fields";

// Suggest a source attribute for each canonical field by name similarity: exact synonym
// matches first, then token overlap and character bigrams, each attribute used once.

/** Lower case, '#' spelled out, everything but letters and digits removed. */
export function normalizeHeader(header: string) {
  return header
    .toLowerCase()
    .replace(/#/g, " number ")
    .replace(/\bno\b\.?/g, " number ")
    .replace(/__c$/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

function tokens(text: string) {
  return new Set(normalizeHeader(splitCamel(text)).split(" ").filter(Boolean));
}

function splitCamel(text: string) {
  return text
    .replace(/__c$/, "")
    .replace(/_/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2");
}

function bigrams(text: string) {
  const s = normalizeHeader(splitCamel(text)).replace(/ /g, "");
  const grams = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) grams.set(s.slice(i, i + 2), (grams.get(s.slice(i, i + 2)) ?? 0) + 1);
  return { grams, size: Math.max(0, s.length - 1) };
}

/** Similarity of two names in [0, 1]. */
export function nameSimilarity(a: string, b: string) {
  const na = normalizeHeader(splitCamel(a));
  const nb = normalizeHeader(splitCamel(b));
  if (!na || !nb) return 0;
  if (na === nb) return 1;
  const ta = tokens(a);
  const tb = tokens(b);
  const shared = [...ta].filter((t) => tb.has(t)).length;
  const jaccard = shared / (ta.size + tb.size - shared);
  const ba = bigrams(a);
  const bb = bigrams(b);
  let overlap = 0;
  for (const [g, n] of ba.grams) overlap += Math.min(n, bb.grams.get(g) ?? 0);
  const dice = ba.size + bb.size > 0 ? (2 * overlap) / (ba.size + bb.size) : 0;
  return Math.max(jaccard, dice) * 0.95;
}

export type Suggestion = { field: string; attribute: string; score: number };

/** Best attribute per canonical field (score ≥ `threshold`), no attribute used twice. */
export function suggestMapping(attributes: string[], threshold = 0.72): Record<string, string> {
  const candidates: Suggestion[] = [];
  for (const field of CANONICAL_FIELDS) {
    for (const attribute of attributes) {
      const score = Math.max(...field.synonyms.map((s) => nameSimilarity(s, attribute)), nameSimilarity(field.label, attribute));
      if (score >= threshold) candidates.push({ field: field.key, attribute, score });
    }
  }
  // Greedy by score; ties go to the field listed first (more specific fields come first).
  candidates.sort((x, y) => y.score - x.score);
  const fields: Record<string, string> = {};
  const used = new Set<string>();
  for (const c of candidates) {
    if (fields[c.field] || used.has(c.attribute)) continue;
    fields[c.field] = c.attribute;
    used.add(c.attribute);
  }
  return fields;
}
