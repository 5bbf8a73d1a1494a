import { describe, expect, test } from "vitest";
import { describeDifference, describeSaving, formatSavedTotal, premiumSaved } from "./savings";

describe("savings basis", () => {
  test("offer known: the incumbent's offer minus the chosen premium, never the prediction", () => {
    const result = premiumSaved({ chosenPremium: 6_150, incumbentOffer: 6_480, currentPremium: 5_936 });
    expect(result).toEqual({ saved: 330, basis: "offer" });
    expect(describeSaving(result!.saved, result!.basis)).toBe("$330 saved vs. incumbent's renewal offer");
  });

  test("offer unknown: the chosen premium against the expiring premium, labelled so", () => {
    const result = premiumSaved({ chosenPremium: 5_500, incumbentOffer: null, currentPremium: 5_936 });
    expect(result).toEqual({ saved: 436, basis: "current" });
    expect(describeSaving(result!.saved, result!.basis)).toBe("$436 saved vs. current premium");
  });

  test("a dearer rewrite says what it costs (the issue's $6,150 on $5,936, predicted $7,005)", () => {
    const result = premiumSaved({ chosenPremium: 6_150, incumbentOffer: null, currentPremium: 5_936 });
    expect(result).toEqual({ saved: -214, basis: "current" });
    expect(describeSaving(result!.saved, result!.basis)).toBe("+$214 vs. current premium");
  });

  test("renewal with the incumbent at its own offer: no change, never '-$0'", () => {
    const atOffer = premiumSaved({ chosenPremium: 1_000.4, incumbentOffer: 1_000, currentPremium: 900 });
    expect(atOffer).toEqual({ saved: -0.4, basis: "offer" });
    expect(describeSaving(atOffer!.saved, atOffer!.basis)).toBe("No change vs. incumbent's renewal offer");
    const negotiated = premiumSaved({ chosenPremium: 950, incumbentOffer: 1_000, currentPremium: 900 });
    expect(describeSaving(negotiated!.saved, negotiated!.basis)).toBe("$50 saved vs. incumbent's renewal offer");
  });

  test("nothing to measure against: no figure at all", () => {
    expect(premiumSaved({ chosenPremium: 500, incumbentOffer: null, currentPremium: null })).toBeNull();
    expect(describeSaving(null, null)).toBe("");
  });

  test("quote rows and report totals: signs spelled out, no 'costs $0'", () => {
    expect(describeDifference(1_100, 1_300)).toBe("−$200");
    expect(describeDifference(1_514, 1_300)).toBe("+$214");
    expect(describeDifference(1_300.3, 1_300)).toBe("Same");
    expect(describeDifference(1_300, null)).toBe("");
    expect(formatSavedTotal(855)).toBe("$855");
    expect(formatSavedTotal(-214)).toBe("+$214 more");
    expect(formatSavedTotal(-0.2)).toBe("$0");
    // Cents kept, so rows and their total agree ($90.58 + $167.80 is $258.38, where whole dollars read $91 + $168 = $258).
    expect(formatSavedTotal(167.8, 2)).toBe("$167.80");
    expect(formatSavedTotal(-90.584, 2)).toBe("+$90.58 more");
    expect(formatSavedTotal(0.004, 2)).toBe("$0.00");
  });
});
