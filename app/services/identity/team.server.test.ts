import { desc, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { invitations, outboxEmails, users } from "~/db/schema";
import { createLoginSession, resolveSession } from "./login-sessions.server";
import { NotFoundError } from "../platform/errors.server";
import {
  INVITATION_TTL_MS,
  acceptInvitation,
  findInvitation,
  inviteMember,
  listMembers,
  listPendingInvitations,
  removeMember,
  revokeInvitation,
} from "./team.server";
import { createTestTenant, uniqueEmail } from "../../../tests/support/factories";

const at = (start: Date, ms: number) => new Date(start.getTime() + ms);

async function invite(role: "admin" | "staff" = "staff") {
  const a = await createTestTenant({ name: "Inviting Agency" });
  const email = uniqueEmail("invitee");
  const { token } = await inviteMember(a.ctx, { email, role });
  return { ...a, email, token };
}

describe("invitations", () => {
  test("an admin invites by e-mail: the link carries the token and the invitation is pending", async () => {
    const { db, ctx, email, token } = await invite();
    const [mail] = await db
      .select({ text: outboxEmails.text })
      .from(outboxEmails)
      .where(eq(outboxEmails.to, email))
      .orderBy(desc(outboxEmails.createdAt));
    expect(mail.text).toContain(`/auth/accept-invite?token=${token}`);
    const pending = await listPendingInvitations(ctx);
    expect(pending).toEqual([expect.objectContaining({ email, role: "staff" })]);
    // Only a hash of the token is stored.
    const [row] = await db.select({ tokenHash: invitations.tokenHash }).from(invitations).where(eq(invitations.email, email));
    expect(row.tokenHash).not.toContain(token);
  });

  test("accepting creates a confirmed user in the inviting tenant with the invited role", async () => {
    const { db, ctx, tenant, email, token } = await invite("admin");
    const user = await acceptInvitation(db, { token, name: "New Mate", password: "mate-pass-1" });
    expect(user).toMatchObject({ tenantId: tenant.id, email, name: "New Mate" });
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row.role).toBe("admin");
    expect(row.emailVerifiedAt).not.toBeNull();
    expect((await listMembers(ctx)).map((m) => m.email)).toContain(email);
    expect(await listPendingInvitations(ctx)).toEqual([]);
  });

  test("a used token cannot be used again", async () => {
    const { db, token } = await invite();
    await acceptInvitation(db, { token, name: "Once", password: "mate-pass-1" });
    expect(await findInvitation(db, token)).toBeNull();
    await expect(acceptInvitation(db, { token, name: "Twice", password: "mate-pass-1" })).rejects.toThrow("no longer valid");
  });

  test("an expired invitation is refused", async () => {
    const { db, email, token } = await invite();
    const later = at(new Date(), INVITATION_TTL_MS + 60_000);
    expect(await findInvitation(db, token, later)).toBeNull();
    await expect(acceptInvitation(db, { token, name: "Late", password: "mate-pass-1" }, later)).rejects.toThrow("no longer valid");
    expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  test("a withdrawn invitation is refused", async () => {
    const { db, ctx, email, token } = await invite();
    const [pending] = await listPendingInvitations(ctx);
    await revokeInvitation(ctx, pending.id);
    expect(await listPendingInvitations(ctx)).toEqual([]);
    await expect(acceptInvitation(db, { token, name: "Gone", password: "mate-pass-1" })).rejects.toThrow("no longer valid");
    expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  test("an unknown token is refused, and the password policy applies", async () => {
    const { db, token } = await invite();
    await expect(acceptInvitation(db, { token: "bogus-token", name: "X", password: "mate-pass-1" })).rejects.toThrow("no longer valid");
    await expect(acceptInvitation(db, { token, name: "X", password: "123" })).rejects.toMatchObject({ field: "password", status: 400 });
  });

  test("an address that got an account meanwhile is refused with a message, not a crash", async () => {
    const { db, email, token } = await invite();
    const elsewhere = await createTestTenant();
    await db.update(users).set({ email }).where(eq(users.id, elsewhere.user.id));
    await expect(acceptInvitation(db, { token, name: "Dup", password: "mate-pass-1" })).rejects.toMatchObject({ status: 409 });
  });

  test("two agencies inviting one address: the second acceptance is refused with a message", async () => {
    const first = await invite();
    const second = await createTestTenant();
    const { token: secondToken } = await inviteMember(second.ctx, { email: first.email, role: "staff" });
    await acceptInvitation(first.db, { token: first.token, name: "Popular", password: "mate-pass-1" });
    await expect(acceptInvitation(first.db, { token: secondToken, name: "Popular", password: "mate-pass-1" })).rejects.toMatchObject({
      status: 409,
    });
  });

  test("inviting an address that already has an account is refused on the e-mail field", async () => {
    const { ctx } = await createTestTenant();
    const other = await createTestTenant();
    await expect(inviteMember(ctx, { email: ` ${other.user.email.toUpperCase()} `, role: "staff" })).rejects.toMatchObject({
      status: 409,
      field: "email",
    });
  });

  test("staff cannot invite, withdraw or remove", async () => {
    const admin = await invite();
    const [pending] = await listPendingInvitations(admin.ctx);
    const mate = await acceptInvitation(admin.db, { token: admin.token, name: "Staffer", password: "mate-pass-1" });
    const staffCtx = { ...admin.ctx, userId: mate.id, role: "staff" as const };
    await expect(inviteMember(staffCtx, { email: uniqueEmail(), role: "staff" })).rejects.toMatchObject({ status: 403 });
    await expect(revokeInvitation(staffCtx, pending.id)).rejects.toMatchObject({ status: 403 });
    await expect(removeMember(staffCtx, admin.user.id)).rejects.toMatchObject({ status: 403 });
    expect((await listMembers(admin.ctx)).map((m) => m.id)).toContain(admin.user.id);
  });

  test("removing a teammate deletes the account and ends their sessions", async () => {
    const { db, ctx, token } = await invite();
    const mate = await acceptInvitation(db, { token, name: "Leaving", password: "mate-pass-1" });
    const session = await createLoginSession(db, { userId: mate.id, tenantId: mate.tenantId });
    await removeMember(ctx, mate.id);
    expect(await resolveSession(db, session.token)).toBeNull();
    expect(await db.select().from(users).where(eq(users.id, mate.id))).toHaveLength(0);
    expect((await listMembers(ctx)).map((m) => m.id)).not.toContain(mate.id);
  });

  test("an admin cannot remove themselves", async () => {
    const { ctx, user } = await createTestTenant();
    await expect(removeMember(ctx, user.id)).rejects.toMatchObject({ status: 400 });
  });

  test("another tenant's member or invitation id is not found, and that tenant is untouched", async () => {
    const a = await createTestTenant();
    const b = await invite();
    const bMate = await createTestTenant();
    // A teammate in tenant B.
    await b.db.update(users).set({ tenantId: b.tenant.id }).where(eq(users.id, bMate.user.id));
    const [bInvitation] = await listPendingInvitations(b.ctx);

    await expect(removeMember(a.ctx, bMate.user.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(removeMember(a.ctx, b.user.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(revokeInvitation(a.ctx, bInvitation.id)).rejects.toBeInstanceOf(NotFoundError);

    expect((await listMembers(b.ctx)).map((m) => m.id).sort()).toEqual([b.user.id, bMate.user.id].sort());
    expect(await listPendingInvitations(b.ctx)).toHaveLength(1);
    expect(await findInvitation(b.db, b.token)).not.toBeNull();
    // Lists are scoped too.
    expect(await listMembers(a.ctx)).toEqual([expect.objectContaining({ id: a.user.id })]);
    expect(await listPendingInvitations(a.ctx)).toEqual([]);
  });
});
