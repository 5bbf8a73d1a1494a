import { addMonths, format, parseISO } from "date-fns";
import type { FlagWhy } from "~/db/schema";
import { daysBetween } from "~/utils/renewals";
import type { ForecastPreference } from "./forecast-preferences.server";

/**
 * The flagging rules, as pure functions over one renewal (and, for the per-customer cap, the
 * list of candidates). Bump the version whenever a rule changes: every flag stores it.
 */
export const FLAG_RULE_VERSION = "renewal-flag/v1";

/** Re-marketed within this many days: the customer's other renewals wait (one outreach per household). */
export const FREQUENCY_CAP_DAYS = 30;

export type RenewalInput = {
  policyId: string;
  customerId: string;
  status: string;
  lineOfBusiness: string;
  carrierName: string;
  riskState: string | null;
  inceptionDate: string | null;
  effectiveDate: string;
  expirationDate: string;
  premium: number | null;
  priorPremium: number | null;
  renewalPremium: number | null;
};

export type PredictionLevel = "carrier_line_state" | "carrier_line" | "line" | "tenant";
export type Prediction = { rate: number; level: PredictionLevel; sample: number };

export type Exclusion =
  | "not_active"
  | "outside_window"
  | "no_premium"
  | "first_term"
  | "no_prediction"
  | "below_threshold"
  | "not_yet"
  | "recently_remarketed"
  | "customer_in_worklist"
  | "already_handled";

export type Evaluation = {
  policyId: string;
  customerId: string;
  expirationDate: string;
  daysToExpiry: number;
  inWindow: boolean;
  currentPremium: number | null;
  priorPremium: number | null;
  renewalPremium: number | null;
  predicted: boolean;
  prediction: Prediction | null;
  changePct: number | null;
  changeAmount: number | null;
  /** Passes the rules that do not depend on thresholds, timing or other renewals (what-if counts these). */
  eligible: boolean;
  triggered: ("pct" | "amount")[];
  exclusion: Exclusion | null;
  why: FlagWhy | null;
};

const round2 = (n: number) => Math.round(n * 100) / 100;

const windowEnds = new Map<string, string>();

/** The last day of the forecast window that starts `today` (seed §5 period codes). */
export function windowEnd(today: string, window: ForecastPreference["window"]) {
  // Called once per renewal: a million renewals share a handful of answers.
  const key = `${today}|${window}`;
  let end = windowEnds.get(key);
  if (!end) {
    end = format(addMonths(parseISO(today), window === "6m" ? 6 : 12), "yyyy-MM-dd");
    if (windowEnds.size > 1000) windowEnds.clear();
    windowEnds.set(key, end);
  }
  return end;
}

/** First term: the term started at inception (or, without an inception date, nothing came before it). */
export function isFirstTerm(p: Pick<RenewalInput, "inceptionDate" | "effectiveDate" | "priorPremium">) {
  if (p.inceptionDate) return p.inceptionDate >= p.effectiveDate;
  return p.priorPremium === null || p.priorPremium === undefined;
}

/**
 * One renewal against one preference: in the window? what will it cost (the carrier's offer, or
 * our prediction)? over a threshold, inside the act-before-expiry days, not excluded?
 * `today` is the tenant's calendar date (yyyy-mm-dd).
 */
export function evaluateRenewal(input: RenewalInput, pref: ForecastPreference, prediction: Prediction | null, today: string): Evaluation {
  const daysToExpiry = daysBetween(today, input.expirationDate);
  const inWindow = input.expirationDate >= today && input.expirationDate <= windowEnd(today, pref.window);
  const current = input.premium === null || input.premium === undefined ? null : Number(input.premium);
  const known = input.renewalPremium !== null && input.renewalPremium !== undefined && Number(input.renewalPremium) > 0;
  let renewal: number | null = known ? Number(input.renewalPremium) : null;
  let predicted = false;
  if (renewal === null && current !== null && current > 0 && prediction) {
    renewal = round2(current * (1 + prediction.rate));
    predicted = true;
  }
  const changeAmount = renewal !== null && current !== null ? round2(renewal - current) : null;
  const changePct = changeAmount !== null && current !== null && current > 0 ? round2((changeAmount / current) * 100) : null;

  const triggered: ("pct" | "amount")[] = [];
  if (changeAmount !== null && changeAmount > 0) {
    if (changePct !== null && changePct >= pref.thresholdPct) triggered.push("pct");
    if (pref.thresholdAmount !== null && changeAmount >= pref.thresholdAmount) triggered.push("amount");
  }

  const zeroPremium = current === null || current <= 0;
  let exclusion: Exclusion | null = null;
  if (input.status !== "active") exclusion = "not_active";
  else if (zeroPremium && (pref.excludeZeroPremium || current === null)) exclusion = "no_premium";
  else if (pref.excludeFirstTerm && isFirstTerm(input)) exclusion = "first_term";
  else if (renewal === null) exclusion = "no_prediction";
  // Eligible ignores window, thresholds and timing, so the what-if can vary them in SQL.
  const eligible = exclusion === null;
  if (eligible && !inWindow) exclusion = "outside_window";
  else if (eligible && triggered.length === 0) exclusion = "below_threshold";
  else if (eligible && daysToExpiry > pref.actDaysBeforeExpiration) exclusion = "not_yet";

  const why: FlagWhy | null =
    exclusion === null && renewal !== null && current !== null && changeAmount !== null
      ? {
          ruleVersion: FLAG_RULE_VERSION,
          forecastObjectId: pref.forecastObjectId,
          thresholdPct: pref.thresholdPct,
          thresholdAmount: pref.thresholdAmount,
          actDaysBeforeExpiration: pref.actDaysBeforeExpiration,
          triggered,
          compared: {
            currentPremium: current,
            renewalPremium: renewal,
            predicted,
            predictionLevel: predicted ? (prediction?.level ?? null) : null,
            predictionSample: predicted ? (prediction?.sample ?? null) : null,
            changePct: changePct ?? 0,
            changeAmount,
            daysToExpiry,
          },
        }
      : null;

  return {
    policyId: input.policyId,
    customerId: input.customerId,
    expirationDate: input.expirationDate,
    daysToExpiry,
    inWindow,
    currentPremium: current,
    priorPremium: input.priorPremium === null || input.priorPremium === undefined ? null : Number(input.priorPremium),
    renewalPremium: renewal,
    predicted,
    prediction: predicted ? prediction : null,
    changePct,
    changeAmount,
    eligible,
    triggered,
    exclusion,
    why,
  };
}

