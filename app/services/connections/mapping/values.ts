import { LINES_OF_BUSINESS, POLICY_STATUSES } from "~/db/schema/book";
import type { FilterDimension } from "~/db/schema/connections";

// Value mapping for coded fields: the source's line-of-business and status codes onto the
// canonical ones. Suggestions come from the codes and names the common systems use.

export type LineOfBusiness = (typeof LINES_OF_BUSINESS)[number];
export type PolicyStatus = (typeof POLICY_STATUSES)[number];

export const LOB_LABELS: Record<LineOfBusiness, string> = {
  PAUTO: "Personal auto",
  HOME: "Homeowners",
  DFIRE: "Dwelling fire",
  UMBRP: "Personal umbrella",
  BOP: "Business owners",
  CGL: "General liability",
  WC: "Workers compensation",
  CAUTO: "Commercial auto",
  OTHER: "Other",
};

export const STATUS_LABELS: Record<PolicyStatus, string> = {
  active: "Active",
  renewed: "Renewed",
  cancelled: "Cancelled",
  expired: "Expired",
  quoted: "Quoted",
  non_renewed: "Non-renewed",
};

/** Policies no longer in force: left out of an import until the agency ticks them in the filter options. */
export const INACTIVE_POLICY_STATUSES: readonly string[] = ["cancelled", "expired", "non_renewed"] satisfies PolicyStatus[];

/** What the filter options leave out before the agency has saved its own choice: the inactive statuses found. */
export function defaultExclusions(filterValues: Record<FilterDimension, { value: string }[]>): Record<FilterDimension, string[]> {
  return {
    linesOfBusiness: [],
    states: [],
    carriers: [],
    statuses: filterValues.statuses.map((v) => v.value).filter((v) => INACTIVE_POLICY_STATUSES.includes(v)),
  };
}

const LOB_WORDS: Record<LineOfBusiness, string[]> = {
  PAUTO: ["pauto", "auto", "autop", "personal auto", "private passenger auto", "ppa", "auto personal", "personal automobile", "automobile"],
  HOME: ["home", "homeowners", "homeowner", "ho", "ho2", "ho3", "ho4", "ho5", "ho6", "renters", "condo", "condominium", "homeowners ho3"],
  DFIRE: ["dfire", "dwelling fire", "dwelling", "dp1", "dp2", "dp3", "df", "landlord", "rental dwelling"],
  UMBRP: ["umbrp", "umbrella", "personal umbrella", "pumbr", "umb", "pumb"],
  BOP: ["bop", "business owners", "businessowners", "business owners policy"],
  CGL: ["cgl", "gl", "general liability", "commercial general liability", "liability"],
  WC: ["wc", "wcomp", "workers comp", "workers compensation", "work comp"],
  CAUTO: ["cauto", "autob", "commercial auto", "business auto", "ca", "commercial automobile"],
  OTHER: ["other", "boat", "watercraft", "motorcycle", "flood", "life", "health", "inland marine", "pet", "rv", "misc"],
};

const STATUS_WORDS: Record<PolicyStatus, string[]> = {
  active: ["active", "in force", "inforce", "a", "current", "bound", "issued", "new business"],
  renewed: ["renewed", "renewal", "r", "rewritten"],
  cancelled: ["cancelled", "canceled", "cancel", "c", "cxl", "flat cancel", "cancelled non pay", "nonpay"],
  expired: ["expired", "exp", "e", "lapsed", "inactive"],
  quoted: ["quoted", "quote", "q", "prospect", "pending"],
  non_renewed: ["non renewed", "nonrenewed", "non renew", "nr", "not renewed", "non renewal"],
};

const key = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

function lookup<T extends string>(words: Record<T, string[]>) {
  const map = new Map<string, T>();
  for (const [canonical, list] of Object.entries(words) as [T, string[]][]) {
    map.set(key(canonical), canonical);
    for (const w of list) map.set(key(w), canonical);
  }
  return map;
}
const LOB_LOOKUP = lookup(LOB_WORDS);
const STATUS_LOOKUP = lookup(STATUS_WORDS);

const lobCache = new Map<string, LineOfBusiness | null>();

/** The canonical line of business a source value most likely means, or null. */
export function suggestLineOfBusiness(value: string): LineOfBusiness | null {
  let hit = lobCache.get(value);
  if (hit === undefined) {
    hit = suggestLineOfBusinessUncached(value);
    if (lobCache.size > 5_000) lobCache.clear();
    lobCache.set(value, hit);
  }
  return hit;
}

function suggestLineOfBusinessUncached(value: string): LineOfBusiness | null {
  const k = key(value);
  if (!k) return null;
  const exact = LOB_LOOKUP.get(k) ?? LOB_LOOKUP.get(k.replace(/ /g, ""));
  if (exact) return exact;
  // "Personal Auto - Select", "HO-3 Special Form": the longest known phrase contained in it.
  let best: { lob: LineOfBusiness; length: number } | null = null;
  for (const [word, lob] of LOB_LOOKUP) {
    if (word.length < 3) continue;
    if (` ${k} `.includes(` ${word} `) && (!best || word.length > best.length)) best = { lob, length: word.length };
  }
  return best?.lob ?? null;
}

export function suggestStatus(value: string): PolicyStatus | null {
  const k = key(value);
  if (!k) return null;
  return STATUS_LOOKUP.get(k) ?? STATUS_LOOKUP.get(k.replace(/ /g, "")) ?? null;
}

/** Default value maps for the distinct values of the source (unknown lines → OTHER). */
export function suggestValueMaps(lobValues: string[], statusValues: string[]) {
  const lineOfBusiness: Record<string, string> = {};
  for (const v of lobValues) if (v.trim()) lineOfBusiness[v] = suggestLineOfBusiness(v) ?? "OTHER";
  const status: Record<string, string> = {};
  for (const v of statusValues) if (v.trim()) status[v] = suggestStatus(v) ?? "active";
  return { lineOfBusiness, status };
}

/** Apply a value map: the saved choice first, then the built-in suggestion. */
export function mapLineOfBusiness(value: string, map: Record<string, string>): LineOfBusiness | null {
  const chosen = map[value] ?? map[value.trim()];
  if (chosen && (LINES_OF_BUSINESS as readonly string[]).includes(chosen)) return chosen as LineOfBusiness;
  return suggestLineOfBusiness(value);
}

export function mapStatus(value: string, map: Record<string, string>): PolicyStatus | null {
  const chosen = map[value] ?? map[value.trim()];
  if (chosen && (POLICY_STATUSES as readonly string[]).includes(chosen)) return chosen as PolicyStatus;
  return suggestStatus(value);
}
