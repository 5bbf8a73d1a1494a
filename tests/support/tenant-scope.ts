import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { createTestTenant } from "./factories";

// Tenant isolation of lists, counts, searches, aggregates and exports (issue 19). Each test makes
// two fresh tenants that both have rows, reads as each, and checks that the answer is exactly that
// tenant's own: the rows (by id), the totals, and no trace of the other tenant anywhere in it. The
// database is shared with other test files, so nothing is asserted about rows the test did not
// make; a leak shows up as the other tenant's rows (or a count that includes them).

export type TestTenant = Awaited<ReturnType<typeof createTestTenant>>;

/** A fresh tenant about to be seeded. */
export type SeedTarget = TestTenant & {
  /** "A" or "B", for messages. */
  label: "A" | "B";
  /** 0 for A, 1 for B: seed a different number of rows per tenant so a leaked row changes a count. */
  index: 0 | 1;
  /** A short token unique to this tenant, for names that must not collide with anyone's. */
  tag: string;
};

export type ScopedTenant<S> = SeedTarget & {
  /** What `seed` returned: the tenant's own ids and names (its markers). */
  seed: S;
};

export type TenantPair<S> = readonly [ScopedTenant<S>, ScopedTenant<S>];

/**
 * Two fresh tenants, each seeded by `seed(tenant)`. Put in the seed only what belongs to that
 * tenant (ids, names made with `tenant.tag`): every string of 8 or more characters in it is a
 * marker that must never appear in the other tenant's answers. Values both tenants may see (a
 * catalogue carrier's id) go under the seed's `shared` key, which is not searched.
 */
export async function twoTenants<S>(seed: (t: SeedTarget) => Promise<S>): Promise<TenantPair<S>> {
  const make = async (index: 0 | 1): Promise<ScopedTenant<S>> => {
    const base = await createTestTenant({ name: `Scope ${index ? "B" : "A"} ${randomUUID().slice(0, 6)}` });
    const t: SeedTarget = { ...base, label: index ? "B" : "A", index, tag: randomUUID().slice(0, 8) };
    return { ...t, seed: await seed(t) };
  };
  const a = await make(0);
  const b = await make(1);
  return [a, b];
}

/**
 * Read as each tenant (`read(me, other)`: `other` is there for reads that pass the other
 * tenant's ids) and check that `view(answer)` equals `expected(me)` and that nothing of the other
 * tenant's seed appears anywhere in the answer.
 */
export async function expectTenantScoped<S, R, V>(
  pair: TenantPair<S>,
  read: (me: ScopedTenant<S>, other: ScopedTenant<S>) => Promise<R>,
  view: (answer: R) => V,
  expected: (me: ScopedTenant<S>, other: ScopedTenant<S>) => NoInfer<V>,
) {
  for (const [me, other] of [pair, [pair[1], pair[0]]] as const) {
    const seeded = markersOf(other);
    expect(seeded.length, `tenant ${other.label}'s seed has rows that could leak`).toBeGreaterThan(0);
    const foreign = [...seeded, other.tenant.id, other.user.id, other.user.email];
    const answer = await read(me, other);
    const text = serialize(answer);
    expect(
      foreign.filter((marker) => text.includes(marker)),
      `tenant ${me.label}'s answer shows tenant ${other.label}'s rows`,
    ).toEqual([]);
    expect(view(answer), `tenant ${me.label}'s answer`).toEqual(expected(me, other));
  }
}

/** The sorted values of `key` in `rows` (ids by default): compare row sets without caring for order. */
export function ids<T extends Record<string, unknown>>(rows: readonly T[], key: keyof T = "id") {
  return rows.map((r) => String(r[key])).sort();
}

/** `values` sorted, for comparing with `ids(...)`. */
export const sorted = (values: readonly string[]) => [...values].sort();

/** Every string of the tenant's seed long enough to be unique to it (its rows' ids and names). */
function markersOf(t: ScopedTenant<unknown>) {
  const found = new Set<string>();
  const visit = (value: unknown) => {
    if (typeof value === "string") {
      if (value.length >= 8) found.add(value);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value instanceof Map) [...value.entries()].forEach(visit);
    else if (value && typeof value === "object" && !(value instanceof Date)) Object.values(value).forEach(visit);
  };
  const seed = t.seed && typeof t.seed === "object" && "shared" in t.seed ? { ...t.seed, shared: undefined } : t.seed;
  visit(seed);
  return [...found];
}

/** JSON of any answer, with Maps, Sets and BigInts spelled out (JSON.stringify would drop them). */
function serialize(value: unknown) {
  if (typeof value === "string") return value;
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Map) return [...v.entries()];
    if (v instanceof Set) return [...v];
    if (typeof v === "bigint") return v.toString();
    return v;
  });
}
