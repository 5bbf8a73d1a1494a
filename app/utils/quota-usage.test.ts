import { describe, expect, test } from "vitest";
import { quotaUsedUpMessage, usageLevel, usagePercent } from "./quota-usage";

describe("usage percent (seed remarket-usage)", () => {
  test("is used / quota as a percentage with one decimal", () => {
    expect(usagePercent(0, 120)).toBe(0);
    expect(usagePercent(30, 120)).toBe(25);
    expect(usagePercent(1, 3)).toBe(33.3);
    expect(usagePercent(120, 120)).toBe(100);
  });

  test("a quota of 0 counts as fully used, with or without usage", () => {
    expect(usagePercent(0, 0)).toBe(100);
    expect(usagePercent(5, 0)).toBe(100);
    expect(usageLevel(0, 0)).toBe("error");
  });

  test("over the quota shows the real figure above 100", () => {
    expect(usagePercent(15, 10)).toBe(150);
    expect(usageLevel(15, 10)).toBe("error");
  });

  test("warning from 80 %, error at 100 %", () => {
    expect(usageLevel(79, 100)).toBe("ok");
    expect(usageLevel(80, 100)).toBe("warning");
    expect(usageLevel(99, 100)).toBe("warning");
    expect(usageLevel(100, 100)).toBe("error");
    // 80 % of 25 is 20: exactly at the boundary, not a rounding artefact.
    expect(usageLevel(19, 25)).toBe("ok");
    expect(usageLevel(20, 25)).toBe("warning");
  });

  test("the refusal message names the year and the figures", () => {
    expect(quotaUsedUpMessage(2026, 10, 10)).toBe("Your re-marketing quota for 2026 is used up (10 of 10).");
  });
});
