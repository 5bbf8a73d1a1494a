import { describe, expect, it } from "vitest";
import { formatLocalDay, localDateParts } from "./time-zone";

// 2026-03-14 03:04 UTC is still the 13th in New York and already 14:04 in Sydney.
const instant = new Date("2026-03-14T03:04:00Z");

describe("time-zone formatting", () => {
  it("reads the calendar date where the agency is", () => {
    expect(localDateParts(instant, "UTC").iso).toBe("2026-03-14");
    expect(localDateParts(instant, "America/New_York").iso).toBe("2026-03-13");
  });

  it("turns the date over at the zone's midnight, whatever was asked within the minute before", () => {
    // New York midnight, 14 March 2026 (EDT starts on the 8th): 04:00 UTC.
    expect(localDateParts(new Date("2026-03-14T03:59:00Z"), "America/New_York").iso).toBe("2026-03-13");
    expect(localDateParts(new Date("2026-03-14T03:59:59.999Z"), "America/New_York").iso).toBe("2026-03-13");
    expect(localDateParts(new Date("2026-03-14T04:00:00Z"), "America/New_York").iso).toBe("2026-03-14");
    // Kathmandu is UTC+05:45: its midnight is at 18:15 UTC.
    expect(localDateParts(new Date("2026-03-13T18:14:59Z"), "Asia/Kathmandu").iso).toBe("2026-03-13");
    expect(localDateParts(new Date("2026-03-13T18:15:00Z"), "Asia/Kathmandu").iso).toBe("2026-03-14");
    // Back in time within the same minute, and a zone asked in between: still right.
    expect(localDateParts(new Date("2026-03-13T18:14:30Z"), "UTC").iso).toBe("2026-03-13");
    expect(localDateParts(new Date("2026-03-13T18:14:00Z"), "Asia/Kathmandu").iso).toBe("2026-03-13");
  });

  it("computes every time for instants before the last seconds-based offset ended (Monrovia, 7 January 1972)", () => {
    // Monrovia was UTC-0:44:30: its midnight on the 3rd fell at 00:44:30 UTC.
    expect(localDateParts(new Date("1972-01-03T00:44:00Z"), "Africa/Monrovia").iso).toBe("1972-01-02");
    expect(localDateParts(new Date("1972-01-03T00:44:45Z"), "Africa/Monrovia").iso).toBe("1972-01-03");
  });

  it("gives each caller its own answer", () => {
    const first = localDateParts(instant, "Europe/Paris");
    first.year = 1999;
    expect(localDateParts(instant, "Europe/Paris").year).toBe(2026);
  });

  it("formats a day in the agency's zone (the date-time format is utils/format.ts's formatDateTime)", () => {
    expect(formatLocalDay(instant, "America/New_York")).toBe("13 Mar 2026");
    expect(formatLocalDay(instant, "Australia/Sydney")).toBe("14 Mar 2026");
  });

  it("reads an unknown zone as UTC instead of failing the page", () => {
    expect(formatLocalDay(instant, "Mars/Olympus")).toBe("14 Mar 2026");
  });
});
