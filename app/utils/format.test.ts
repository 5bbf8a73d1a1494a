import { describe, expect, test } from "vitest";
import {
  formatCount,
  formatDate,
  formatDateTime,
  formatMoney,
  formatMoneyChange,
  formatMonth,
  formatNumber,
  formatPercent,
  formatPercentChange,
  formatPhone,
  periodToCode,
  formatList,
  pluralize,
  possessive,
} from "./format";

describe("formatNumber (seed §5)", () => {
  test.each([
    [undefined, ""],
    [null, ""],
    ["", ""],
    ["abc", ""],
    [Number.NaN, ""],
    [true, ""],
    [0, "0"],
    [1234567, "1,234,567"],
    ["1234.56", "1,235"],
    [-9876.4, "-9,876"],
    // Whitespace is not a number (Number("  ") would say 0), nor is anything but a number or a numeric string.
    ["  ", ""],
    ["\t\n", ""],
    [" 12 ", "12"],
    [[], ""],
    [[5], ""],
    [{}, ""],
  ])("%j → %j", (input, expected) => {
    expect(formatNumber(input)).toBe(expected);
  });

  test("fixed decimals", () => {
    expect(formatNumber(1234.5, 2)).toBe("1,234.50");
    expect(formatNumber("0.125", 1)).toBe("0.1");
  });
});

describe("formatMoney (issue 14)", () => {
  test.each([
    [1234, 0, "$1,234"],
    [1234.56, 2, "$1,234.56"],
    [1234.5, 2, "$1,234.50"],
    ["1823.3", 0, "$1,823"],
    [0, 0, "$0"],
    [-12, 0, "\u2212$12"],
    [-1500, 0, "\u2212$1,500"],
    [-12.5, 2, "\u2212$12.50"],
    // An amount that rounds to zero has no sign.
    [-0.4, 0, "$0"],
    [-0, 0, "$0"],
    [-0.004, 2, "$0.00"],
  ])("%j with %i decimals → %j", (input, decimals, expected) => {
    expect(formatMoney(input, decimals)).toBe(expected);
  });

  test("missing input is blank", () => {
    expect(formatMoney("")).toBe("");
    expect(formatMoney("   ")).toBe("");
    expect(formatMoney(null)).toBe("");
  });

  test("a change carries its sign", () => {
    expect(formatMoneyChange(12)).toBe("+$12");
    expect(formatMoneyChange(-12)).toBe("\u2212$12");
    expect(formatMoneyChange(0)).toBe("$0");
    expect(formatMoneyChange(-0.2)).toBe("$0");
    expect(formatMoneyChange(0.2)).toBe("$0");
  });
});

describe("formatPercent (issue 14)", () => {
  test.each([
    [12.34, "12.3%"],
    [12.35, "12.4%"],
    [1, "1%"],
    [100, "100%"],
    [0, "0%"],
    [-4.5, "\u22124.5%"],
    [-0.01, "0%"],
    [1234.5, "1,234.5%"],
  ])("%j → %j", (input, expected) => {
    expect(formatPercent(input)).toBe(expected);
  });

  test("fewer decimals, missing input, and changes with a sign", () => {
    expect(formatPercent(12.34, 0)).toBe("12%");
    expect(formatPercent(undefined)).toBe("");
    expect(formatPercentChange(21)).toBe("+21%");
    expect(formatPercentChange(-3.25)).toBe("\u22123.3%");
    expect(formatPercentChange(0)).toBe("0%");
  });
});

