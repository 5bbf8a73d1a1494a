import { describe, expect, test } from "vitest";
import { formatMoney, formatNumber, periodToCode } from "./format";

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

  test("money keeps the sign before the dollar", () => {
    expect(formatMoney(-1500)).toBe("-$1,500");
    expect(formatMoney("")).toBe("");
    expect(formatMoney("   ")).toBe("");
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
