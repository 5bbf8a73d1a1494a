import { premiumSaved } from "./savings";
import { addDays, addMonths, format, parseISO } from "date-fns";
import { inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "~/db/client.server";
import {
  auditEvents,
  bulkActions,
  carriers,
  customers,
  employeeAccounts,
  policies,
  quotes,
  remarkets,
  renewalFlags,
  tasks,
  tenantCarriers,
  users,
} from "~/db/schema";
import { sealSecret } from "~/utils/secret-box.server";
import { ensureCarrierCatalogue } from "../connections/carrier-catalogue.server";
import { registerDemoSeeder, type DemoSeedContext } from "../platform/demo.server";
import { DEFAULT_PREFERENCE, saveForecastPreference } from "./forecast-preferences.server";
import { calendarDate, recomputeForecast } from "./forecast.server";
import { consumeRemarketQuota } from "../billing/quota.server";
import { saveTaskCreationSetting } from "../connections/task-settings.server";
import { seededRandom } from "~/utils/seeded-random";

const FIRST = [
  "Olivia",
  "Liam",
  "Emma",
  "Noah",
  "Ava",
  "Elijah",
  "Sophia",
  "James",
  "Isabella",
  "Lucas",
  "Mia",
  "Mason",
  "Amelia",
  "Ethan",
  "Harper",
  "Logan",
  "Evelyn",
  "Jackson",
  "Abigail",
  "Aiden",
  "Emily",
  "Carter",
  "Ella",
  "Wyatt",
  "Grace",
  "Owen",
  "Chloe",
  "Caleb",
  "Lily",
  "Hunter",
];
const LAST = [
  "Nguyen",
  "Garcia",
  "Johnson",
  "Patel",
  "Martinez",
  "Thompson",
  "Robinson",
  "Walker",
  "Hernandez",
  "Young",
  "King",
  "Wright",
  "Lopez",
  "Hill",
  "Green",
  "Adams",
  "Baker",
  "Nelson",
  "Campbell",
  "Mitchell",
  "Roberts",
  "Turner",
  "Phillips",
  "Parker",
  "Evans",
  "Edwards",
  "Collins",
  "Stewart",
  "Morris",
  "Reed",
];
const BUSINESSES = [
  "Gulf Coast Marine Supply",
  "Bayou Bakery LLC",
  "Lone Star Roofing Co.",
  "Red River Dental Group",
  "Pecan Grove Landscaping",
  "Harborview Auto Repair",
  "Cypress Creek Veterinary",
  "Magnolia Event Rentals",
  "Brazos Valley Plumbing",
  "Sabine Pass Seafood",
  "Hill Country Coffee Roasters",
  "Trinity Print & Sign",
];
// City, state, ZIP prefix and the city's telephone area code (demo phone numbers must be real
// numbering-plan numbers, or they cannot be shown in national format).
const CITIES: [string, string, string, string][] = [
  ["Houston", "TX", "770", "713"],
  ["Galveston", "TX", "775", "409"],
  ["Austin", "TX", "787", "512"],
  ["Beaumont", "TX", "777", "409"],
  ["Tulsa", "OK", "741", "918"],
  ["Oklahoma City", "OK", "731", "405"],
  ["Lake Charles", "LA", "706", "337"],
  ["Baton Rouge", "LA", "708", "225"],
  ["Little Rock", "AR", "722", "501"],
  ["Albuquerque", "NM", "871", "505"],
];
const PRODUCERS = ["Maria Lopez", "James Carter", "Dana Whitfield"];
const CSRS = ["Priya Shah", "Tom Becker"];
const STREETS = ["Oak", "Bayshore", "Cedar", "Main", "Harbor", "Live Oak", "Magnolia", "Elm", "Pecan", "Lakeview"];

const PERSONAL_CARRIERS: Record<string, string[]> = {
  PAUTO: ["Progressive", "Travelers", "Safeco", "Nationwide", "Kemper"],
  HOME: ["Travelers", "Safeco", "Nationwide", "Chubb", "Auto-Owners Insurance"],
  DFIRE: ["Foremost", "Safeco"],
  UMBRP: ["Travelers", "Safeco", "Chubb"],
};
const COMMERCIAL_CARRIERS: Record<string, string[]> = {
  BOP: ["The Hartford", "Cincinnati Insurance", "Nationwide"],
  CGL: ["The Hartford", "CNA", "Liberty Mutual"],
  WC: ["Employers", "Berkshire Hathaway GUARD", "The Hartford"],
  CAUTO: ["Progressive", "Travelers"],
};
/** Yearly rate change by line, plus a lean per carrier: enough signal for the predictions to differ. */
const LINE_TREND: Record<string, number> = {
  HOME: 0.09,
  PAUTO: 0.07,
  DFIRE: 0.06,
  UMBRP: 0.03,
  BOP: 0.05,
  CGL: 0.04,
  WC: -0.02,
  CAUTO: 0.08,
};
const CARRIER_LEAN: Record<string, number> = {
  Safeco: 0.04,
  Kemper: 0.05,
  Progressive: 0.02,
  Chubb: -0.02,
  Foremost: 0.03,
  "The Hartford": 0.01,
};
const BASE_PREMIUM: Record<string, [number, number]> = {
  PAUTO: [900, 3200],
  HOME: [1400, 5200],
  DFIRE: [700, 1900],
  UMBRP: [250, 600],
  BOP: [1800, 7500],
  CGL: [1200, 9000],
  WC: [2500, 24000],
  CAUTO: [3000, 16000],
};
const AGENCY_CARRIERS = ["Travelers", "Progressive", "Safeco", "Nationwide", "The Hartford", "Chubb", "Employers", "Cincinnati Insurance"];

type PolicyRow = typeof policies.$inferInsert & { id: string };

const iso = (d: Date) => format(d, "yyyy-MM-dd");
const money = (n: number) => Math.round(n * 100) / 100;

/** The demo agency's book: ~60 customers, ~150 active policies, history, re-markets, quotes and tasks. */
export async function seedBookDemo({ db, tenantId, userId, now }: DemoSeedContext) {
  const rand = seededRandom(20_260_301);
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  const between = (lo: number, hi: number) => lo + rand() * (hi - lo);
  const today = parseISO(calendarDate(now, "America/New_York"));
  const ctx = { db: db as Db, tenantId, userId, role: "admin" as const, now: () => now };

  await ensureCarrierCatalogue(db);
  const catalogue = await db
    .select({ id: carriers.id, name: carriers.name })
    .from(carriers)
    .where(
      inArray(
        sql`lower(${carriers.name})`,
        [...new Set([...Object.values(PERSONAL_CARRIERS).flat(), ...Object.values(COMMERCIAL_CARRIERS).flat(), ...AGENCY_CARRIERS])].map(
          (n) => n.toLowerCase(),
        ),
      ),
    );
  const carrierId = new Map(catalogue.map((c) => [c.name, c.id]));

  await db.insert(employeeAccounts).values(
    [...PRODUCERS.map((n) => ({ n, role: "producer" })), ...CSRS.map((n) => ({ n, role: "csr" }))].map(({ n, role }, i) => ({
      tenantId,
      sourceKey: `EMP-${100 + i}`,
      name: n,
      email: `${n.toLowerCase().replace(/\s+/g, ".")}@harborpoint.example`,
      role,
    })),
  );

  // Customers
  const customerRows = Array.from({ length: 60 }, (_, i) => {
    const commercial = i >= 48;
    const [city, state, zip, areaCode] = pick(CITIES);
    const first = FIRST[i % FIRST.length];
    const last = LAST[(i * 7 + Math.floor(i / FIRST.length) * 3) % LAST.length];
    const business = commercial ? BUSINESSES[i - 48] : null;
    const name = business ?? `${first} ${last}`;
    const slug = name
      .toLowerCase()
      .replace(/[^a-z]+/g, ".")
      .replace(/^\.|\.$/g, "");
    return {
      id: crypto.randomUUID(),
      tenantId,
      sourceKey: `HP-${String(10_001 + i)}`,
      customerType: commercial ? ("commercial" as const) : ("personal" as const),
      firstName: commercial ? null : first,
      lastName: commercial ? null : last,
      businessName: business,
      name,
      email: `${slug}@example.com`,
      phone: `+1${areaCode}555${String(1000 + i).slice(-4)}`,
      address1: `${100 + Math.floor(rand() * 8900)} ${pick(STREETS)} ${pick(["St", "Ave", "Dr", "Ln"])}`,
      city,
      state,
      zip: `${zip}${String(10 + Math.floor(rand() * 89))}`,
      producer: PRODUCERS[i % PRODUCERS.length],
      csr: CSRS[i % CSRS.length],
      createdAt: now,
      updatedAt: now,
    };
  });
  await db.insert(customers).values(customerRows);

  // Policies: every customer's current terms, some with the term before.
  const rows: PolicyRow[] = [];
  let seq = 0;
  for (const customer of customerRows) {
    const lines =
      customer.customerType === "commercial"
        ? Object.keys(COMMERCIAL_CARRIERS).filter(() => rand() < 0.7)
        : ["PAUTO", "HOME", "DFIRE", "UMBRP"].filter((l, i) => rand() < [0.95, 0.85, 0.25, 0.35][i]);
    if (lines.length === 0) lines.push(customer.customerType === "commercial" ? "BOP" : "PAUTO");
    for (const line of lines) {
      seq += 1;
      const table = customer.customerType === "commercial" ? COMMERCIAL_CARRIERS : PERSONAL_CARRIERS;
      const carrier = pick(table[line]);
      const term = line === "PAUTO" && rand() < 0.3 ? 6 : 12;
      const expiration = addDays(today, 3 + Math.floor(rand() * (term === 6 ? 180 : 360)));
      const effective = addMonths(expiration, -term);
      const firstTerm = rand() < 0.08;
      const inception = firstTerm ? effective : addMonths(effective, -12 * (1 + Math.floor(rand() * 6)));
      const [lo, hi] = BASE_PREMIUM[line];
      const premium = money(between(lo, hi) * (term === 6 ? 0.55 : 1));
      const trend = LINE_TREND[line] + (CARRIER_LEAN[carrier] ?? 0);
      const lastRate = trend + between(-0.05, 0.05);
      const nextRate = trend + between(-0.04, 0.12);
      const daysOut = Math.round((expiration.getTime() - today.getTime()) / 86_400_000);
      const state = rand() < 0.9 ? customer.state : pick(CITIES)[1];
      const zero = seq === 17 || seq === 61; // exports always carry a few $0 / blank premiums
      const row: PolicyRow = {
        id: crypto.randomUUID(),
        tenantId,
        customerId: customer.id,
        sourceKey: `${customer.sourceKey}|${line}|${iso(effective)}`,
        policyNumber: `${carrier.replace(/[^A-Z]/g, "").slice(0, 3) || "POL"}${String(4_100_000 + seq * 37)}`,
        lineOfBusiness: line as PolicyRow["lineOfBusiness"],
        lineOfBusinessRaw: line,
        carrierId: carrierId.get(carrier) ?? null,
        carrierName: carrier,
        status: "active",
        inceptionDate: iso(inception),
        effectiveDate: iso(effective),
        expirationDate: iso(expiration),
        termMonths: term,
        premium: zero ? (seq === 17 ? 0 : null) : premium,
        priorPremium: firstTerm ? null : money(premium / (1 + lastRate)),
        // Carriers publish the renewal offer 30–45 days ahead; later renewals are predicted.
        renewalPremium: daysOut <= 40 && !zero ? money(premium * (1 + nextRate)) : null,
        riskState: state,
        producer: customer.producer,
        csr: customer.csr,
        claims3y: rand() < 0.15 ? 1 : 0,
        lastModifiedAt: now,
        createdAt: now,
        updatedAt: now,
      };
      rows.push(row);
      if (!firstTerm && row.priorPremium && rand() < 0.3) {
        rows.push({
          ...row,
          id: crypto.randomUUID(),
          sourceKey: `${customer.sourceKey}|${line}|${iso(addMonths(effective, -term))}`,
          status: "renewed",
          effectiveDate: iso(addMonths(effective, -term)),
          expirationDate: iso(effective),
          premium: row.priorPremium,
          priorPremium: money(row.priorPremium / (1 + trend + between(-0.04, 0.04))),
          renewalPremium: row.premium,
        });
      }
    }
  }
  await db.insert(policies).values(rows);

  await saveForecastPreference(ctx, {
    ...DEFAULT_PREFERENCE,
    window: "yr",
    thresholdPct: 10,
    thresholdAmount: 250,
    actDaysBeforeExpiration: 90,
  });
  await saveForecastPreference(ctx, {
    ...DEFAULT_PREFERENCE,
    forecastObjectId: "WC",
    window: "yr",
    thresholdPct: 8,
    thresholdAmount: 1000,
    actDaysBeforeExpiration: 120,
  });
  await saveTaskCreationSetting(ctx, null, {
    enabled: true,
    assigneeRule: "producer",
    fixedEmployeeAccountId: null,
    activityCode: "RMKT",
    workGroup: "Renewals",
    dueDaysBeforeExpiration: 30,
  });

  await seedAgencyCarriers(db, tenantId, carrierId, now);
  const bulkExample = await seedRemarkets(db, { tenantId, userId, now, today, rows, customerRows, carrierId });
  await recomputeForecast({ db, tenantId, now: () => now });
  await seedBulkLog(db, tenantId, userId, now, bulkExample);
}

/** The demo's savings, measured as the app measures them (offer, else current premium). */
function demoSaving(chosen: { premium: number } | null, p: { renewalPremium?: number | string | null; premium?: number | string | null }) {
  if (!chosen) return { premiumSaved: null, savingsBasis: null };
  const toNumber = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));
  const saving = premiumSaved({
    chosenPremium: chosen.premium,
    incumbentOffer: toNumber(p.renewalPremium),
    currentPremium: toNumber(p.premium),
  });
  return { premiumSaved: saving?.saved ?? null, savingsBasis: saving?.basis ?? null };
}

