import type { ConnectionMapping } from "~/db/schema/connections";
import type { CanonicalCustomer } from "./transform";

// Rows that share a customer key but describe different insureds (issue 15: the last row used
// to win silently, and policies showed under another person's name and address). Names are
// compared beyond case, spacing, punctuation, "Last, First" order and middle initials; e-mails
// and addresses only when both rows have one, since exports often leave them blank.

export type IdentityField = "name" | "email" | "address";
type Identity = Pick<CanonicalCustomer, "name" | "email" | "address1" | "city" | "zip">;

const words = (value: string) =>
  value
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    // "O'Brien" is "OBrien", not "O Brien".
    .replace(/(\w)['’](\w)/g, "$1$2")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);

export type IdentityRule = NonNullable<ConnectionMapping["identityRule"]>;

/** How the mapping step and the summary word each rule. */
export const IDENTITY_RULE_LABELS: Record<IdentityRule, string> = {
  newest: "One customer per customer number, with the details of its most recently modified row",
  "per-name": "One customer per customer number and insured name",
};

/**
 * The customer each row belongs to, row by row in source order. "newest": its customer key. "per-name":
 * the key's first insured (`claimed`: the names already holding a key, as the database has them, or
 * the first row seen) keeps the plain key, so switching rules moves only the policies of the other
 * insureds, who get the key qualified by their name.
 */
export function createCustomerKeyResolver(rule: IdentityRule | undefined, claimed = new Map<string, string>()) {
  return (customer: Pick<CanonicalCustomer, "sourceKey" | "name">): string => {
    if (rule !== "per-name") return customer.sourceKey;
    const name = nameKey(customer.name);
    const owner = claimed.get(customer.sourceKey);
    if (owner === undefined) {
      claimed.set(customer.sourceKey, name);
      return customer.sourceKey;
    }
    return owner === name ? customer.sourceKey : `${customer.sourceKey}|name:${name}`;
  };
}

/** For `claimed`: the form of an insured's name the resolver compares. */
export const insuredNameKey = (name: string) => nameKey(name);

/** A name as a sorted list of its words, initials left out: "Smith, John A." = "john smith". */
function nameKey(name: string) {
  const all = words(name);
  const full = all.filter((w) => w.length > 1);
  return (full.length > 0 ? full : all).sort().join(" ");
}

const STREET_WORDS: Record<string, string> = {
  street: "st",
  avenue: "ave",
  av: "ave",
  road: "rd",
  drive: "dr",
  lane: "ln",
  boulevard: "blvd",
  court: "ct",
  place: "pl",
  circle: "cir",
  parkway: "pkwy",
  highway: "hwy",
  north: "n",
  south: "s",
  east: "e",
  west: "w",
  apartment: "apt",
  suite: "ste",
};

/** Street line and ZIP as the post office would read them ("12 Oak Street" = "12 oak st"). */
function addressKey(c: Identity) {
  if (!c.address1) return null;
  const street = words(c.address1)
    .map((w) => STREET_WORDS[w] ?? w)
    .join(" ");
  const zip = (c.zip ?? "").replace(/\D/g, "").slice(0, 5);
  return `${street}|${zip || words(c.city ?? "").join(" ")}`;
}

/** The fields on which two rows of one customer key describe different people. */
export function identityDifferences(a: Identity, b: Identity): IdentityField[] {
  const out: IdentityField[] = [];
  if (nameKey(a.name) !== nameKey(b.name)) out.push("name");
  if (a.email && b.email && a.email.trim().toLowerCase() !== b.email.trim().toLowerCase()) out.push("email");
  const [addrA, addrB] = [addressKey(a), addressKey(b)];
  if (addrA && addrB && addrA !== addrB) out.push("address");
  return out;
}

export type IdentityConflict = {
  key: string;
  fields: IdentityField[];
  /** The distinct values of each differing field, in row order. */
  values: Partial<Record<IdentityField, string[]>>;
  rows: number[];
};

const display = (c: Identity, field: IdentityField) =>
  field === "name" ? c.name : field === "email" ? (c.email ?? "") : [c.address1, c.city, c.zip].filter(Boolean).join(", ");

/**
 * Collects rows by customer key during a scan and reports the keys whose rows disagree.
 * Keeps one identity per distinct person seen, so memory grows with keys, not rows.
 */
export function createIdentityConflictDetector() {
  const byKey = new Map<string, { first: Identity; rows: number[]; others: Identity[] }>();
  return {
    add(rowNumber: number, customer: CanonicalCustomer) {
      const seen = byKey.get(customer.sourceKey);
      if (!seen) {
        byKey.set(customer.sourceKey, { first: customer, rows: [rowNumber], others: [] });
        return;
      }
      seen.rows.push(rowNumber);
      const known = [seen.first, ...seen.others];
      if (known.every((k) => identityDifferences(k, customer).length > 0)) seen.others.push(customer);
    },
    conflicts(): IdentityConflict[] {
      const out: IdentityConflict[] = [];
      for (const [key, seen] of byKey) {
        if (seen.others.length === 0) continue;
        const people = [seen.first, ...seen.others];
        const fields = (["name", "email", "address"] as const).filter((f) =>
          seen.others.some((o) => identityDifferences(seen.first, o).includes(f)),
        );
        const values = Object.fromEntries(fields.map((f) => [f, [...new Set(people.map((p) => display(p, f)).filter(Boolean))]]));
        out.push({ key, fields, values, rows: seen.rows });
      }
      return out;
    },
  };
}
