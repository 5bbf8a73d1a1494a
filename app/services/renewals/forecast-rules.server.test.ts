import { describe, expect, test } from "vitest";
import { DEFAULT_PREFERENCE, type ForecastPreference } from "./forecast-preferences.server";
import {
  FLAG_RULE_VERSION,
  applyCustomerCap,
  evaluateRenewal,
  MIN_PREDICTION_SAMPLE,
  predictRate,
  rateKey,
  type ExistingFlag,
  type Prediction,
  type RenewalInput,
} from "./forecast-rules.server";

const TODAY = "2026-03-01";

const base: RenewalInput = {
  policyId: "p1",
  customerId: "c1",
  status: "active",
  lineOfBusiness: "HOME",
  carrierName: "Travelers",
  riskState: "TX",
  inceptionDate: "2021-04-01",
  effectiveDate: "2025-03-31",
  expirationDate: "2026-03-31", // 30 days out
  premium: 1000,
  priorPremium: 950,
  renewalPremium: 1150,
};

type Case = {
  name: string;
  input?: Partial<RenewalInput>;
  pref?: Partial<ForecastPreference>;
  prediction?: Prediction | null;
  flagged: boolean;
  exclusion?: string;
  triggered?: string[];
};

const cases: Case[] = [
  // thresholds in %
  { name: "+15% over a 10% threshold", flagged: true, triggered: ["pct"] },
  { name: "exactly +10% reaches the threshold", input: { renewalPremium: 1100 }, flagged: true, triggered: ["pct"] },
  { name: "+9.99% stays below", input: { renewalPremium: 1099.9 }, flagged: false, exclusion: "below_threshold" },
  { name: "a decrease never flags", input: { renewalPremium: 800 }, flagged: false, exclusion: "below_threshold" },
  { name: "a 25% threshold ignores +15%", pref: { thresholdPct: 25 }, flagged: false, exclusion: "below_threshold" },
  // thresholds in $
  {
    name: "+$600 (5%) over a $500 threshold",
    input: { premium: 12_000, renewalPremium: 12_600 },
    pref: { thresholdAmount: 500 },
    flagged: true,
    triggered: ["amount"],
  },
  {
    name: "exactly +$500 (4.2%) reaches a $500 threshold",
    input: { premium: 12_000, renewalPremium: 12_500 },
    pref: { thresholdAmount: 500 },
    flagged: true,
    triggered: ["amount"],
  },
  {
    name: "+$499.99 (4.2%) stays below $500 and 10%",
    input: { premium: 12_000, renewalPremium: 12_499.99 },
    pref: { thresholdAmount: 500 },
    flagged: false,
    exclusion: "below_threshold",
  },
  {
    name: "both thresholds triggered",
    input: { renewalPremium: 1600 },
    pref: { thresholdAmount: 500 },
    flagged: true,
    triggered: ["pct", "amount"],
  },
  // window edges (6 months from 2026-03-01 is 2026-09-01)
  {
    name: "6m window: last day is inside",
    input: { expirationDate: "2026-09-01" },
    pref: { window: "6m", actDaysBeforeExpiration: 365 },
    flagged: true,
  },
  {
    name: "6m window: the day after is outside",
    input: { expirationDate: "2026-09-02" },
    pref: { window: "6m", actDaysBeforeExpiration: 365 },
    flagged: false,
    exclusion: "outside_window",
  },
  {
    name: "12m window: last day is inside",
    input: { expirationDate: "2027-03-01" },
    pref: { actDaysBeforeExpiration: 400 },
    flagged: true,
  },
  {
    name: "12m window: the day after is outside",
    input: { expirationDate: "2027-03-02" },
    pref: { actDaysBeforeExpiration: 400 },
    flagged: false,
    exclusion: "outside_window",
  },
  { name: "expires today: inside", input: { expirationDate: TODAY }, flagged: true },
  { name: "expired yesterday: outside", input: { expirationDate: "2026-02-28" }, flagged: false, exclusion: "outside_window" },
  // act-before-expiry days (60)
  { name: "60 days out: inside the act days", input: { expirationDate: "2026-04-30" }, flagged: true },
  { name: "61 days out: not yet", input: { expirationDate: "2026-05-01" }, flagged: false, exclusion: "not_yet" },
  // exclusions
  { name: "first term (inception = effective)", input: { inceptionDate: "2025-03-31" }, flagged: false, exclusion: "first_term" },
  {
    name: "first term (no inception, no prior premium)",
    input: { inceptionDate: null, priorPremium: null },
    flagged: false,
    exclusion: "first_term",
  },
  {
    name: "first term allowed when the preference says so",
    input: { inceptionDate: "2025-03-31" },
    pref: { excludeFirstTerm: false },
    flagged: true,
  },
  { name: "$0 premium", input: { premium: 0 }, flagged: false, exclusion: "no_premium" },
  { name: "blank premium", input: { premium: null }, flagged: false, exclusion: "no_premium" },
  {
    name: "blank premium even when zero premiums are allowed",
    input: { premium: null },
    pref: { excludeZeroPremium: false },
    flagged: false,
    exclusion: "no_premium",
  },
  { name: "not active", input: { status: "cancelled" }, flagged: false, exclusion: "not_active" },
  // predictions
  {
    name: "no offer and no history: cannot tell",
    input: { renewalPremium: null },
    prediction: null,
    flagged: false,
    exclusion: "no_prediction",
  },
  {
    name: "no offer: predicted +12% flags",
    input: { renewalPremium: null },
    prediction: { rate: 0.12, level: "carrier_line", sample: 7 },
    flagged: true,
    triggered: ["pct"],
  },
  {
    name: "no offer: a predicted exactly +10% reaches the threshold",
    input: { renewalPremium: null },
    prediction: { rate: 0.1, level: "line", sample: 5 },
    flagged: true,
    triggered: ["pct"],
  },
  {
    name: "no offer: predicted +4% does not",
    input: { renewalPremium: null },
    prediction: { rate: 0.04, level: "tenant", sample: 30 },
    flagged: false,
    exclusion: "below_threshold",
  },
  { name: "a known offer wins over the prediction", prediction: { rate: -0.1, level: "line", sample: 9 }, flagged: true },
];

