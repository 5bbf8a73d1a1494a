import { describe, expect, test } from "vitest";
import { defaultConnectionName, getIntegration } from "./integrations";

describe("a new connection's default name", () => {
  test("an export says so once, with the day it was set up; a live system is named as it is", () => {
    expect(defaultConnectionName(getIntegration("csv")!, "2026-11-23")).toBe("CSV / Excel export, 23 Nov 2026");
    expect(defaultConnectionName({ name: "EZLynx", source: "file" }, "2026-01-05")).toBe("EZLynx export, 05 Jan 2026");
    expect(defaultConnectionName({ name: "Applied Epic", source: "api" }, "2026-11-23")).toBe("Applied Epic");
  });
});