async function seedAgencyCarriers(db: DbOrTx, tenantId: string, carrierId: Map<string, string>, now: Date) {
  await db.insert(tenantCarriers).values(
    AGENCY_CARRIERS.filter((n) => carrierId.has(n)).map((name, i) => ({
      tenantId,
      carrierId: carrierId.get(name)!,
      agencyCode: `HP${4200 + i * 11}`,
      producerCode: i % 2 === 0 ? `P-${310 + i}` : null,
      portalUsername: i < 5 ? `harborpoint.${name.toLowerCase().replace(/[^a-z]/g, "")}` : null,
      portalSecret: i < 5 ? sealSecret(`demo-portal-${i}`) : null,
      credentialsInvalid: name === "Safeco",
      credentialsCheckedAt: i < 5 ? addDays(now, -3) : null,
      createdAt: now,
      updatedAt: now,
    })),
  );
}

type RemarketSeed = {
  tenantId: string;
  userId: string;
  now: Date;
  today: Date;
  rows: PolicyRow[];
  customerRows: { id: string; name: string }[];
  carrierId: Map<string, string>;
};

/** Four closed re-markets (past terms) with quotes and outcomes, two open ones on upcoming renewals. */
async function seedRemarkets(db: DbOrTx, s: RemarketSeed) {
  const [teammate] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`${users.tenantId} = ${s.tenantId} and ${users.id} <> ${s.userId}`)
    .limit(1);
  const past = s.rows
    .filter((r) => r.status === "renewed" && Number(r.renewalPremium) > 0 && ["HOME", "PAUTO", "BOP"].includes(r.lineOfBusiness))
    .slice(0, 4);
  const upcoming = s.rows
    .filter((r) => r.status === "active" && r.renewalPremium && !past.some((p) => p.customerId === r.customerId))
    .slice(0, 2);
  const outcomes = ["rewritten", "renewed", "rewritten", "lost"] as const;
  const alternatives: Record<string, string[]> = {
    HOME: ["Safeco", "Nationwide", "Chubb"],
    PAUTO: ["Progressive", "Safeco", "Nationwide"],
    BOP: ["Cincinnati Insurance", "Nationwide", "The Hartford"],
  };

  const remarketRows: (typeof remarkets.$inferInsert)[] = [];
  const quoteRows: (typeof quotes.$inferInsert)[] = [];
  const taskRows: (typeof tasks.$inferInsert)[] = [];
  const auditRows: (typeof auditEvents.$inferInsert)[] = [];
  const customerName = new Map(s.customerRows.map((c) => [c.id, c.name]));

  const all = [...past.map((p, i) => ({ p, i, closed: true })), ...upcoming.map((p, i) => ({ p, i: i + past.length, closed: false }))];
  for (const { p, i, closed } of all) {
    const id = crypto.randomUUID();
    const at = closed ? addDays(parseISO(p.expirationDate), -(35 + i * 9)) : addDays(s.now, -(2 + i));
    const remarketedAt = at > s.now ? addDays(s.now, -20 - i) : at;
    const baseline = Number(p.renewalPremium ?? p.premium ?? 0);
    const by = i % 2 === 0 || !teammate ? s.userId : teammate.id;
    const outcome = closed ? outcomes[i] : null;
    const others = [...new Set([...(alternatives[p.lineOfBusiness] ?? []), "Travelers", "Nationwide", "Progressive"])].filter(
      (c) => c !== p.carrierName,
    );
    const offered = closed ? [others[0], others[1], p.carrierName] : i === past.length ? [others[0], others[1]] : [];
    let selected: { id: string; premium: number } | null = null;
    offered.forEach((carrier, k) => {
      const quoteId = crypto.randomUUID();
      const premium = money(baseline * [0.88, 0.95, 1.0][k]);
      const isSelected = outcome === "rewritten" ? k === 0 : outcome === "renewed" ? carrier === p.carrierName : false;
      if (isSelected) selected = { id: quoteId, premium };
      quoteRows.push({
        id: quoteId,
        tenantId: s.tenantId,
        remarketId: id,
        policyId: p.id,
        carrierId: s.carrierId.get(carrier) ?? null,
        carrierName: carrier,
        premium,
        effectiveDate: p.expirationDate,
        coverageNotes: ["Same limits, $1,000 deductible", "Higher wind/hail deductible (2%)", "Renewal offer, no coverage change"][k],
        selected: isSelected,
        createdBy: by,
        createdAt: addDays(remarketedAt, 3 + k),
        updatedAt: addDays(remarketedAt, 3 + k),
      });
    });
    const closedAt = closed ? addDays(remarketedAt, 18) : null;
    const chosen = selected as { id: string; premium: number } | null;
    remarketRows.push({
      id,
      tenantId: s.tenantId,
      policyId: p.id,
      customerId: p.customerId,
      userId: by,
      quotaYear: remarketedAt.getUTCFullYear(),
      remarketedAt,
      baselinePremium: baseline,
      incumbentCarrierName: p.carrierName,
      status: closed ? "closed" : "open",
      outcome,
      selectedQuoteId: chosen?.id ?? null,
      boundPremium: chosen?.premium ?? null,
      incumbentOffer: p.renewalPremium === null || p.renewalPremium === undefined ? null : Number(p.renewalPremium),
      ...demoSaving(chosen, p),
      closedAt,
      closedBy: closed ? by : null,
    });
    const due = addDays(parseISO(p.expirationDate), -30);
    taskRows.push({
      tenantId: s.tenantId,
      remarketId: id,
      policyId: p.id,
      customerId: p.customerId,
      title: `Re-market ${p.lineOfBusiness} policy ${p.policyNumber} for ${customerName.get(p.customerId)}`,
      assignee: p.producer,
      activityCode: "RMKT",
      workGroup: "Renewals",
      dueDate: iso(due < s.today && !closed ? s.today : due),
      status: closed ? "done" : "open",
      writeback: "none",
      createdAt: remarketedAt,
      completedAt: closedAt,
    });
    auditRows.push({
      tenantId: s.tenantId,
      actorUserId: by,
      action: "policy.remarketed",
      subjectType: "policy",
      subjectId: p.id,
      details: { remarketId: id, policyNumber: p.policyNumber },
      createdAt: remarketedAt,
    });
    if (closed)
      auditRows.push({
        tenantId: s.tenantId,
        actorUserId: by,
        action: outcome === "lost" ? "remarket.lost" : "quote.selected",
        subjectType: "policy",
        subjectId: p.id,
        details: { remarketId: id, outcome },
        createdAt: closedAt!,
      });
    await consumeRemarketQuota(db, s.tenantId, remarketedAt);
  }
  await db.insert(remarkets).values(remarketRows);
  if (quoteRows.length) await db.insert(quotes).values(quoteRows);
  await db.insert(tasks).values(taskRows);
  await db.insert(auditEvents).values(auditRows);
  // The open re-markets came from the worklist: their flags say so.
  const flagRows = remarketRows.filter((r) => r.status === "open");
  for (const r of flagRows) {
    const p = s.rows.find((row) => row.id === r.policyId)!;
    const current = Number(p.premium);
    const renewal = Number(p.renewalPremium);
    await db.insert(renewalFlags).values({
      tenantId: s.tenantId,
      policyId: p.id,
      customerId: p.customerId,
      customerName: customerName.get(p.customerId)!,
      policyNumber: p.policyNumber,
      lineOfBusiness: p.lineOfBusiness,
      carrierName: p.carrierName,
      riskState: p.riskState,
      producer: p.producer,
      expirationDate: p.expirationDate,
      priorPremium: p.priorPremium,
      currentPremium: current,
      renewalPremium: renewal,
      predicted: false,
      changePct: money(((renewal - current) / current) * 100),
      changeAmount: money(renewal - current),
      status: "remarketed",
      ruleVersion: "renewal-flag/v1",
      why: {
        ruleVersion: "renewal-flag/v1",
        forecastObjectId: "all",
        thresholdPct: 10,
        thresholdAmount: 250,
        actDaysBeforeExpiration: 90,
        triggered: ["pct"],
        compared: {
          currentPremium: current,
          renewalPremium: renewal,
          predicted: false,
          predictionLevel: null,
          predictionSample: null,
          changePct: money(((renewal - current) / current) * 100),
          changeAmount: money(renewal - current),
          daysToExpiry: 30,
        },
      },
      statusChangedAt: r.remarketedAt,
      statusChangedBy: r.userId,
      flaggedAt: addDays(r.remarketedAt as Date, -1),
    });
  }
  const example = s.rows.find((row) => row.id === flagRows[0]?.policyId);
  return {
    label: example ? `${example.policyNumber} (${customerName.get(example.customerId)})` : "Unknown policy",
    remarketedAt: (flagRows[0]?.remarketedAt as Date | undefined) ?? s.now,
  };
}

/**
 * A bulk dismissal that met a renewal already re-marketed: dated after that re-market, and with
 * nothing done, because the demo book has no dismissed renewals for a log to point at.
 */
async function seedBulkLog(db: DbOrTx, tenantId: string, userId: string, now: Date, failed: { label: string; remarketedAt: Date }) {
  const attemptedAt = new Date(Math.min(now.getTime(), failed.remarketedAt.getTime() + 86_400_000));
  await db.insert(bulkActions).values({
    tenantId,
    userId,
    action: "dismiss",
    requested: 1,
    succeeded: 0,
    failures: [{ id: crypto.randomUUID(), label: failed.label, reason: "Already re-marketed." }],
    details: "Reason: Customer is moving out of state",
    createdAt: attemptedAt,
  });
}

registerDemoSeeder("book", seedBookDemo, 20);