export type ExistingFlag = { customerId: string; status: "open" | "remarketed" | "dismissed" | "snoozed" };

/**
 * The per-customer rules over every candidate (renewals that pass the single-renewal rules):
 * a customer re-marketed in the last 30 days waits (open flags leave the worklist, snoozed ones
 * stay: someone chose them); a customer is in the worklist once — a
 * renewal already there (open or snoozed) keeps its place, otherwise the earliest expiry wins.
 * Returns the exclusion per candidate policy id (null: flagged).
 */
export function applyCustomerCap(
  candidates: Pick<Evaluation, "policyId" | "customerId" | "expirationDate">[],
  state: { recentlyRemarketed: Set<string>; flags: Map<string, ExistingFlag> },
): Map<string, Exclusion | null> {
  const result = new Map<string, Exclusion | null>();
  const candidateIds = new Set(candidates.map((c) => c.policyId));
  // Customers already in the worklist: snoozed flags always, open flags while still a candidate.
  const inWorklist = new Set<string>();
  for (const [policyId, flag] of state.flags) {
    if (flag.status === "snoozed" || (flag.status === "open" && candidateIds.has(policyId))) inWorklist.add(flag.customerId);
  }
  const sorted = [...candidates].sort((a, b) =>
    a.expirationDate === b.expirationDate ? a.policyId.localeCompare(b.policyId) : a.expirationDate < b.expirationDate ? -1 : 1,
  );
  const taken = new Set<string>();
  for (const c of sorted) {
    const own = state.flags.get(c.policyId);
    if (own && (own.status === "remarketed" || own.status === "dismissed")) result.set(c.policyId, "already_handled");
    else if (own?.status === "snoozed") result.set(c.policyId, null);
    else if (state.recentlyRemarketed.has(c.customerId)) result.set(c.policyId, "recently_remarketed");
    else if (own?.status === "open") result.set(c.policyId, null);
    else if (inWorklist.has(c.customerId) || taken.has(c.customerId)) result.set(c.policyId, "customer_in_worklist");
    else {
      taken.add(c.customerId);
      result.set(c.policyId, null);
    }
  }
  return result;
}

/**
 * Walk the fall-back chain: carrier × line × state, carrier × line, line, then the whole
 * tenant; the first level with at least `minSample` recent renewals gives the rate.
 */
export function predictRate(
  stats: Map<string, { rate: number; sample: number }>,
  p: Pick<RenewalInput, "carrierName" | "lineOfBusiness" | "riskState">,
  minSample = MIN_PREDICTION_SAMPLE,
): Prediction | null {
  const chain: [PredictionLevel, string][] = [
    ["carrier_line_state", rateKey(p.carrierName, p.lineOfBusiness, p.riskState)],
    ["carrier_line", rateKey(p.carrierName, p.lineOfBusiness)],
    ["line", rateKey(null, p.lineOfBusiness)],
    ["tenant", rateKey()],
  ];
  for (const [level, key] of chain) {
    const hit = stats.get(key);
    if (hit && hit.sample >= minSample) return { level, rate: hit.rate, sample: hit.sample };
  }
  return null;
}

/** The default minimum (forecast-preferences.server.ts lets an agency choose its own). */
export const MIN_PREDICTION_SAMPLE = 5;

/** The key of one group of the rate statistics (null parts are rolled up). */
export function rateKey(carrier: string | null = null, line: string | null = null, state?: string | null) {
  if (carrier === null && line === null) return "tenant";
  if (carrier === null) return `line|${line}`;
  if (state === undefined) return `cl|${carrier.toLowerCase()}|${line}`;
  return `cls|${carrier.toLowerCase()}|${line}|${state ?? ""}`;
}
