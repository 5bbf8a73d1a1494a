import { CARRIER_ALIASES } from "./carrier-aliases";

// Carrier names as agency systems export them ("ERIE INS CO", "Auto-Owners", "Erie Insurance
// Group") onto one carrier each. Pure: the import, the quote form and the outcome all use it.

/** Trailing words that name the legal form rather than the carrier; stripped one at a time. */
const SUFFIXES = new Set([
  "insurance",
  "ins",
  "co",
  "cos",
  "company",
  "companies",
  "group",
  "grp",
  "mutual",
  "inc",
  "incorporated",
  "corp",
  "corporation",
  "llc",
  "ltd",
  // "Chubb Group of Insurance Companies": what is left once the suffixes go.
  "of",
]);

/** Lower case, no accents or punctuation, "&" as "and", no leading "the", no "of America". */
export function spellingKey(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    // "Auto-Owners" and "AutoOwners" read alike only once hyphens join rather than split.
    .replace(/(\w)[-'’](\w)/g, "$1$2")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
  if (words[0] === "the" && words.length > 1) words.shift();
  if (words.length > 2 && words.at(-2) === "of" && words.at(-1) === "america") words.splice(-2);
  return words.join(" ");
}

/** The spelling key without its legal-form suffixes ("erie insurance group" → "erie"). */
export function coreKey(name: string): string {
  const words = spellingKey(name).split(" ");
  while (words.length > 1 && SUFFIXES.has(words.at(-1)!)) words.pop();
  return words.join(" ");
}

/** Progressively shorter spellings, longest first: each stripped suffix is one more try. */
function candidates(name: string): string[] {
  const words = spellingKey(name).split(" ");
  const out = [words.join(" ")];
  while (words.length > 1 && SUFFIXES.has(words.at(-1)!)) {
    words.pop();
    out.push(words.join(" "));
  }
  return out;
}

function buildAliasIndex() {
  const index = new Map<string, string>();
  const exact: [string, string][] = [];
  for (const [canonical, aliases] of Object.entries(CARRIER_ALIASES)) {
    for (const spelling of [canonical, ...aliases]) exact.push([spellingKey(spelling), canonical]);
  }
  // Exact spellings first, so a core key ("employers" from "Employers Mutual") never displaces
  // a carrier whose own name it is.
  for (const [key, canonical] of exact) if (!index.has(key)) index.set(key, canonical);
  for (const [canonical, aliases] of Object.entries(CARRIER_ALIASES)) {
    for (const spelling of [canonical, ...aliases]) {
      const key = coreKey(spelling);
      if (!index.has(key)) index.set(key, canonical);
    }
  }
  return index;
}

const ALIAS_INDEX = buildAliasIndex();

/** The curated name of a well-known carrier written any of its usual ways, or null. */
export function canonicalCarrierName(name: string): string | null {
  for (const key of candidates(name)) {
    const hit = ALIAS_INDEX.get(key);
    if (hit) return hit;
  }
  return null;
}

/** One key per carrier: two spellings of the same carrier give the same key. */
export function carrierKey(name: string): string {
  return coreKey(canonicalCarrierName(name) ?? name);
}

/** Whether two carrier names (a quote's and a policy's) mean the same carrier. */
export function sameCarrier(a: string, b: string): boolean {
  const ka = carrierKey(a);
  return ka !== "" && ka === carrierKey(b);
}

export type KnownCarrier = { id: string; name: string };
export type CarrierMatch<C extends KnownCarrier> = { carrier: C; how: "alias" | "normalised" };

/**
 * The known carrier this name is, by curated alias or by normalised name; null when none is
 * (similar-looking names are only suggestions: see `suggestCarrier`). When several known
 * carriers share the key (a catalogue entry and an old imported spelling), the first wins,
 * so callers list catalogue carriers first.
 */
export function matchCarrier<C extends KnownCarrier>(name: string, known: readonly C[]): CarrierMatch<C> | null {
  const canonical = canonicalCarrierName(name);
  const key = coreKey(canonical ?? name);
  if (!key) return null;
  const carrier = known.find((c) => carrierKey(c.name) === key);
  if (!carrier) return null;
  return { carrier, how: canonical ? "alias" : "normalised" };
}

function bigrams(value: string) {
  const s = value.replace(/ /g, "");
  const grams = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) grams.set(s.slice(i, i + 2), (grams.get(s.slice(i, i + 2)) ?? 0) + 1);
  return grams;
}

/** Dice coefficient of two strings' letter pairs: 1 is identical, 0 shares nothing. */
export function similarity(a: string, b: string): number {
  const ga = bigrams(a);
  const gb = bigrams(b);
  const total = [...ga.values()].reduce((s, n) => s + n, 0) + [...gb.values()].reduce((s, n) => s + n, 0);
  if (total === 0) return a === b ? 1 : 0;
  let shared = 0;
  for (const [gram, n] of ga) shared += Math.min(n, gb.get(gram) ?? 0);
  return (2 * shared) / total;
}

/** How alike two core keys must be before a carrier is suggested (never applied unasked). */
export const SUGGESTION_THRESHOLD = 0.8;

/** The most similar known carrier for a name nothing matched ("Progresive"), or null. */
export function suggestCarrier<C extends KnownCarrier>(
  name: string,
  known: readonly C[],
  threshold = SUGGESTION_THRESHOLD,
): { carrier: C; score: number } | null {
  const key = carrierKey(name);
  let best: { carrier: C; score: number } | null = null;
  for (const carrier of known) {
    const score = similarity(key, carrierKey(carrier.name));
    if (score >= threshold && (!best || score > best.score)) best = { carrier, score };
  }
  return best;
}
