import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { attemptDelayMs, clearRateLimit, hitRateLimit, isRateLimited, loginLimits, type Limit } from "./rate-limit.server";

const limit = (max = 3, windowMs = 60_000): Limit => ({ key: `test:${randomUUID()}`, max, windowMs });
const at = (start: Date, ms: number) => new Date(start.getTime() + ms);

describe("rate limits", () => {
  test("a key is limited once it reaches its maximum inside the window", async () => {
    const db = await getDb();
    const l = limit(3);
    const start = new Date();
    expect(await isRateLimited(db, l, start)).toBe(false);
    expect(await hitRateLimit(db, l, start)).toBe(1);
    expect(await hitRateLimit(db, l, at(start, 1000))).toBe(2);
    expect(await isRateLimited(db, l, at(start, 1000))).toBe(false);
    expect(await hitRateLimit(db, l, at(start, 2000))).toBe(3);
    expect(await isRateLimited(db, l, at(start, 2000))).toBe(true);
    expect(await isRateLimited(db, l, at(start, 59_000))).toBe(true);
  });

  test("the window resets: no longer limited, and the next hit starts a new count", async () => {
    const db = await getDb();
    const l = limit(2, 60_000);
    const start = new Date();
    await hitRateLimit(db, l, start);
    await hitRateLimit(db, l, at(start, 10_000));
    expect(await isRateLimited(db, l, at(start, 59_999))).toBe(true);
    expect(await isRateLimited(db, l, at(start, 60_000))).toBe(false);
    // The window is counted from its first hit, not slid by later ones.
    expect(await hitRateLimit(db, l, at(start, 61_000))).toBe(1);
    expect(await isRateLimited(db, l, at(start, 61_000))).toBe(false);
    expect(await hitRateLimit(db, l, at(start, 62_000))).toBe(2);
    expect(await isRateLimited(db, l, at(start, 62_000))).toBe(true);
    expect(await isRateLimited(db, l, at(start, 121_000))).toBe(false);
  });

  test("keys are independent and can be cleared", async () => {
    const db = await getDb();
    const a = limit(1);
    const b = limit(1);
    await hitRateLimit(db, a);
    expect(await isRateLimited(db, a)).toBe(true);
    expect(await isRateLimited(db, b)).toBe(false);
    await clearRateLimit(db, a.key);
    expect(await isRateLimited(db, a)).toBe(false);
  });

  test("concurrent hits are all counted (one upsert statement)", async () => {
    const db = await getDb();
    const l = limit(100);
    await Promise.all(Array.from({ length: 10 }, () => hitRateLimit(db, l)));
    expect(await hitRateLimit(db, l)).toBe(11);
  });

  test("login limits key the e-mail case-insensitively: hard per (account, address) and per address, the account alone only counts", () => {
    const { hard, account } = loginLimits("Ann@Example.TEST", "203.0.113.9");
    expect(hard.map((l) => l.key)).toEqual(["login:account-ip:ann@example.test|203.0.113.9", "login:ip:203.0.113.9"]);
    expect(account.key).toBe("login:account:ann@example.test");
  });

  test("the slow-down: none for the first five failures, then 0.5 s doubling up to 10 s", () => {
    expect([0, 4, 5, 6, 7, 8, 9, 10, 50, 5000].map(attemptDelayMs)).toEqual([0, 0, 500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  });
});
