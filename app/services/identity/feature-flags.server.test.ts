import { afterEach, describe, expect, test } from "vitest";
import { resetEnvForTests } from "~/env.server";
import { applyFlagOverrides, defaultFlags, getFlags, setFlagOverride } from "./feature-flags.server";
import { createLoginSession, resolveSession } from "./login-sessions.server";
import { getShellData } from "./shell.server";
import { createTestTenant } from "../../../tests/support/factories";

function withFlags(value: string | undefined) {
  if (value === undefined) delete process.env.FEATURE_FLAGS;
  else process.env.FEATURE_FLAGS = value;
  resetEnvForTests();
}

describe("feature flags", () => {
  const saved = process.env.FEATURE_FLAGS;
  afterEach(() => withFlags(saved));

  test("billing is on by default", () => {
    withFlags(undefined);
    expect(defaultFlags()).toEqual({ billing: true });
  });

  test("FEATURE_FLAGS lists flags that are on; a leading '-' turns one off; unknown names are ignored", () => {
    withFlags("-billing");
    expect(defaultFlags()).toEqual({ billing: false });
    withFlags(" billing , not-a-flag");
    expect(defaultFlags()).toEqual({ billing: true });
    withFlags("");
    expect(defaultFlags()).toEqual({ billing: false });
  });

  test("a tenant's override beats the default, only for that tenant, and can be cleared", async () => {
    withFlags("billing");
    const a = await createTestTenant();
    const b = await createTestTenant();
    await setFlagOverride(a.db, a.tenant.id, "billing", false);
    expect(await getFlags(a.db, a.tenant.id)).toEqual({ billing: false });
    expect(await getFlags(b.db, b.tenant.id)).toEqual({ billing: true });

    // Setting again updates the same override.
    await setFlagOverride(a.db, a.tenant.id, "billing", true);
    withFlags("-billing");
    expect(await getFlags(a.db, a.tenant.id)).toEqual({ billing: true });
    expect(await getFlags(b.db, b.tenant.id)).toEqual({ billing: false });

    await setFlagOverride(a.db, a.tenant.id, "billing", null);
    expect(await getFlags(a.db, a.tenant.id)).toEqual({ billing: false });
  });

  test("unknown overrides are ignored", () => {
    withFlags("billing");
    expect(applyFlagOverrides({ billing: false, retired: true })).toEqual({ billing: false });
  });

  test("a signed-in page's shell gets the tenant's flags with the session", async () => {
    withFlags("billing");
    const a = await createTestTenant();
    await setFlagOverride(a.db, a.tenant.id, "billing", false);
    const { token } = await createLoginSession(a.db, { userId: a.user.id, tenantId: a.tenant.id });
    const auth = await resolveSession(a.db, token);
    expect(auth?.tenant.flagOverrides).toEqual({ billing: false });
    expect((await getShellData(a.db, auth!)).flags).toEqual({ billing: false });

    const b = await createTestTenant();
    const other = await resolveSession(b.db, (await createLoginSession(b.db, { userId: b.user.id, tenantId: b.tenant.id })).token);
    expect(other?.tenant.flagOverrides).toEqual({});
    expect((await getShellData(b.db, other!)).flags).toEqual({ billing: true });
  });
});
