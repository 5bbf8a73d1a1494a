import { describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { createDemoTenant } from "../platform/demo-data.server";
import { listWorklist } from "./worklist.server";

describe("the worklist's renewal-figure filter", () => {
  test("splits the open flags into those resting on a carrier's offer and those resting on a prediction", async () => {
    const db = await getDb();
    const user = await createDemoTenant(db);
    const ctx = { db, tenantId: user.tenantId };
    const all = await listWorklist(ctx, { status: "open" }, 1);
    const offers = await listWorklist(ctx, { status: "open", basis: "offer" }, 1);
    const predicted = await listWorklist(ctx, { status: "open", basis: "predicted" }, 1);

    expect(offers.rows.every((r) => !r.predicted)).toBe(true);
    expect(predicted.rows.every((r) => r.predicted)).toBe(true);
    // The demo book has both kinds, and together they are the whole list.
    expect(offers.total).toBeGreaterThan(0);
    expect(predicted.total).toBeGreaterThan(0);
    expect(offers.total + predicted.total).toBe(all.total);
    expect(new Set([...offers.rows, ...predicted.rows].map((r) => r.id))).toEqual(new Set(all.rows.map((r) => r.id)));
  });
});
