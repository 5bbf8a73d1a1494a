import { describe, expect, test } from "vitest";
import { LINES_OF_BUSINESS } from "~/db/schema/book";
import { FLAG_STATUSES, type FlagWhy } from "~/db/schema/renewals";
import { ALL_LINES } from "~/services/renewals/forecast-preferences.server";
import { ALL_LINES_ID, FLAG_STATUS_VALUES, LINE_CODES, describePrediction, describeWhy } from "./renewals";

describe("client-safe copies", () => {
  test("match the schema", () => {
    expect([...LINE_CODES]).toEqual([...LINES_OF_BUSINESS]);
    expect([...FLAG_STATUS_VALUES]).toEqual([...FLAG_STATUSES]);
    expect(ALL_LINES_ID).toBe(ALL_LINES);
  });
  test("why flagged reads as one sentence with the values compared", () => {
    const why: FlagWhy = {
      ruleVersion: "renewal-flag/v1",
      forecastObjectId: "all",
      thresholdPct: 10,
      thresholdAmount: 250,
      actDaysBeforeExpiration: 90,
      triggered: ["pct", "amount"],
      compared: {
        currentPremium: 2000,
        renewalPremium: 2400,
        predicted: true,
        predictionLevel: "carrier_line",
        predictionSample: 7,
        changePct: 20,
        changeAmount: 400,
        daysToExpiry: 30,
      },
    };
    expect(describeWhy(why)).toBe(
      '+20.0% ≥ 10.0% and +$400 ≥ $250. Predicted $2,400 from 7 renewals (same carrier and line) vs. $2,000 now · 30 days to expiry (act within 90) · rule renewal-flag/v1, preference "all".',
    );
  });
});

describe("cached formatters", () => {
  test("match utils/format.ts", async () => {
    const format = await import("./format");
    const { formatMoney, formatNumber, shortDate } = await import("./renewals");
    for (const v of [0, 1234.5, -987.654, "12", "", "  ", " 7 ", [], {}, null, undefined, "n/a", 1e9]) {
      for (const d of [0, 1, 2]) {
        expect(formatNumber(v, d)).toBe(format.formatNumber(v, d));
        expect(formatMoney(v, d)).toBe(format.formatMoney(v, d));
      }
    }
    expect(formatNumber("  ")).toBe("");
    expect(formatMoney("\t")).toBe("");
    expect(shortDate("2026-03-01")).toBe("01 Mar 2026");
    expect(shortDate("2027-12-31")).toBe("31 Dec 2027");
  });
});

describe("describePrediction", () => {
  const p = { predictionLevel: "carrier_line", predictionSample: 12, predictionRate: -0.00648 };
  test("says the rate, the sample and the level it rests on", () => {
    expect(describePrediction(p)).toBe("Predicted: −0.6% from 12 renewals (same carrier and line)");
    expect(describePrediction({ ...p, predictionRate: null })).toBe("Predicted from 12 renewals (same carrier and line)");
  });
  test("leaves the rate to the change shown beside it", () => {
    expect(describePrediction(p, { withRate: false })).toBe("Predicted from 12 renewals (same carrier and line)");
  });
});
