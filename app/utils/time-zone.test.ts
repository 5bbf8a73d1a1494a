import { describe, expect, it } from "vitest";
import { formatLocalDay, formatLocalDayTime, localDateParts } from "./time-zone";

// 2026-03-14 03:04 UTC is still the 13th in New York and already 14:04 in Sydney.
const instant = new Date("2026-03-14T03:04:00Z");

describe("time-zone formatting", () => {
  it("reads the calendar date where the agency is", () => {
    expect(localDateParts(instant, "UTC").iso).toBe("2026-03-14");
    expect(localDateParts(instant, "America/New_York").iso).toBe("2026-03-13");
  });

  it("formats a day, and a day with its time, in the agency's zone", () => {
    expect(formatLocalDay(instant, "America/New_York")).toBe("13 Mar 2026");
    expect(formatLocalDayTime(instant, "America/New_York")).toBe("13 Mar 2026, 23:04");
    expect(formatLocalDayTime(instant, "Australia/Sydney")).toBe("14 Mar 2026, 14:04");
  });

  it("reads an unknown zone as UTC instead of failing the page", () => {
    expect(formatLocalDay(instant, "Mars/Olympus")).toBe("14 Mar 2026");
    expect(formatLocalDayTime(instant, "Mars/Olympus")).toBe("14 Mar 2026, 03:04");
  });
});
