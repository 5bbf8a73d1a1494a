import { and, asc, desc, eq, gt, isNull, ne } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { invitations, users } from "~/db/schema";
import { getEnv } from "~/env.server";
import { randomToken, sha256 } from "~/utils/crypto.server";
import { passwordProblem } from "~/utils/password-policy";
import { recordAudit } from "../platform/audit.server";
import { findUserByEmail, normalizeEmail, type AuthedUser } from "./accounts.server";
import type { TenantContext } from "../platform/context.server";
import { clock } from "../platform/context.server";
import { sendEmail } from "../platform/email.server";
import { NotFoundError, ServiceError } from "../platform/errors.server";
import { requireUuid } from "../platform/ids.server";
import { revokeAllSessions } from "./login-sessions.server";
import { getPasswordPolicy, hashPassword } from "./passwords.server";

export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
const ACCOUNT_EXISTS = "This e-mail already has a Remarket account. Sign in instead.";

function requireAdmin(ctx: TenantContext) {
  if (ctx.role !== "admin") throw new ServiceError("Only agency admins can manage the team.", 403);
}

export async function listMembers(ctx: TenantContext) {
  return ctx.db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.tenantId, ctx.tenantId))
    .orderBy(asc(users.createdAt));
}

export async function listPendingInvitations(ctx: TenantContext) {
  return ctx.db
    .select({ id: invitations.id, email: invitations.email, role: invitations.role, expiresAt: invitations.expiresAt })
    .from(invitations)
    .where(
      and(
        eq(invitations.tenantId, ctx.tenantId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, clock(ctx)),
      ),
    )
    .orderBy(desc(invitations.createdAt));
}

/** Invite a teammate by e-mail: a link with a one-time token valid for 7 days. */
export async function inviteMember(ctx: TenantContext, input: { email: string; role: "admin" | "staff" }) {
  requireAdmin(ctx);
  const email = normalizeEmail(input.email);
  if (await findUserByEmail(ctx.db, email)) {
    throw new ServiceError("This e-mail already has a Remarket account.", 409, "email");
  }
  const now = clock(ctx);
  const token = randomToken();
  await ctx.db.insert(invitations).values({
    tenantId: ctx.tenantId,
    email,
    role: input.role,
    tokenHash: sha256(token),
    invitedBy: ctx.userId,
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    createdAt: now,
  });
  const link = `${getEnv().appUrl}/auth/accept-invite?token=${token}`;
  await sendEmail(ctx.db, {
    to: email,
    subject: "You are invited to Remarket",
    text: `You have been invited to join your agency on Remarket. Accept within 7 days: ${link}`,
  });
  await recordAudit(ctx.db, { tenantId: ctx.tenantId, actorUserId: ctx.userId, action: "team.invited", details: { email } }, now);
  return { token };
}

export async function revokeInvitation(ctx: TenantContext, invitationId: string) {
  requireAdmin(ctx);
  const revoked = await ctx.db
    .update(invitations)
    .set({ revokedAt: clock(ctx) })
    .where(and(eq(invitations.id, invitationId), eq(invitations.tenantId, ctx.tenantId)))
    .returning({ id: invitations.id });
  if (revoked.length === 0) throw new NotFoundError("Invitation not found");
}

/**
 * The open invitation behind a token, or null when unknown, used, revoked or expired.
 * cross-tenant: the invitee has no session yet; the secret token's hash names the invitation and its tenant.
 */
export async function findInvitation(db: Db, token: string, now = new Date()) {
  const [row] = await db
    .select({ id: invitations.id, tenantId: invitations.tenantId, email: invitations.email, role: invitations.role })
    .from(invitations)
    .where(
      and(
        eq(invitations.tokenHash, sha256(token)),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, now),
      ),
    );
  return row ?? null;
}

/** Accept: creates the user in the inviting tenant (the link proved the address). */
export async function acceptInvitation(
  db: Db,
  input: { token: string; name: string; password: string },
  now = new Date(),
): Promise<AuthedUser> {
  const problem = passwordProblem(getPasswordPolicy(), input.password);
  if (problem) throw new ServiceError(problem, 400, "password");
  const invitation = await findInvitation(db, input.token, now);
  if (!invitation) throw new ServiceError("This invitation is no longer valid. Ask your admin for a new one.", 400);
  // The address may have signed up, or accepted another agency's invitation, since it was invited.
  if (await findUserByEmail(db, invitation.email)) throw new ServiceError(ACCOUNT_EXISTS, 409);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const taken = await tx
      .update(invitations)
      .set({ acceptedAt: now })
      .where(and(eq(invitations.tenantId, invitation.tenantId), eq(invitations.id, invitation.id), isNull(invitations.acceptedAt)))
      .returning({ id: invitations.id });
    if (taken.length === 0) throw new ServiceError("This invitation has already been used.", 409);
    const [user] = await tx
      .insert(users)
      .values({
        tenantId: invitation.tenantId,
        email: invitation.email,
        name: input.name,
        role: invitation.role,
        passwordHash,
        emailVerifiedAt: now,
        createdAt: now,
      })
      // A concurrent sign-up with the same address loses to the unique index, not to a 500.
      .onConflictDoNothing()
      .returning({ id: users.id, tenantId: users.tenantId, email: users.email, name: users.name });
    if (!user) throw new ServiceError(ACCOUNT_EXISTS, 409);
    await recordAudit(tx, { tenantId: invitation.tenantId, actorUserId: user.id, action: "team.joined" }, now);
    return user;
  });
}

/** Remove a teammate: their sessions end and the account is deleted. */
export async function removeMember(ctx: TenantContext, userId: string) {
  requireAdmin(ctx);
  if (userId === ctx.userId) throw new ServiceError("You cannot remove yourself.", 400);
  const [member] = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.tenantId, ctx.tenantId), ne(users.id, ctx.userId)));
  if (!member) throw new NotFoundError("Team member not found");
  await revokeAllSessions(ctx.db, member.id);
  await ctx.db.delete(users).where(and(eq(users.id, member.id), eq(users.tenantId, ctx.tenantId)));
  await recordAudit(ctx.db, {
    tenantId: ctx.tenantId,
    actorUserId: ctx.userId,
    action: "team.removed",
    details: { email: member.email },
  });
}

/** Rename a user (seed PATCH /user/{id}): oneself, or a teammate when an admin. */
export async function renameUser(ctx: TenantContext, userId: string, name: string) {
  requireUuid(userId, "User not found");
  if (userId !== ctx.userId) requireAdmin(ctx);
  const [renamed] = await ctx.db
    .update(users)
    .set({ name })
    .where(and(eq(users.id, userId), eq(users.tenantId, ctx.tenantId)))
    .returning({ id: users.id, name: users.name, email: users.email, role: users.role });
  if (!renamed) throw new NotFoundError("User not found");
  await recordAudit(ctx.db, { tenantId: ctx.tenantId, actorUserId: ctx.userId, action: "user.renamed", details: { userId, name } });
  return renamed;
}
