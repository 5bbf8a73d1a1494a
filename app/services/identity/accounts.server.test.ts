import { and, desc, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { outboxEmails, users } from "~/db/schema";
import { INVALID_LOGIN, changePassword, confirmSignUp, login, requestPasswordReset, resetPassword, signUp } from "./accounts.server";
import { createLoginSession, resolveSession } from "./login-sessions.server";
import { TOO_MANY_ATTEMPTS } from "./rate-limit.server";
import { TEST_PASSWORD, createTestTenant, uniqueEmail } from "../../../tests/support/factories";

async function lastCodeFor(email: string) {
  const db = await getDb();
  const [mail] = await db
    .select({ text: outboxEmails.text })
    .from(outboxEmails)
    .where(eq(outboxEmails.to, email))
    .orderBy(desc(outboxEmails.createdAt))
    .limit(1);
  const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

const ip = () => `192.0.2.${Math.floor(Math.random() * 250)}`;

describe("sign-up and confirmation", () => {
  test("sign-up creates an admin of a new tenant and mails a code that confirms it", async () => {
    const db = await getDb();
    const email = uniqueEmail("Signup");
    const { userId } = await signUp(db, { agencyName: "Acme Agency", name: "Ann", email, password: "secret1" });
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    expect(row.role).toBe("admin");
    expect(row.email).toBe(email.toLowerCase());
    expect(row.emailVerifiedAt).toBeNull();
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);

    const code = await lastCodeFor(email.toLowerCase());
    const user = await confirmSignUp(db, { email, code, ip: ip() });
    expect(user.id).toBe(userId);
    const [after] = await db.select().from(users).where(eq(users.id, userId));
    expect(after.emailVerifiedAt).not.toBeNull();
  });

  test("a wrong code counts down and the fifth wrong one locks the code", async () => {
    const db = await getDb();
    const email = uniqueEmail();
    await signUp(db, { agencyName: "Beta", name: "Bo", email, password: "secret1" });
    const right = await lastCodeFor(email);
    const wrong = right === "000000" ? "111111" : "000000";
    await expect(confirmSignUp(db, { email, code: wrong, ip: ip() })).rejects.toThrow("4 attempts left");
    for (let i = 0; i < 4; i++) await confirmSignUp(db, { email, code: wrong, ip: ip() }).catch(() => {});
    await expect(confirmSignUp(db, { email, code: right, ip: ip() })).rejects.toThrow("Too many wrong codes");
  });

  test("an expired code is refused", async () => {
    const db = await getDb();
    const email = uniqueEmail();
    const start = new Date();
    await signUp(db, { agencyName: "Gamma", name: "Gil", email, password: "secret1" }, start);
    const code = await lastCodeFor(email);
    const later = new Date(start.getTime() + 11 * 60_000);
    await expect(confirmSignUp(db, { email, code, ip: ip() }, later)).rejects.toThrow("expired");
  });

  test("signing up twice with a confirmed e-mail is refused on the e-mail field", async () => {
    const { db, user } = await createTestTenant();
    await expect(signUp(db, { agencyName: "X", name: "Y", email: user.email.toUpperCase(), password: "secret1" })).rejects.toMatchObject({
      field: "email",
      status: 409,
    });
  });

  test("the password policy is enforced", async () => {
    const db = await getDb();
    await expect(signUp(db, { agencyName: "X", name: "Y", email: uniqueEmail(), password: "123" })).rejects.toThrow(
      "at least 6 characters",
    );
  });
});

describe("login", () => {
  test("right password signs in; wrong password and unknown e-mail get the same message", async () => {
    const { db, user } = await createTestTenant();
    const result = await login(db, { email: ` ${user.email.toUpperCase()} `, password: TEST_PASSWORD, ip: ip() });
    expect(result).toMatchObject({ status: "ok", user: { id: user.id } });
    await expect(login(db, { email: user.email, password: "nope", ip: ip() })).rejects.toThrow(INVALID_LOGIN);
    await expect(login(db, { email: uniqueEmail(), password: "nope", ip: ip() })).rejects.toThrow(INVALID_LOGIN);
  });

  test("five failures for an e-mail from one address lock that address out of it, even with the right password", async () => {
    const { db, user } = await createTestTenant();
    const address = ip();
    for (let i = 0; i < 5; i++) await login(db, { email: user.email, password: "wrong", ip: address }).catch(() => {});
    await expect(login(db, { email: user.email, password: TEST_PASSWORD, ip: address })).rejects.toThrow(TOO_MANY_ATTEMPTS);
  });

  test("failures from one client address are limited across e-mails", async () => {
    const { db, user } = await createTestTenant();
    const address = `198.51.100.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 50; i++) await login(db, { email: uniqueEmail(), password: "x", ip: address }).catch(() => {});
    await expect(login(db, { email: user.email, password: TEST_PASSWORD, ip: address })).rejects.toMatchObject({ status: 429 });
  });

  test("an unconfirmed account is sent to confirmation", async () => {
    const db = await getDb();
    const email = uniqueEmail();
    await signUp(db, { agencyName: "Delta", name: "Di", email, password: "secret1" });
    await expect(login(db, { email, password: "secret1", ip: ip() })).resolves.toEqual({ status: "unconfirmed", email });
  });
});

describe("password reset and change", () => {
  test("forgot → code → reset signs out every session and the new password works", async () => {
    const { db, user } = await createTestTenant();
    const { token } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
    await requestPasswordReset(db, user.email);
    const code = await lastCodeFor(user.email);
    await resetPassword(db, { email: user.email, code, password: "brand-new-1", ip: ip() });
    expect(await resolveSession(db, token)).toBeNull();
    await expect(login(db, { email: user.email, password: "brand-new-1", ip: ip() })).resolves.toMatchObject({ status: "ok" });
  });

  test("reset for an unknown e-mail says nothing and sends nothing", async () => {
    const db = await getDb();
    const email = uniqueEmail();
    await requestPasswordReset(db, email);
    const mails = await db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.to, email)));
    expect(mails).toHaveLength(0);
  });

  test("change password needs the current one and keeps only this session", async () => {
    const { db, user } = await createTestTenant();
    const mine = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
    const other = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
    const keep = (await resolveSession(db, mine.token))!.sessionId;
    await expect(
      changePassword(db, { userId: user.id, currentPassword: "wrong", newPassword: "another-1", keepSessionId: keep }),
    ).rejects.toMatchObject({ field: "currentPassword" });
    await changePassword(db, { userId: user.id, currentPassword: TEST_PASSWORD, newPassword: "another-1", keepSessionId: keep });
    expect(await resolveSession(db, mine.token)).not.toBeNull();
    expect(await resolveSession(db, other.token)).toBeNull();
  });
});
