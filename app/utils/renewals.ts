import type { FlagWhy } from "~/db/schema/renewals";
import { formatDate, formatMoney, formatNumber } from "./format";

// The worklist formats through utils/format.ts like every page (issue 14); re-exported for its callers.
export { formatMoney, formatNumber };

/** yyyy-mm-dd → "dd MMM yyyy", the day format of every page. */
export function shortDate(iso: string) {
  return formatDate(iso);
}

// Labels and sentences shared by the server and the pages (no server-only imports here).

export const PREDICTION_LEVEL_LABELS: Record<string, string> = {
  carrier_line_state: "same carrier, line and state",
  carrier_line: "same carrier and line",
  line: "same line of business",
  tenant: "all of the agency's renewals",
};

export const EXCLUSION_LABELS: Record<string, string> = {
  not_active: "Not an active policy",
  outside_window: "Expires outside the forecast window",
  no_premium: "$0 or blank premium",
  first_term: "First term",
  no_prediction: "No renewal offer yet and too few past renewals to predict one",
  below_threshold: "Change below the thresholds",
  not_yet: "Not yet inside the act-before-expiry days",
  recently_remarketed: "Customer re-marketed in the last 30 days",
  customer_in_worklist: "Customer already has a renewal in the worklist",
  already_handled: "Already re-marketed or dismissed",
};

export const OUTCOME_LABELS: Record<string, string> = {
  rewritten: "Rewritten with another carrier",
  renewed: "Renewed with the incumbent",
  lost: "Lost",
};

/**
 * "Predicted: +8.5% from 12 renewals (same carrier and line)". `withRate: false` leaves the rate
 * out where the row shows its change beside it: that change is worked out from the premium rounded
 * to cents, so the two could read −0.6% and −0.7% side by side.
 */
export function describePrediction(
  p: { predictionLevel: string | null; predictionSample: number | null; predictionRate?: number | null },
  { withRate = true }: { withRate?: boolean } = {},
) {
  const rate =
    withRate && p.predictionRate !== null && p.predictionRate !== undefined
      ? `: ${p.predictionRate >= 0 ? "+" : "−"}${formatNumber(Math.abs(p.predictionRate * 100), 1)}%`
      : "";
  const level = p.predictionLevel ? (PREDICTION_LEVEL_LABELS[p.predictionLevel] ?? p.predictionLevel) : "past renewals";
  return `Predicted${rate} from ${formatNumber(p.predictionSample ?? 0)} renewals (${level})`;
}

/** Why a renewal was flagged: a headline (the thresholds crossed) and the values compared. */
export function whyParts(why: FlagWhy) {
  const c = why.compared;
  const reasons: string[] = [];
  if (why.triggered.includes("pct")) reasons.push(`+${formatNumber(c.changePct, 1)}% ≥ ${formatNumber(why.thresholdPct, 1)}%`);
  if (why.triggered.includes("amount") && why.thresholdAmount !== null)
    reasons.push(`+${formatMoney(c.changeAmount)} ≥ ${formatMoney(why.thresholdAmount)}`);
  const source = c.predicted
    ? `Predicted ${formatMoney(c.renewalPremium)} from ${formatNumber(c.predictionSample ?? 0)} renewals (${PREDICTION_LEVEL_LABELS[c.predictionLevel ?? ""] ?? "history"})`
    : `Carrier offer ${formatMoney(c.renewalPremium)}`;
  return {
    headline: reasons.join(" and "),
    detail: `${source} vs. ${formatMoney(c.currentPremium)} now · ${c.daysToExpiry} day${c.daysToExpiry === 1 ? "" : "s"} to expiry (act within ${why.actDaysBeforeExpiration}) · rule ${why.ruleVersion}, preference "${why.forecastObjectId}"`,
  };
}

/** Why a renewal was flagged, in one sentence (audit trail, customer page). */
export function describeWhy(why: FlagWhy) {
  const { headline, detail } = whyParts(why);
  return `${headline}. ${detail}.`;
}

// Client-safe copies of schema enums (importing the schema would put drizzle in the browser bundle).
export const FLAG_STATUS_VALUES = ["open", "remarketed", "dismissed", "snoozed"] as const;
export const LINE_CODES = ["PAUTO", "HOME", "DFIRE", "UMBRP", "BOP", "CGL", "WC", "CAUTO", "OTHER"] as const;
/** The forecast object that applies to every line without its own preference. */
export const ALL_LINES_ID = "all";

/** Calendar days from one yyyy-mm-dd date to another. */
export function daysBetween(from: string, to: string) {
  const utc = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10)));
  return Math.round((utc(to) - utc(from)) / 86_400_000);
}
