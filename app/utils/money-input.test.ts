import { describe, expect, test } from "vitest";
import type { z } from "zod";
import { moneyField, parseMoneyText } from "./money-input";

const issues = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

describe("money input", () => {
  test.each([
    ["6,480", 6480],
    ["$6,480.00", 6480],
    ["6480", 6480],
    [" $ 6,480.5 ", 6480.5],
    ["USD 1,234,567.891", 1234567.89],
    ["(12.00)", -12],
  ])("%s reads as %d", (text, value) => {
    expect(parseMoneyText(text)).toEqual({ ok: true, value });
  });

  test("blank is no amount; N/A and words are not numbers", () => {
    expect(parseMoneyText("  ")).toEqual({ ok: true, value: null });
    expect(parseMoneyText("N/A")).toEqual({ ok: false });
    expect(parseMoneyText("6.480,00")).toEqual({ ok: false });
  });

  test("a form field accepts every spelling and quotes the value it refuses", () => {
    const premium = moneyField("Premium");
    expect(premium.parse("$6,480.00")).toBe(6480);
    expect(issues(premium, "N/A")).toEqual(["Premium is not a number: 'N/A'"]);
    expect(issues(premium, undefined)).toEqual(["Enter the premium."]);
    expect(issues(premium, "0")).toEqual(["Premium must be more than $0: '0'"]);
    expect(issues(premium, "20,000,000")).toEqual(["Premium must be under $10,000,000: '20,000,000'"]);
    const offer = moneyField("Renewal offer", { optional: true });
    expect(offer.parse(undefined)).toBeNull();
    expect(offer.parse("7,005")).toBe(7005);
  });
});
