import { afterEach, describe, expect, test } from "vitest";
import { resetEnvForTests } from "~/env.server";
import { defaultFlags, getFlags, setFlagOverride } from "./feature-flags.server";
import { createTestTenant } from "../../tests/support/factories";

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
});