describe("flagging rules", () => {
  test.each(cases)("$name", (c) => {
    const pref = { ...DEFAULT_PREFERENCE, ...c.pref };
    const result = evaluateRenewal({ ...base, ...c.input }, pref, c.prediction ?? null, TODAY);
    expect(result.exclusion === null).toBe(c.flagged);
    if (c.exclusion) expect(result.exclusion).toBe(c.exclusion);
    if (c.triggered) expect(result.triggered).toEqual(c.triggered);
    if (c.flagged) {
      expect(result.why).toMatchObject({
        ruleVersion: FLAG_RULE_VERSION,
        thresholdPct: pref.thresholdPct,
        thresholdAmount: pref.thresholdAmount,
        actDaysBeforeExpiration: pref.actDaysBeforeExpiration,
      });
      expect(result.why?.compared.changeAmount).toBe(result.changeAmount);
    } else {
      expect(result.why).toBeNull();
    }
  });

  test("the reason records the values compared", () => {
    const result = evaluateRenewal(
      { ...base, renewalPremium: null, premium: 2000 },
      { ...DEFAULT_PREFERENCE, thresholdAmount: 150 },
      { rate: 0.085, level: "carrier_line_state", sample: 4 },
      TODAY,
    );
    expect(result.why).toEqual({
      ruleVersion: FLAG_RULE_VERSION,
      forecastObjectId: "all",
      thresholdPct: 10,
      thresholdAmount: 150,
      actDaysBeforeExpiration: 60,
      triggered: ["amount"],
      compared: {
        currentPremium: 2000,
        renewalPremium: 2170,
        predicted: true,
        predictionLevel: "carrier_line_state",
        predictionSample: 4,
        changePct: 8.5,
        changeAmount: 170,
        daysToExpiry: 30,
      },
    });
  });
});

