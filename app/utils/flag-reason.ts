import type { FlagWhy } from "~/db/schema/renewals";
import { ALL_LINES_ID, PREDICTION_LEVEL_LABELS, formatMoney, formatNumber } from "./renewals";

const signedPct = (pct: number) => `${pct >= 0 ? "+" : "−"}${formatNumber(Math.abs(pct), 1)}%`;
const limitPct = (pct: number) => `${formatNumber(pct, 1).replace(/\.0$/, "")}%`;
const signedMoney = (amount: number) => `${amount >= 0 ? "+" : "−"}${formatMoney(Math.abs(amount))}`;

/**
 * Why a renewal is in the worklist, in the words a producer uses: "Renewal offer +21.0%, over
 * your 10%". The rule version and preference id stay in the full explanation, where an
 * errors-and-omissions review looks for them.
 */
export function plainReason(why: FlagWhy) {
  const c = why.compared;
  const source = c.predicted ? "Predicted renewal" : "Renewal offer";
  const pct = why.triggered.includes("pct");
  const amount = why.triggered.includes("amount") && why.thresholdAmount !== null;
  const changes = [pct ? signedPct(c.changePct) : null, amount ? signedMoney(c.changeAmount) : null].filter(Boolean);
  const limits = [pct ? limitPct(why.thresholdPct) : null, amount ? formatMoney(why.thresholdAmount) : null].filter(Boolean);
  if (changes.length === 0) return `${source} ${signedPct(c.changePct)}`;
  return `${source} ${changes.join(" and ")}, over your ${limits.join(" and ")}`;
}

/** The full explanation (worklist "More", policy page): every value the rule compared. */
export function explainReason(why: FlagWhy): { label: string; value: string }[] {
  const c = why.compared;
  const thresholds = [limitPct(why.thresholdPct), why.thresholdAmount !== null ? formatMoney(why.thresholdAmount) : null]
    .filter(Boolean)
    .join(" or ");
  const crossed = why.triggered.map((t) => (t === "pct" ? "the percentage" : "the dollar amount")).join(" and ");
  const over = crossed ? `this renewal is over ${crossed}` : "this renewal is over neither";
  return [
    {
      label: "Renewal premium",
      value: c.predicted
        ? `${formatMoney(c.renewalPremium)}, predicted from ${formatNumber(c.predictionSample ?? 0)} past renewals (${PREDICTION_LEVEL_LABELS[c.predictionLevel ?? ""] ?? "history"})`
        : `${formatMoney(c.renewalPremium)}, offered by the carrier`,
    },
    { label: "Expiring premium", value: formatMoney(c.currentPremium) },
    { label: "Change", value: `${signedPct(c.changePct)} (${signedMoney(c.changeAmount)})` },
    { label: "Your thresholds", value: `${thresholds}; ${over}` },
    {
      label: "Preference used",
      value: why.forecastObjectId === ALL_LINES_ID ? "All lines of business" : `Line of business ${why.forecastObjectId}`,
    },
    {
      label: "Timing",
      value: `${c.daysToExpiry} day${c.daysToExpiry === 1 ? "" : "s"} to expiry when flagged; you act within ${why.actDaysBeforeExpiration} days`,
    },
    // Which version of the flagging rule decided: flags made before a rule change say so.
    { label: "Rule version", value: why.ruleVersion },
  ];
}
