import { afterEach, describe, expect, test } from "vitest";
import { resetEnvForTests } from "~/env.server";
import { isStaffEmail } from "./staff.server";

describe("staff allow-list (seed §6)", () => {
  const saved = process.env.STAFF_EMAILS;
  afterEach(() => {
    if (saved === undefined) delete process.env.STAFF_EMAILS;
    else process.env.STAFF_EMAILS = saved;
    resetEnvForTests();
  });

  test("compares trimmed and case-insensitively on both sides", () => {
    const list = ["  Staff.Person@Example.test ", "ops@remarket.test"];
    expect(isStaffEmail("staff.person@example.test", list)).toBe(true);
    expect(isStaffEmail("  STAFF.PERSON@EXAMPLE.TEST\t", list)).toBe(true);
    expect(isStaffEmail("Ops@Remarket.Test", list)).toBe(true);
  });

  test("anyone else, and no e-mail at all, is not staff", () => {
    const list = ["staff.person@example.test"];
    expect(isStaffEmail("staff.person@example.test.evil", list)).toBe(false);
    expect(isStaffEmail("person@example.test", list)).toBe(false);
    expect(isStaffEmail("", list)).toBe(false);
    expect(isStaffEmail(null, list)).toBe(false);
    expect(isStaffEmail(undefined, list)).toBe(false);
    expect(isStaffEmail("staff.person@example.test", [])).toBe(false);
  });

  test("reads STAFF_EMAILS from the environment (comma-separated, spaces and case ignored)", () => {
    process.env.STAFF_EMAILS = " Staff.Person@Example.test ,, other@example.test ";
    resetEnvForTests();
    expect(isStaffEmail("staff.person@example.test")).toBe(true);
    expect(isStaffEmail("OTHER@example.test ")).toBe(true);
    expect(isStaffEmail("nobody@example.test")).toBe(false);
  });

  test("an empty STAFF_EMAILS makes nobody staff", () => {
    process.env.STAFF_EMAILS = "";
    resetEnvForTests();
    expect(isStaffEmail("staff.person@example.test")).toBe(false);
  });
});
