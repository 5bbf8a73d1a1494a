import { randomUUID } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { oauthIdentities, outboxEmails, tenants, users } from "~/db/schema";
import { confirmSignUp, login, signUp } from "./accounts.server";
import { signInWithSso, type SsoProfile } from "./sso.server";
import { TEST_PASSWORD, createTestTenant, uniqueEmail } from "../../../tests/support/factories";

function profile(overrides: Partial<SsoProfile> = {}): SsoProfile {
  return {
    provider: "testidp",
    subject: randomUUID(),
    email: uniqueEmail("sso"),
    emailVerified: true,
    name: "Sam Single",
    ...overrides,
  };
}

async function lastCodeFor(email: string) {
  const db = await getDb();
  const [mail] = await db
    .select({ text: outboxEmails.text })
    .from(outboxEmails)
    .where(eq(outboxEmails.to, email))
    .orderBy(desc(outboxEmails.createdAt))
    .limit(1);
  return mail.text.match(/\b(\d{6})\b/)![1];
}

describe("single sign-on", () => {
  test("a first-time visitor gets a user and a tenant of their own, as its admin", async () => {
    const db = await getDb();
    const p = profile();
    const user = await signInWithSso(db, p);
    expect(user.email).toBe(p.email);
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ role: "admin", tenantId: user.tenantId, passwordHash: null });
    expect(row.emailVerifiedAt).not.toBeNull();
    const [tenant] = await db.select().from(tenants).where(eq(tenants.id, user.tenantId));
    expect(tenant.name).toBe("Sam Single's agency");
    const identities = await db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, user.id));
    expect(identities).toEqual([expect.objectContaining({ provider: "testidp", subject: p.subject })]);
  });

  test("the same identity signs in again to the same user and tenant", async () => {
    const db = await getDb();
    const p = profile();
    const first = await signInWithSso(db, p);
    // Even if the provider now reports another address, the identity (issuer + subject) decides.
    const again = await signInWithSso(db, { ...p, email: uniqueEmail("changed") });
    expect(again).toMatchObject({ id: first.id, tenantId: first.tenantId });
  });

  test("a verified e-mail of an existing account links to it", async () => {
    const { db, user } = await createTestTenant();
    const linked = await signInWithSso(db, profile({ email: user.email.toUpperCase() }));
    expect(linked).toMatchObject({ id: user.id, tenantId: user.tenantId });
    const identities = await db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, user.id));
    expect(identities).toHaveLength(1);
  });

  test("an unverified e-mail of an existing account is refused and nothing is linked", async () => {
    const { db, user } = await createTestTenant();
    await expect(signInWithSso(db, profile({ email: user.email, emailVerified: false }))).rejects.toMatchObject({ status: 403 });
    const identities = await db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, user.id));
    expect(identities).toHaveLength(0);
  });

  test("linking to an unconfirmed sign-up drops the password nobody proved (no pre-account takeover)", async () => {
    const db = await getDb();
    const email = uniqueEmail("victim");
    // Someone signs up with the victim's address and a password of theirs, never confirming it.
    await signUp(db, { agencyName: "Squatter", name: "Squat", email, password: "squatter-pw" });
    // The owner of the address signs in with their provider.
    const owner = await signInWithSso(db, profile({ email }));
    const [row] = await db.select().from(users).where(eq(users.id, owner.id));
    expect(row.emailVerifiedAt).not.toBeNull();
    expect(row.passwordHash).toBeNull();
    await expect(login(db, { email, password: "squatter-pw", ip: "192.0.2.77" })).rejects.toMatchObject({ status: 400 });
  });

  test("an identity with an unverified e-mail loses its link when the address is proven by code", async () => {
    const db = await getDb();
    const email = uniqueEmail("claimed");
    // A provider that does not verify e-mails lets anyone claim this address...
    const squatter = await signInWithSso(db, profile({ email, emailVerified: false }));
    // ...then the real owner signs up with it and confirms with the code sent to their inbox.
    await signUp(db, { agencyName: "Owner Agency", name: "Owner", email, password: TEST_PASSWORD });
    const owner = await confirmSignUp(db, { email, code: await lastCodeFor(email), ip: "192.0.2.78" });
    expect(owner.id).toBe(squatter.id);
    const identities = await db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, owner.id));
    expect(identities).toHaveLength(0);
  });
});
