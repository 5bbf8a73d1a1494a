import { and, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { notifications, tenants } from "~/db/schema";
import { seedFlaggedBook } from "../../../tests/support/book-factories";
import { addTestUser, createTestTenant } from "../../../tests/support/factories";
import { composeDigest, getDigestEmail, sendDailyDigests, setDigestEmail } from "./daily-digest.server";

describe("the daily digest's words", () => {
  const quiet = { newlyFlagged: 0, tasksDue: 0, quota: { used: 10, quota: 600, year: 2026 } };
  test.each([
    ["nothing to say", quiet, null],
    ["renewals flagged", { ...quiet, newlyFlagged: 3 }, ["3 renewals newly flagged for re-marketing."]],
    ["one task", { ...quiet, tasksDue: 1 }, ["1 task of yours due this week."]],
    ["quota just under 80%", { ...quiet, quota: { used: 479, quota: 600, year: 2026 } }, null],
    ["quota at 80%", { ...quiet, quota: { used: 480, quota: 600, year: 2026 } }, ["480 of 600 re-markets of 2026 used (80%)."]],
    ["quota used up", { ...quiet, quota: { used: 600, quota: 600, year: 2026 } }, ["All 600 re-markets of 2026 are used."]],
    ["no quota at all", { ...quiet, quota: { used: 0, quota: 0, year: 2026 } }, null],
  ])("%s", (_name, facts, lines) => {
    expect(composeDigest(facts)?.lines ?? null).toEqual(lines);
  });
});

describe("sending the daily digest", () => {
  test("from 7:00 local, once a day, to each user with something to do; a task assigned to a user tells them at once", async () => {
    const { db, ctx, tenant, user: admin } = await createTestTenant();
    await db.update(tenants).set({ timeZone: "UTC" }).where(eq(tenants.id, tenant.id));
    const producer = await addTestUser(tenant.id, { name: "Producer dg1" });
    // Three flagged; the admin re-markets one, whose task goes to its producer, a Remarket user.
    await seedFlaggedBook(ctx, { tag: "dg1", size: 3, remarketed: 1 });
    const mine = (userId: string, kind: string) =>
      db
        .select({ title: notifications.title, message: notifications.message })
        .from(notifications)
        .where(and(eq(notifications.tenantId, tenant.id), eq(notifications.userId, userId), eq(notifications.kind, kind)));

    expect(await mine(producer.user.id, "task")).toEqual([
      {
        title: "A task for you",
        message: expect.stringMatching(/^Re-market HOME policy .* for Scope Customer dg1 0, due \d{2} \w{3} \d{4}\.$/),
      },
    ]);
    expect(await mine(admin.id, "task")).toEqual([]);

    const today = new Date().toISOString().slice(0, 10);
    await sendDailyDigests(db, new Date(`${today}T06:59:00Z`));
    expect(await mine(admin.id, "digest")).toEqual([]);

    const morning = new Date(Math.max(Date.now(), Date.parse(`${today}T07:00:00Z`)));
    await sendDailyDigests(db, morning);
    await sendDailyDigests(db, new Date(morning.getTime() + 3_600_000));
    expect(await mine(admin.id, "digest")).toEqual([
      { title: "What needs you today", message: "2 renewals newly flagged for re-marketing." },
    ]);
    expect(await mine(producer.user.id, "digest")).toEqual([
      { title: "What needs you today", message: "2 renewals newly flagged for re-marketing. 1 task of yours due this week." },
    ]);
  });

  test("each user chooses whether it comes by e-mail too, for themselves only", async () => {
    const { ctx, tenant } = await createTestTenant();
    const colleague = await addTestUser(tenant.id);
    expect(await getDigestEmail(ctx)).toBe(true);
    await setDigestEmail(ctx, false);
    expect(await getDigestEmail(ctx)).toBe(false);
    expect(await getDigestEmail(colleague.ctx)).toBe(true);
  });
});
