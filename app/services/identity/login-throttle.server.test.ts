import { and, desc, eq, like } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { outboxEmails } from "~/db/schema";
import { login, requestPasswordReset, resetPassword } from "./accounts.server";
import { TOO_MANY_ATTEMPTS } from "./rate-limit.server";
import { TEST_PASSWORD, createTestTenant, uniqueEmail } from "../../../tests/support/factories";

// Issue 12 §4: five wrong passwords for a known e-mail from one address made the right password
// answer 429 from every other address for 15 minutes. Now the hard limit is per (account, address);
// across addresses the account is slowed down (a growing wait before every attempt), and its owner
// is told by e-mail when failures pile up. Code entry works the same way.

let next = 0;
/** A different client address each call, as a botnet or a stranger on another network would have. */
const address = () => `203.0.113.${(next++ % 250) + 1}-${Math.random().toString(36).slice(2, 6)}`;

/** Records the waits the service asks for instead of sleeping (time is injected, tests do not sleep). */
function waits() {
  const asked: number[] = [];
  return { asked, wait: async (ms: number) => void asked.push(ms) };
}

async function mailsTo(email: string, subject: string) {
  const db = await getDb();
  return db
    .select({ text: outboxEmails.text })
    .from(outboxEmails)
    .where(and(eq(outboxEmails.to, email), like(outboxEmails.subject, subject)))
    .orderBy(desc(outboxEmails.createdAt));
}

describe("sign-in throttling", () => {
  test("a stranger's wrong passwords from one address do not lock the owner out elsewhere", async () => {
    const { db, user } = await createTestTenant();
    const stranger = address();
    const { wait } = waits();
    for (let i = 0; i < 5; i++)
      await expect(login(db, { email: user.email, password: "guess", ip: stranger }, new Date(), { wait })).rejects.toThrow();
    await expect(login(db, { email: user.email, password: TEST_PASSWORD, ip: address() }, new Date(), { wait })).resolves.toMatchObject({
      status: "ok",
    });
  });

  test("the address that failed five times is refused for that account only", async () => {
    const { db, user } = await createTestTenant();
    const other = await createTestTenant();
    const stranger = address();
    const { wait } = waits();
    for (let i = 0; i < 5; i++)
      await login(db, { email: user.email, password: "guess", ip: stranger }, new Date(), { wait }).catch(() => {});
    await expect(login(db, { email: user.email, password: TEST_PASSWORD, ip: stranger }, new Date(), { wait })).rejects.toMatchObject({
      status: 429,
      message: TOO_MANY_ATTEMPTS,
    });
    await expect(
      login(db, { email: other.user.email, password: TEST_PASSWORD, ip: stranger }, new Date(), { wait }),
    ).resolves.toMatchObject({ status: "ok" });
  });

  test("failures from many addresses slow every attempt on the account with a growing wait, the right password included", async () => {
    const { db, user } = await createTestTenant();
    const { asked, wait } = waits();
    for (let i = 0; i < 9; i++)
      await login(db, { email: user.email, password: "guess", ip: address() }, new Date(), { wait }).catch(() => {});
    expect(asked).toEqual([500, 1000, 2000, 4000]);
    const owner = waits();
    await expect(
      login(db, { email: user.email, password: TEST_PASSWORD, ip: address() }, new Date(), { wait: owner.wait }),
    ).resolves.toMatchObject({ status: "ok" });
    expect(owner.asked).toEqual([8000]);
  });

  test("the wait stops growing at its ceiling, and is the same for an address with no account (no enumeration)", async () => {
    const db = await getDb();
    const { asked, wait } = waits();
    for (let i = 0; i < 12; i++)
      await login(db, { email: uniqueEmail("nobody"), password: "guess", ip: address() }, new Date(), { wait }).catch(() => {});
    expect(asked).toEqual([]);
    const nobody = uniqueEmail("nobody");
    for (let i = 0; i < 12; i++) await login(db, { email: nobody, password: "guess", ip: address() }, new Date(), { wait }).catch(() => {});
    expect(asked).toEqual([500, 1000, 2000, 4000, 8000, 10000, 10000]);
  });

  test("the owner is told by e-mail once when failures pile up", async () => {
    const { db, user } = await createTestTenant();
    const { wait } = waits();
    for (let i = 0; i < 9; i++)
      await login(db, { email: user.email, password: "guess", ip: address() }, new Date(), { wait }).catch(() => {});
    expect(await mailsTo(user.email, "Failed sign-in attempts%")).toHaveLength(0);
    for (let i = 0; i < 6; i++)
      await login(db, { email: user.email, password: "guess", ip: address() }, new Date(), { wait }).catch(() => {});
    const alerts = await mailsTo(user.email, "Failed sign-in attempts%");
    expect(alerts).toHaveLength(1);
    expect(alerts[0].text).toMatch(/10 failed attempts to sign in/);
    expect(alerts[0].text).toMatch(/you can still sign in with your password/i);
  });
});

describe("code entry throttling", () => {
  test("wrong codes from a stranger's address do not stop the owner's code from another address", async () => {
    const { db, user } = await createTestTenant();
    const stranger = address();
    const { wait } = waits();
    const start = new Date();
    const later = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
    // Two codes burnt by the stranger (five wrong tries each): ten failures for this e-mail.
    for (const at of [start, later(1.1)]) {
      await requestPasswordReset(db, user.email, at);
      for (let i = 0; i < 5; i++) {
        await resetPassword(db, { email: user.email, code: "000000", password: "stranger-pass-1", ip: stranger }, at, { wait }).catch(
          () => {},
        );
      }
    }
    // The owner asks for a new code and enters it from home.
    await requestPasswordReset(db, user.email, later(2.2));
    const [mail] = await mailsTo(user.email, "Your Remarket password reset code");
    const code = mail.text.match(/\b(\d{6})\b/)![1];
    await expect(
      resetPassword(db, { email: user.email, code, password: "owner-new-pass-1", ip: address() }, later(2.3), { wait }),
    ).resolves.toMatchObject({ id: user.id });
    // The stranger's own address is refused.
    await requestPasswordReset(db, user.email, later(3.4));
    await expect(
      resetPassword(db, { email: user.email, code: "123456", password: "x-pass-1234", ip: stranger }, later(3.5), { wait }),
    ).rejects.toMatchObject({ status: 429 });
  });
});
