import { describe, expect, it } from "vitest";
import { activeSection, isActiveLink } from "./sidebar";

describe("sidebar links", () => {
  it("marks a link on its own page and on the pages below it", () => {
    expect(isActiveLink("/customers", "/customers")).toBe(true);
    expect(isActiveLink("/customers/c-1", "/customers")).toBe(true);
    expect(isActiveLink("/customers-archive", "/customers")).toBe(false);
    expect(isActiveLink("/files", "/customers")).toBe(false);
  });

  it("marks an `end` link (the dashboard) on its own page only", () => {
    expect(isActiveLink("/", "/", true)).toBe(true);
    expect(isActiveLink("/customers", "/", true)).toBe(false);
    expect(isActiveLink("/settings/team/x", "/settings/team", true)).toBe(false);
  });

  it("never marks the root link for every page, even without `end`", () => {
    expect(isActiveLink("/customers", "/")).toBe(false);
  });

  it("opens the Settings section for the connection and setup pages (seed §2)", () => {
    expect(activeSection("/connect-database")).toBe("/configuration");
    expect(activeSection("/create-connection/abc")).toBe("/configuration");
    expect(activeSection("/customers")).toBe("/customers");
  });
});