describe("formatCount (issue 14)", () => {
  test.each([
    [0, "customer", undefined, "0 customers"],
    [1, "customer", undefined, "1 customer"],
    [2, "customer", undefined, "2 customers"],
    [1234, "customer", undefined, "1,234 customers"],
    [1, "duplicate row", undefined, "1 duplicate row"],
    [3, "duplicate row", undefined, "3 duplicate rows"],
    [1, "policy", "policies", "1 policy"],
    [5, "policy", "policies", "5 policies"],
  ])("%i %s → %j", (count, singular, plural, expected) => {
    expect(formatCount(count, singular, plural)).toBe(expected);
  });

  test("the noun alone", () => {
    expect(pluralize(1, "row")).toBe("row");
    expect(pluralize(0, "row")).toBe("rows");
    expect(pluralize(2, "policy", "policies")).toBe("policies");
  });

  test("names in a sentence", () => {
    expect(formatList([])).toBe("");
    expect(formatList(["CNA"])).toBe("CNA");
    expect(formatList(["CNA", "Kemper"])).toBe("CNA and Kemper");
    expect(formatList(["CNA", "Foremost", "Kemper"])).toBe("CNA, Foremost and Kemper");
  });

  test("a name's possessive: an apostrophe alone after a final s", () => {
    expect(possessive("Safeco")).toBe("Safeco's");
    expect(possessive("Travelers")).toBe("Travelers'");
    expect(possessive("The Hartford")).toBe("The Hartford's");
  });
});

describe("formatDate and formatDateTime (issue 14)", () => {
  const instant = new Date("2026-11-23T04:01:00Z");

  test("a day is dd MMM yyyy", () => {
    expect(formatDate(instant)).toBe("23 Nov 2026");
    expect(formatDate(instant.toISOString())).toBe("23 Nov 2026");
    expect(formatDate(instant.getTime())).toBe("23 Nov 2026");
  });

  test("a calendar date is shown as it is, in any zone", () => {
    expect(formatDate("2026-05-05")).toBe("05 May 2026");
    expect(formatDate("2024-10-18", "Pacific/Honolulu")).toBe("18 Oct 2024");
  });

  test("an instant falls on its day in the agency's zone", () => {
    expect(formatDate(instant, "America/Chicago")).toBe("22 Nov 2026");
    expect(formatDateTime(instant, "America/Chicago")).toBe("22 Nov 2026 | 22:01");
    expect(formatDateTime(instant, "Asia/Kolkata")).toBe("23 Nov 2026 | 09:31");
  });

  test("a date-time is dd MMM yyyy | HH:mm, UTC when the zone is unknown", () => {
    expect(formatDateTime(instant)).toBe("23 Nov 2026 | 04:01");
    expect(formatDateTime(instant, "Not/AZone")).toBe("23 Nov 2026 | 04:01");
    expect(formatDateTime(new Date("2026-07-01T17:31:00Z"), "UTC")).toBe("01 Jul 2026 | 17:31");
  });

  test("missing or unreadable input is blank", () => {
    expect(formatDate(null)).toBe("");
    expect(formatDate("")).toBe("");
    expect(formatDate("not a date")).toBe("");
    expect(formatDateTime(undefined)).toBe("");
  });

  test("months", () => {
    expect(formatMonth("2026-01")).toBe("Jan 2026");
    expect(formatMonth("2026-12-31", "long")).toBe("December");
    expect(formatMonth("nope")).toBe("");
  });
});

describe("formatPhone (issue 14)", () => {
  test.each([
    ["+17085551018", "(708) 555-1018"],
    ["+12125550123", "(212) 555-0123"],
    ["7085551018", "(708) 555-1018"],
    ["+442079460958", "+44 20 7946 0958"],
    ["", ""],
    [null, ""],
    ["ext. 12", "ext. 12"],
  ])("%j → %j", (input, expected) => {
    expect(formatPhone(input)).toBe(expected);
  });
});

describe("periodToCode (seed §5)", () => {
  test.each([
    ["12 months", "yr"],
    ["1 year", "yr"],
    ["6 months", "6m"],
    // Labels are compared without regard to case or surrounding spaces.
    ["12 Months", "yr"],
    ["6 MONTHS", "6m"],
    ["1 Year", "yr"],
    ["  6 months  ", "6m"],
    ["", "fallback"],
    [undefined, "fallback"],
    ["quarterly", "fallback"],
    ["2026-01-01 - 2027-01-01", "yr"],
    ["01/15/2026 - 01/15/2027", "yr"],
    ["2026-01-01 - 2026-07-01", "6m"],
    ["2026-01-01 - 2027-01-02", "6m"],
    ["Jan 1, 2026 - Jan 1, 2027", "yr"],
  ])("%j → %s", (label, expected) => {
    expect(periodToCode(label, "fallback")).toBe(expected);
  });
});