describe("per-customer frequency cap", () => {
  const candidate = (policyId: string, customerId: string, expirationDate: string) => ({ policyId, customerId, expirationDate });
  type CapCase = {
    name: string;
    candidates: ReturnType<typeof candidate>[];
    recentlyRemarketed?: string[];
    flags?: [string, ExistingFlag][];
    expected: Record<string, string | null>;
  };
  const capCases: CapCase[] = [
    {
      name: "two renewals of one customer: the earlier is flagged, the customer counted once",
      candidates: [candidate("b", "c1", "2026-04-20"), candidate("a", "c1", "2026-04-01"), candidate("x", "c2", "2026-04-10")],
      expected: { a: null, b: "customer_in_worklist", x: null },
    },
    {
      name: "re-marketed in the last 30 days: the customer waits",
      candidates: [candidate("a", "c1", "2026-04-01"), candidate("x", "c2", "2026-04-10")],
      recentlyRemarketed: ["c1"],
      expected: { a: "recently_remarketed", x: null },
    },
    {
      name: "re-marketed in the last 30 days: an open flag leaves, a snoozed one stays",
      candidates: [candidate("a", "c1", "2026-04-01"), candidate("b", "c2", "2026-04-20")],
      recentlyRemarketed: ["c1", "c2"],
      flags: [
        ["a", { customerId: "c1", status: "open" }],
        ["b", { customerId: "c2", status: "snoozed" }],
      ],
      expected: { a: "recently_remarketed", b: null },
    },
    {
      name: "an open flag already in the worklist keeps its place",
      candidates: [candidate("a", "c1", "2026-04-01"), candidate("b", "c1", "2026-04-20")],
      flags: [["b", { customerId: "c1", status: "open" }]],
      expected: { a: "customer_in_worklist", b: null },
    },
    {
      name: "an open flag that no longer qualifies does not block",
      candidates: [candidate("a", "c1", "2026-04-01")],
      flags: [["old", { customerId: "c1", status: "open" }]],
      expected: { a: null },
    },
    {
      name: "a snoozed renewal still counts as the customer's entry",
      candidates: [candidate("a", "c1", "2026-04-01")],
      flags: [["s", { customerId: "c1", status: "snoozed" }]],
      expected: { a: "customer_in_worklist" },
    },
    {
      name: "a dismissed renewal stays dismissed and the next one is flagged",
      candidates: [candidate("a", "c1", "2026-04-01"), candidate("b", "c1", "2026-04-20")],
      flags: [["a", { customerId: "c1", status: "dismissed" }]],
      expected: { a: "already_handled", b: null },
    },
  ];
  test.each(capCases)("$name", (c) => {
    const result = applyCustomerCap(c.candidates, {
      recentlyRemarketed: new Set(c.recentlyRemarketed ?? []),
      flags: new Map(c.flags ?? []),
    });
    expect(Object.fromEntries(result)).toEqual(c.expected);
  });
});

describe("prediction fall-back chain (lookup)", () => {
  const stats = new Map([
    [rateKey("Travelers", "HOME", "TX"), { rate: 0.12, sample: 3 }],
    [rateKey("Travelers", "HOME", "OK"), { rate: 0.2, sample: 1 }],
    [rateKey("Travelers", "HOME"), { rate: 0.13, sample: 4 }],
    [rateKey(null, "HOME"), { rate: 0.11, sample: 6 }],
    [rateKey(), { rate: 0.12, sample: 7 }],
  ]);
  test.each([
    { state: "TX", carrier: "Travelers", line: "HOME", level: "carrier_line_state", rate: 0.12 },
    { state: "OK", carrier: "Travelers", line: "HOME", level: "carrier_line", rate: 0.13 },
    { state: "TX", carrier: "Safeco", line: "HOME", level: "line", rate: 0.11 },
    { state: "TX", carrier: "Safeco", line: "PAUTO", level: "tenant", rate: 0.12 },
  ])("$carrier $line $state → $level", (c) => {
    expect(predictRate(stats, { carrierName: c.carrier, lineOfBusiness: c.line, riskState: c.state }, 3)).toMatchObject({
      level: c.level,
      rate: c.rate,
    });
  });
  test("by default a basis needs 5 renewals: the umbrella's +40 % from 3 renewals falls to the line's 12", () => {
    const umbrella = new Map([
      [rateKey("Chubb", "UMBRP", "NY"), { rate: 0.4, sample: 3 }],
      [rateKey("Chubb", "UMBRP"), { rate: 0.35, sample: 4 }],
      [rateKey(null, "UMBRP"), { rate: 0.06, sample: 12 }],
      [rateKey(), { rate: 0.08, sample: 400 }],
    ]);
    const policy = { carrierName: "Chubb", lineOfBusiness: "UMBRP", riskState: "NY" };
    expect(MIN_PREDICTION_SAMPLE).toBe(5);
    expect(predictRate(umbrella, policy)).toEqual({ level: "line", rate: 0.06, sample: 12 });
    // An agency that accepts smaller samples gets the narrower basis, and is told its size.
    expect(predictRate(umbrella, policy, 3)).toEqual({ level: "carrier_line_state", rate: 0.4, sample: 3 });
    expect(predictRate(umbrella, policy, 4)).toEqual({ level: "carrier_line", rate: 0.35, sample: 4 });
    expect(predictRate(umbrella, { ...policy, lineOfBusiness: "WC" }, 500)).toBeNull();
  });
  test("too little history anywhere: no prediction", () => {
    expect(
      predictRate(new Map([[rateKey(), { rate: 0.1, sample: 2 }]]), { carrierName: "X", lineOfBusiness: "HOME", riskState: "TX" }),
    ).toBeNull();
  });
});
