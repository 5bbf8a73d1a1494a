import { describe, expect, it } from "vitest";
import { activeSection } from "./sidebar";

// Which link is marked is NavLink's rule (tests/e2e/pages.spec.ts follows the links and checks it).
describe("sidebar sections", () => {
  it("opens the Settings section for the connection and setup pages (seed §2)", () => {
    expect(activeSection("/connect-database")).toBe("/configuration");
    expect(activeSection("/create-connection/abc")).toBe("/configuration");
    expect(activeSection("/customers")).toBe("/customers");
  });
});
