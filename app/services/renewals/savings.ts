import type { SavingsBasis } from "~/db/schema/renewals";
import { formatMoney } from "~/utils/format";

// What a re-market saved the customer, and against what. Never against a prediction: the
// incumbent's actual renewal offer when it is known, otherwise the premium they pay today.

export type { SavingsBasis };

/** "vs. …" words for each basis, as pages and reports print them. */
export const SAVINGS_BASIS_LABELS: Record<SavingsBasis, string> = {
  offer: "vs. incumbent's renewal offer",
  current: "vs. current premium",
};

/**
 * Premium saved by the chosen quote: incumbent offer − chosen premium when the offer is known,
 * else current (expiring) premium − chosen premium; null when neither is known. Negative when
 * the customer pays more.
 */
export function premiumSaved(input: {
  chosenPremium: number;
  incumbentOffer: number | null;
  currentPremium: number | null;
}): { saved: number; basis: SavingsBasis } | null {
  const [basis, against] =
    input.incumbentOffer !== null ? (["offer", input.incumbentOffer] as const) : (["current", input.currentPremium] as const);
  if (against === null) return null;
  return { saved: Math.round((against - input.chosenPremium) * 100) / 100, basis };
}

/** Whole dollars, with the sign kept out: a saving of $0.40 is no change, never "-$0". */
const dollars = (amount: number) => Math.round(Math.abs(amount));

/**
 * A saving in words: "$855 saved vs. incumbent's renewal offer", "+$214 vs. current premium",
 * "No change vs. current premium"; empty when there is none to describe.
 */
export function describeSaving(saved: number | null, basis: SavingsBasis | null): string {
  if (saved === null || basis === null) return "";
  const label = SAVINGS_BASIS_LABELS[basis];
  if (dollars(saved) === 0) return `No change ${label}`;
  return saved > 0 ? `${formatMoney(dollars(saved))} saved ${label}` : `+${formatMoney(dollars(saved))} ${label}`;
}

/** A quote against a reference premium: "−$120" cheaper, "+$214" dearer, "Same" within a dollar. */
export function describeDifference(quotePremium: number, reference: number | null): string {
  if (reference === null) return "";
  const diff = quotePremium - reference;
  if (dollars(diff) === 0) return "Same";
  return `${diff < 0 ? "−" : "+"}${formatMoney(dollars(diff))}`;
}

/**
 * A sum of savings for a report cell: "$855", "+$214 more" when customers pay more in total, "$0".
 * With decimals = 2 the cents are kept ("$167.80"), so a column of months adds up to its total.
 */
export function formatSavedTotal(total: number, decimals = 0): string {
  const scale = 10 ** decimals;
  const amount = Math.round(Math.abs(total) * scale) / scale;
  if (amount === 0) return formatMoney(0, decimals);
  return total > 0 ? formatMoney(amount, decimals) : `+${formatMoney(amount, decimals)} more`;
}
