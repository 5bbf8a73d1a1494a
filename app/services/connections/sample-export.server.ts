import { getPreset } from "./mapping/presets";
import { seededRandom } from "~/utils/seeded-random";

// Seed integrations/ezlynx/sample-csv: a realistic EZLynx-style book-of-business export that
// Remarket generates: customers with several policies each and every column the mapping knows,
// with the mess real exports have (BOM, `$1,234.50` next to `1234.5`, mixed date formats,
// "Last, First" names, blank lines, a duplicate row, N/A, a few rows that fail validation).
// Deterministic for a seed, streamed line by line so the benchmark's 100 000 rows never sit in memory.

export const SAMPLE_HEADERS = Object.values(getPreset("ezlynx")!.fields);

const FIRST = [
  "James",
  "Mary",
  "Robert",
  "Patricia",
  "John",
  "Jennifer",
  "Michael",
  "Linda",
  "David",
  "Elizabeth",
  "William",
  "Barbara",
  "Richard",
  "Susan",
  "Joseph",
  "Jessica",
  "Thomas",
  "Sarah",
  "Carlos",
  "Karen",
  "Daniel",
  "Lisa",
  "Matthew",
  "Nancy",
  "Anthony",
  "Betty",
  "Mark",
  "Sandra",
  "Priya",
  "Ashley",
  "Kevin",
  "Emily",
  "Brian",
  "Donna",
  "Wei",
  "Michelle",
];
const LAST = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
  "Hernandez",
  "Lopez",
  "Gonzalez",
  "Wilson",
  "Anderson",
  "Thomas",
  "Taylor",
  "Moore",
  "Jackson",
  "Martin",
  "Lee",
  "Perez",
  "Thompson",
  "White",
  "Harris",
  "Sanchez",
  "Clark",
  "Ramirez",
  "Lewis",
  "Robinson",
  "Walker",
  "Young",
  "Allen",
  "King",
  "Wright",
  "Nguyen",
  "O'Brien",
  "Patel",
];
const BUSINESS = [
  "Bayside Bakery LLC",
  "Summit Roofing Inc",
  "Green Valley Farms",
  "Lakeshore Dental Group",
  "Ironwood Construction Co",
  "Main Street Florist",
  "Coastal Auto Repair LLC",
  "Pinecrest Property Services",
  "Redline Logistics Inc",
  "Harbor Point Marina LLC",
];
const STREETS = [
  "Oak St",
  "Maple Ave",
  "Cedar Ln",
  "Pine Rd",
  "Elm St",
  "Washington Blvd",
  "Lakeview Dr",
  "Hillcrest Ave",
  "Sunset Blvd",
  "River Rd",
  "Park Pl",
  "Highland Ave",
];
const PLACES = [
  ["Austin", "TX", "78701"],
  ["Dallas", "TX", "75201"],
  ["Houston", "TX", "77002"],
  ["Tampa", "FL", "33602"],
  ["Orlando", "FL", "32801"],
  ["Atlanta", "GA", "30303"],
  ["Charlotte", "NC", "28202"],
  ["Columbus", "OH", "43215"],
  ["Phoenix", "AZ", "85004"],
  ["Denver", "CO", "80202"],
  ["Nashville", "TN", "37203"],
  ["Richmond", "VA", "23219"],
];
const CARRIERS = [
  "Progressive",
  "Safeco",
  "Travelers",
  "Nationwide",
  "Allstate",
  "The Hartford",
  "Liberty Mutual",
  "Foremost",
  "Openly",
  "Hanover",
  "Erie Insurance",
  "Auto-Owners",
  "Chubb",
  "Branch",
];
const PERSONAL_LINES = [
  ["AUTOP", 0.45],
  ["HOME", 0.3],
  ["DFIRE", 0.08],
  ["PUMBR", 0.08],
  ["BOAT", 0.04],
  ["Renters", 0.05],
] as const;
const COMMERCIAL_LINES = [
  ["BOP", 0.35],
  ["CGL", 0.25],
  ["WCOMP", 0.2],
  ["AUTOB", 0.2],
] as const;
const STATUSES = [
  ["Active", 0.82],
  ["Renewed", 0.08],
  ["Cancelled", 0.05],
  ["Expired", 0.05],
] as const;
const PRODUCERS = ["Alex Rivera", "Jordan Blake", "Morgan Chen", "Taylor Brooks"];
const CSRS = ["Casey Nguyen", "Riley Patel", "Jamie Foster"];
const BASE_PREMIUM: Record<string, number> = {
  AUTOP: 1450,
  HOME: 1850,
  DFIRE: 950,
  PUMBR: 380,
  BOAT: 420,
  Renters: 210,
  BOP: 3200,
  CGL: 2600,
  WCOMP: 5400,
  AUTOB: 4800,
};

const pad = (n: number) => String(n).padStart(2, "0");

function csvLine(cells: string[]) {
  return cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(",") + "\r\n";
}

export type SampleOptions = {
  /** Data rows (policy terms) to write, messy ones included. */
  policies?: number;
  seed?: number;
  /** Rows that fail validation on purpose (bad date, missing policy number…), spread through the file. */
  invalidRows?: number;
  /** Exact duplicate rows, spread through the file. */
  duplicateRows?: number;
  /** The "today" the terms are built around (yyyy-mm-dd); a fixed day unless given, so fixtures stay the same. */
  asOf?: string;
};

/** The `asOf` of a sample served to try the import: today, so its renewals fall due and get flagged. */
export const sampleAsOf = (now: Date) => now.toISOString().slice(0, 10);

