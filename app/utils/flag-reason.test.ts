import { describe, expect, test } from "vitest";
import type { FlagWhy } from "~/db/schema/renewals";
import { explainReason, plainReason } from "./flag-reason";

const why = (over: Partial<Omit<FlagWhy, "compared">> & { compared?: Partial<FlagWhy["compared"]> } = {}): FlagWhy => ({
  ruleVersion: "renewal-flag/v1",
  forecastObjectId: "all",
  thresholdPct: 10,
  thresholdAmount: 250,
  actDaysBeforeExpiration: 90,
  triggered: ["pct"],
  ...over,
  compared: {
    currentPremium: 1000,
    renewalPremium: 1210,
    predicted: false,
    predictionLevel: null,
    predictionSample: null,
    changePct: 21,
    changeAmount: 210,
    daysToExpiry: 30,
    ...over.compared,
  },
});

describe("plainReason", () => {
  test("says what crossed which of your limits, in plain words", () => {
    expect(plainReason(why())).toBe("Renewal offer +21.0%, over your 10%");
    expect(plainReason(why({ triggered: ["amount"], compared: { changeAmount: 300 } }))).toBe("Renewal offer +$300, over your $250");
    expect(plainReason(why({ triggered: ["pct", "amount"], thresholdPct: 7.5, compared: { predicted: true, changeAmount: 300 } }))).toBe(
      "Predicted renewal +21.0% and +$300, over your 7.5% and $250",
    );
  });

  test("never shows the rule version or the preference id", () => {
    const text = plainReason(why({ forecastObjectId: "HOME" }));
    expect(text).not.toContain("renewal-flag");
    expect(text).not.toContain("HOME");
  });
});

describe("explainReason", () => {
  test("lists the values compared, the thresholds, the preference, predicted or offered, and the rule", () => {
    const items = Object.fromEntries(
      explainReason(why({ forecastObjectId: "HOME", compared: { predicted: true, predictionSample: 12, predictionLevel: "line" } })).map(
        (i) => [i.label, i.value],
      ),
    );
    expect(items).toEqual({
      "Renewal premium": "$1,210, predicted from 12 past renewals (same line of business)",
      "Expiring premium": "$1,000",
      Change: "+21.0% (+$210)",
      "Your thresholds": "10% or $250; this renewal is over the percentage",
      "Preference used": "Line of business HOME",
      Timing: "30 days to expiry when flagged; you act within 90 days",
      "Rule version": "renewal-flag/v1",
    });
    expect(explainReason(why())[0].value).toBe("$1,210, offered by the carrier");
    expect(explainReason(why()).find((i) => i.label === "Preference used")?.value).toBe("All lines of business");
  });
});
