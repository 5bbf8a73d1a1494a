import { count, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { carrierLines, carrierStates, carriers } from "~/db/schema";

const ALL_STATES = [
  "AL",
  "AK",
  "AZ",
  "AR",
  "CA",
  "CO",
  "CT",
  "DE",
  "DC",
  "FL",
  "GA",
  "HI",
  "ID",
  "IL",
  "IN",
  "IA",
  "KS",
  "KY",
  "LA",
  "ME",
  "MD",
  "MA",
  "MI",
  "MN",
  "MS",
  "MO",
  "MT",
  "NE",
  "NV",
  "NH",
  "NJ",
  "NM",
  "NY",
  "NC",
  "ND",
  "OH",
  "OK",
  "OR",
  "PA",
  "RI",
  "SC",
  "SD",
  "TN",
  "TX",
  "UT",
  "VT",
  "VA",
  "WA",
  "WV",
  "WI",
  "WY",
];
const except = (...states: string[]) => ALL_STATES.filter((s) => !states.includes(s));

type Entry = { name: string; lines: string[]; states: string[] };

/**
 * Major US property & casualty carriers that independent agencies are appointed with, the
 * lines they write and (approximately) where. Demo-grade reference data: agencies confirm their
 * own appointments under "My carriers".
 */
export const CARRIER_CATALOGUE: Entry[] = [
  { name: "Travelers", lines: ["PAUTO", "HOME", "DFIRE", "UMBRP", "BOP", "CGL", "WC", "CAUTO"], states: except("HI") },
  { name: "Progressive", lines: ["PAUTO", "HOME", "UMBRP", "CAUTO", "BOP", "CGL"], states: ALL_STATES },
  { name: "Safeco", lines: ["PAUTO", "HOME", "DFIRE", "UMBRP"], states: except("FL", "HI", "LA", "MA", "NY", "RI") },
  { name: "Liberty Mutual", lines: ["PAUTO", "HOME", "UMBRP", "BOP", "CGL", "WC", "CAUTO"], states: ALL_STATES },
  { name: "Nationwide", lines: ["PAUTO", "HOME", "DFIRE", "UMBRP", "BOP", "CGL", "WC", "CAUTO"], states: except("AK", "HI", "LA", "MA") },
  { name: "The Hartford", lines: ["BOP", "CGL", "WC", "CAUTO", "UMBRP"], states: ALL_STATES },
  { name: "Chubb", lines: ["HOME", "PAUTO", "UMBRP", "BOP", "CGL", "WC", "CAUTO"], states: ALL_STATES },
  {
    name: "Erie Insurance",
    lines: ["PAUTO", "HOME", "UMBRP", "BOP", "CGL", "WC", "CAUTO"],
    states: ["DC", "IL", "IN", "KY", "MD", "MN", "NY", "NC", "OH", "PA", "TN", "VA", "WV", "WI"],
  },
  {
    name: "Auto-Owners Insurance",
    lines: ["PAUTO", "HOME", "DFIRE", "UMBRP", "BOP", "CGL", "WC", "CAUTO"],
    states: [
      "AL",
      "AZ",
      "AR",
      "CO",
      "FL",
      "GA",
      "ID",
      "IL",
      "IN",
      "IA",
      "KS",
      "KY",
      "MI",
      "MN",
      "MO",
      "NE",
      "NV",
      "NM",
      "NC",
      "ND",
      "OH",
      "OR",
      "PA",
      "SC",
      "SD",
      "TN",
      "UT",
      "VA",
      "WA",
      "WI",
    ],
  },
  {
    name: "Cincinnati Insurance",
    lines: ["PAUTO", "HOME", "UMBRP", "BOP", "CGL", "WC", "CAUTO"],
    states: except("AK", "CA", "HI", "LA", "MA", "NJ", "RI"),
  },
  { name: "The Hanover", lines: ["PAUTO", "HOME", "UMBRP", "BOP", "CGL", "WC", "CAUTO"], states: except("AK", "HI") },
  {
    name: "Kemper",
    lines: ["PAUTO", "HOME"],
    states: ["AZ", "CA", "CO", "FL", "GA", "IL", "IN", "MI", "NV", "NY", "OH", "OR", "PA", "TX", "UT", "VA", "WA"],
  },
  { name: "Foremost", lines: ["HOME", "DFIRE", "PAUTO"], states: except("AK", "HI") },
  {
    name: "Mercury Insurance",
    lines: ["PAUTO", "HOME", "BOP", "CAUTO"],
    states: ["AZ", "CA", "FL", "GA", "IL", "NV", "NJ", "NY", "OK", "TX", "VA"],
  },
  {
    name: "Openly",
    lines: ["HOME"],
    states: [
      "AL",
      "AZ",
      "CO",
      "CT",
      "GA",
      "IL",
      "IN",
      "MA",
      "MD",
      "ME",
      "MI",
      "MN",
      "MO",
      "NC",
      "NH",
      "NJ",
      "OH",
      "OR",
      "PA",
      "RI",
      "SC",
      "TN",
      "TX",
      "VA",
      "WI",
    ],
  },
  {
    name: "Branch",
    lines: ["PAUTO", "HOME", "UMBRP"],
    states: [
      "AL",
      "AZ",
      "AR",
      "CO",
      "GA",
      "IL",
      "IN",
      "IA",
      "KS",
      "KY",
      "MD",
      "MI",
      "MO",
      "MS",
      "MT",
      "ND",
      "NE",
      "NM",
      "OH",
      "OK",
      "OR",
      "PA",
      "SC",
      "SD",
      "TN",
      "TX",
      "UT",
      "VA",
      "WI",
      "WV",
    ],
  },
  {
    name: "Westfield",
    lines: ["PAUTO", "HOME", "UMBRP", "BOP", "CGL", "WC", "CAUTO"],
    states: ["AZ", "CO", "IL", "IN", "IA", "KY", "MD", "MI", "MN", "NC", "ND", "OH", "PA", "SC", "SD", "TN", "TX", "VA", "WV", "WI"],
  },
  { name: "Selective", lines: ["PAUTO", "HOME", "BOP", "CGL", "WC", "CAUTO", "UMBRP"], states: except("AK", "HI", "LA") },
  { name: "Berkshire Hathaway GUARD", lines: ["BOP", "CGL", "WC", "CAUTO", "UMBRP"], states: ALL_STATES },
  { name: "Employers", lines: ["WC"], states: except("ND", "OH", "WA", "WY") },
  { name: "CNA", lines: ["BOP", "CGL", "WC", "CAUTO", "UMBRP"], states: ALL_STATES },
  { name: "Philadelphia Insurance", lines: ["BOP", "CGL", "CAUTO", "UMBRP"], states: ALL_STATES },
  { name: "American Modern", lines: ["HOME", "DFIRE", "OTHER"], states: except("HI") },
  {
    name: "Universal Property",
    lines: ["HOME", "DFIRE"],
    states: ["AL", "DE", "FL", "GA", "HI", "IL", "IN", "IA", "MD", "MA", "MI", "MN", "NH", "NY", "NC", "PA", "SC", "VA", "WV"],
  },
];

/**
 * Make sure the shared catalogue exists (idempotent; cheap when it does). Takes the caller's
 * transaction when there is one, so demo seeding never waits on another connection.
 */
export async function ensureCarrierCatalogue(db: DbOrTx) {
  const [{ n }] = await db.select({ n: count() }).from(carrierLines);
  if (n >= CARRIER_CATALOGUE.reduce((sum, c) => sum + c.lines.length, 0)) return;
  await db
    .insert(carriers)
    .values(CARRIER_CATALOGUE.map((c) => ({ name: c.name })))
    .onConflictDoNothing();
  const rows = await db
    .select({ id: carriers.id, name: carriers.name })
    .from(carriers)
    .where(
      inArray(
        sql`lower(${carriers.name})`,
        CARRIER_CATALOGUE.map((c) => c.name.toLowerCase()),
      ),
    );
  const idOf = new Map(rows.map((r) => [r.name.toLowerCase(), r.id]));
  const lines = CARRIER_CATALOGUE.flatMap((c) =>
    c.lines.map((line) => ({ carrierId: idOf.get(c.name.toLowerCase())!, lineOfBusiness: line })),
  );
  const states = CARRIER_CATALOGUE.flatMap((c) => c.states.map((state) => ({ carrierId: idOf.get(c.name.toLowerCase())!, state })));
  await db.insert(carrierLines).values(lines).onConflictDoNothing();
  await db.insert(carrierStates).values(states).onConflictDoNothing();
}