/** The sample export as CSV text chunks. */
export async function* generateSampleExport(options: SampleOptions = {}): AsyncIterable<string> {
  const total = options.policies ?? 120;
  const random = seededRandom(options.seed ?? 20_240_601);
  const invalid = options.invalidRows ?? Math.max(2, Math.round(total * 0.001));
  const duplicates = options.duplicateRows ?? Math.max(1, Math.round(total * 0.001));
  const [asY, asM, asD] = (options.asOf ?? "2025-06-01").split("-").map(Number);
  const asOf = Date.UTC(asY, asM - 1, asD);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const weighted = <T extends string>(list: readonly (readonly [T, number])[]) => {
    let r = random();
    for (const [v, w] of list) {
      if ((r -= w) <= 0) return v;
    }
    return list[list.length - 1][0];
  };
  const invalidAt = new Set(Array.from({ length: invalid }, (_, i) => Math.floor(((i + 0.5) * total) / invalid)));
  const duplicateAt = new Set(Array.from({ length: duplicates }, (_, i) => Math.floor(((i + 0.7) * total) / duplicates)));

  yield "\uFEFF" + csvLine(SAMPLE_HEADERS);
  let written = 0;
  let customerNo = 100_000;
  let previous: string | null = null;
  let chunk = "";
  while (written < total) {
    customerNo++;
    const commercial = random() < 0.12;
    const first = pick(FIRST);
    const last = pick(LAST);
    const name = commercial ? `${pick(BUSINESS)}${random() < 0.3 ? ` #${customerNo % 97}` : ""}` : `${last}, ${first}`;
    const [city, state, zip] = pick(PLACES);
    const address = `${100 + Math.floor(random() * 9800)} ${pick(STREETS)}`;
    const email =
      random() < 0.15 ? "" : `${(commercial ? name.split(" ")[0] : first).toLowerCase().replace(/[^a-z]/g, "")}.${customerNo}@example.com`;
    const phone = `(${200 + Math.floor(random() * 700)}) ${200 + Math.floor(random() * 700)}-${String(Math.floor(random() * 10000)).padStart(4, "0")}`;
    const producer = pick(PRODUCERS);
    const csr = pick(CSRS);
    // Household: 1–4 policy terms, ~2.5 on average (40 000 customers per 100 000 policies).
    const count = 1 + Math.floor(random() * 4) + (random() < 0.05 ? 1 : 0);
    for (let p = 0; p < count && written < total; p++) {
      const lob = commercial ? weighted(COMMERCIAL_LINES) : weighted(PERSONAL_LINES);
      const term = lob === "AUTOP" && random() < 0.5 ? 6 : 12;
      const effective = asOf - Math.floor(random() * 330) * 86_400_000 + (random() < 0.3 ? 60 * 86_400_000 : 0);
      const e = new Date(effective);
      const x = new Date(Date.UTC(e.getUTCFullYear(), e.getUTCMonth() + term, e.getUTCDate()));
      const inception = new Date(Date.UTC(e.getUTCFullYear() - Math.floor(random() * 8), e.getUTCMonth(), e.getUTCDate()));
      const usDate = (d: Date) => `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()}`;
      const isoDate = (d: Date) => d.toISOString().slice(0, 10);
      const date = (d: Date) => (random() < 0.7 ? usDate(d) : isoDate(d));
      const prior = Math.round(BASE_PREMIUM[lob] * (0.6 + random() * 0.9) * (term === 6 ? 0.5 : 1) * 100) / 100;
      const premium = Math.round(prior * (0.92 + random() * 0.38) * 100) / 100;
      const money = (v: number) =>
        random() < 0.5 ? `$${v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}` : String(v);
      const renewal = random() < 0.35 ? money(Math.round(premium * (0.95 + random() * 0.3) * 100) / 100) : "";
      const cells = [
        String(customerNo),
        name,
        commercial ? "Commercial" : "Personal",
        email,
        phone,
        address,
        random() < 0.1 ? `Apt ${1 + Math.floor(random() * 40)}` : "",
        city,
        state,
        zip,
        producer,
        csr,
        `${lob.slice(0, 2).toUpperCase()}${String(customerNo).slice(-5)}${p}${Math.floor(random() * 90 + 10)}`,
        lob,
        pick(CARRIERS),
        weighted(STATUSES),
        date(inception),
        date(e),
        date(x),
        String(term),
        money(premium),
        random() < 0.06 ? "N/A" : money(prior),
        renewal,
        state,
        String(Math.floor(random() * random() * 4)),
        `${isoDate(new Date(asOf - Math.floor(random() * 30) * 86_400_000))}T${pad(Math.floor(random() * 24))}:00:00Z`,
      ];
      const index = written;
      if (invalidAt.has(index)) {
        // Rows that fail validation, as real exports have them.
        if (index % 3 === 0) cells[12] = "";
        else if (index % 3 === 1) cells[17] = "13/45/2024";
        else cells[20] = "call office";
      }
      let line = csvLine(cells);
      if (duplicateAt.has(index) && previous) line = previous;
      previous = line;
      chunk += line;
      written++;
      // A stray blank line now and then (ignored by the reader, not counted as a row).
      if (written % 500 === 250) chunk += "\r\n";
      if (chunk.length > 64_000) {
        yield chunk;
        chunk = "";
      }
    }
  }
  if (chunk) yield chunk;
}

/** The whole sample as one string (small sizes only). */
export async function sampleExportText(options: SampleOptions = {}) {
  let text = "";
  for await (const chunk of generateSampleExport(options)) text += chunk;
  return text;
}
