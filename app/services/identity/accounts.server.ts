import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { oauthIdentities, users, verificationCodes } from "~/db/schema";
import { getEnv } from "~/env.server";
import { sha256, sixDigitCode } from "~/utils/crypto.server";
import { passwordProblem } from "~/utils/password-policy";
import { recordAudit } from "../platform/audit.server";
import { sendEmail } from "../platform/email.server";
import { ServiceError } from "../platform/errors.server";
import { burnPasswordCheck, getPasswordPolicy, hashPassword, verifyPassword } from "./passwords.server";
import { revokeAllSessions } from "./login-sessions.server";
import {
  TOO_MANY_ATTEMPTS,
  attemptDelayMs,
  clearRateLimit,
  codeLimits,
  hitRateLimit,
  hitsInWindow,
  isRateLimited,
  loginLimits,
  type AttemptLimits,
  type Limit,
} from "./rate-limit.server";
import { createTenant } from "./tenants.server";
import { log } from "~/services/platform/log.server";

export const CODE_TTL_MS = 10 * 60_000; // a code is valid 10 minutes
export const CODE_MAX_ATTEMPTS = 5;
export const RESEND_COOLDOWN_MS = 60_000;

export const INVALID_LOGIN = "Invalid e-mail or password.";

export type AuthedUser = { id: string; tenantId: string; email: string; name: string };

/** How an attempt waits out its account's slow-down; tests pass a recorder instead of sleeping. */
export type AttemptOptions = { wait?: (ms: number) => Promise<void> };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * The account behind an e-mail address, whichever agency it belongs to.
 * cross-tenant: sign-in, sign-up and reset find the account by its e-mail before any tenant is known.
 */
export async function findUserByEmail(db: Db, email: string) {
  const [user] = await db
    .select({
      id: users.id,
      tenantId: users.tenantId,
      email: users.email,
      name: users.name,
      passwordHash: users.passwordHash,
      emailVerifiedAt: users.emailVerifiedAt,
    })
    .from(users)
    .where(sql`lower(${users.email}) = ${normalizeEmail(email)}`);
  return user ?? null;
}

function assertPasswordAllowed(password: string, field = "password") {
  const problem = passwordProblem(getPasswordPolicy(), password);
  if (problem) throw new ServiceError(problem, 400, field);
}

/**
 * Sign-up: a new agency (tenant) with this user as its admin, and a confirmation code by e-mail.
 * Signing up again with an unconfirmed address updates it and sends a fresh code.
 * cross-tenant: the unconfirmed account being signed up again is updated by its own id.
 */
export async function signUp(db: Db, input: { agencyName: string; name: string; email: string; password: string }, now = new Date()) {
  assertPasswordAllowed(input.password);
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const existing = await findUserByEmail(db, email);
  if (existing?.emailVerifiedAt) {
    throw new ServiceError("An account with this e-mail already exists. Sign in instead.", 409, "email");
  }
  const userId = await db.transaction(async (tx) => {
    if (existing) {
      await tx.update(users).set({ name: input.name, passwordHash }).where(eq(users.id, existing.id));
      return existing.id;
    }
    const tenant = await createTenant(tx, { name: input.agencyName }, now);
    const [user] = await tx
      .insert(users)
      .values({ tenantId: tenant.id, email, name: input.name, role: "admin", passwordHash, createdAt: now })
      .returning({ id: users.id });
    await recordAudit(tx, { tenantId: tenant.id, actorUserId: user.id, actorEmail: email, action: "user.signed_up" }, now);
    return user.id;
  });
  await issueCode(db, { userId, email, purpose: "signup", force: true }, now);
  return { userId, email };
}

/** Send a new code unless one was sent within the cool-down. */
export async function issueCode(
  db: Db,
  input: { userId: string; email: string; purpose: "signup" | "reset"; force?: boolean },
  now = new Date(),
) {
  const [last] = await db
    .select({ sentAt: verificationCodes.sentAt })
    .from(verificationCodes)
    .where(and(eq(verificationCodes.userId, input.userId), eq(verificationCodes.purpose, input.purpose)))
    .orderBy(desc(verificationCodes.sentAt))
    .limit(1);
  const waitMs = last ? RESEND_COOLDOWN_MS - (now.getTime() - last.sentAt.getTime()) : 0;
  if (!input.force && waitMs > 0) {
    throw new ServiceError(`Please wait ${Math.ceil(waitMs / 1000)} seconds before asking for a new code.`, 429);
  }
  const code = sixDigitCode();
  await db.transaction(async (tx) => {
    // Only the newest code works.
    await tx
      .update(verificationCodes)
      .set({ consumedAt: now })
      .where(
        and(eq(verificationCodes.userId, input.userId), eq(verificationCodes.purpose, input.purpose), isNull(verificationCodes.consumedAt)),
      );
    await tx.insert(verificationCodes).values({
      userId: input.userId,
      purpose: input.purpose,
      codeHash: sha256(`${input.userId}:${code}`),
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      sentAt: now,
    });
  });
  const subject = input.purpose === "signup" ? "Your Remarket confirmation code" : "Your Remarket password reset code";
  const purpose = input.purpose === "signup" ? "confirm your e-mail address" : "reset your password";
  await sendEmail(db, {
    to: input.email,
    subject,
    text: `Your code is ${code}. Enter it to ${purpose}. It is valid for 10 minutes.`,
  });
}

/** Check a code: wrong codes count against the code and the rate limits; a right one is used up. */
async function consumeCode(
  db: Db,
  input: { email: string; code: string; purpose: "signup" | "reset"; ip: string },
  now: Date,
  { wait = sleep }: AttemptOptions = {},
) {
  const limits = codeLimits(input.email, input.ip);
  await beginAttempt(db, limits, now, wait);
  const user = await findUserByEmail(db, input.email);
  const [row] = user
    ? await db
        .select({
          id: verificationCodes.id,
          codeHash: verificationCodes.codeHash,
          attempts: verificationCodes.attempts,
          expiresAt: verificationCodes.expiresAt,
        })
        .from(verificationCodes)
        .where(
          and(eq(verificationCodes.userId, user.id), eq(verificationCodes.purpose, input.purpose), isNull(verificationCodes.consumedAt)),
        )
        .orderBy(desc(verificationCodes.sentAt))
        .limit(1)
    : [];
  if (!user || !row) throw new ServiceError("This code is not valid. Ask for a new one.", 400, "code");
  if (row.expiresAt <= now) throw new ServiceError("This code has expired. Ask for a new one.", 400, "code");
  if (row.attempts >= CODE_MAX_ATTEMPTS) {
    throw new ServiceError("Too many wrong codes. Ask for a new one.", 400, "code");
  }
  if (sha256(`${user.id}:${input.code.trim()}`) !== row.codeHash) {
    await db
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1` })
      .where(eq(verificationCodes.id, row.id));
    await recordFailure(db, limits, now);
    const left = CODE_MAX_ATTEMPTS - row.attempts - 1;
    throw new ServiceError(
      left > 0
        ? `That code is not right. ${left} ${left === 1 ? "attempt" : "attempts"} left.`
        : "Too many wrong codes. Ask for a new one.",
      400,
      "code",
    );
  }
  // Guarded update: two concurrent submissions of one code cannot both succeed.
  const used = await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(and(eq(verificationCodes.id, row.id), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id });
  if (used.length === 0) throw new ServiceError("This code has already been used.", 400, "code");
  return user;
}

/** Confirm sign-up with the e-mailed code; returns the user to sign in. */
export async function confirmSignUp(
  db: Db,
  input: { email: string; code: string; ip: string },
  now = new Date(),
  options: AttemptOptions = {},
): Promise<AuthedUser> {
  const user = await consumeCode(db, { ...input, purpose: "signup" }, now, options);
  await markEmailProven(db, user, now);
  return { id: user.id, tenantId: user.tenantId, email: user.email, name: user.name };
}

export async function resendSignUpCode(db: Db, email: string, now = new Date()) {
  const user = await findUserByEmail(db, email);
  // Same answer whether or not the address is waiting for confirmation.
  if (!user || user.emailVerifiedAt) return;
  await issueCode(db, { userId: user.id, email: user.email, purpose: "signup" }, now);
}

export type LoginResult = { status: "ok"; user: AuthedUser } | { status: "unconfirmed"; email: string };

/**
 * Password login, one message for every failure. Refused (429) only for the address that keeps
 * failing (on this account, or across accounts); failures from everywhere slow the account down
 * instead, and its owner is told by e-mail when they pile up (issue 12 §4).
 */
export async function login(
  db: Db,
  input: { email: string; password: string; ip: string },
  now = new Date(),
  { wait = sleep }: AttemptOptions = {},
): Promise<LoginResult> {
  const limits = loginLimits(input.email, input.ip);
  await beginAttempt(db, limits, now, wait);
  const user = await findUserByEmail(db, input.email);
  if (!user) await burnPasswordCheck(input.password);
  const ok = user ? await verifyPassword(user.passwordHash, input.password) : false;
  if (!user || !ok) {
    const failures = await recordFailure(db, limits, now);
    if (user && failures === getEnv().LOGIN_ALERT_AFTER) await alertOwnerOfFailures(db, user.email, failures);
    throw new ServiceError(INVALID_LOGIN, 400);
  }
  // This address proved itself; the account's slow-down runs out with its window.
  await clearRateLimit(db, limits.hard[0].key);
  if (!user.emailVerifiedAt) {
    await issueCode(db, { userId: user.id, email: user.email, purpose: "signup" }, now).catch(() => {});
    return { status: "unconfirmed", email: user.email };
  }
  return { status: "ok", user: { id: user.id, tenantId: user.tenantId, email: user.email, name: user.name } };
}

/** Always succeeds from the outside, so it does not reveal which addresses have accounts. */
export async function requestPasswordReset(db: Db, email: string, now = new Date()) {
  const user = await findUserByEmail(db, email);
  if (!user) return;
  await issueCode(db, { userId: user.id, email: user.email, purpose: "reset" }, now).catch((error) => {
    if (!(error instanceof ServiceError)) throw error; // a cool-down is silent
  });
}

/**
 * Reset with the e-mailed code; signs the user out everywhere and confirms the address.
 * cross-tenant: the user proved by the e-mailed code is updated by their own id.
 */
export async function resetPassword(
  db: Db,
  input: { email: string; code: string; password: string; ip: string },
  now = new Date(),
  options: AttemptOptions = {},
) {
  if (!input.password) throw new ServiceError("New password is required.", 400, "password");
  assertPasswordAllowed(input.password);
  const user = await consumeCode(db, { ...input, purpose: "reset" }, now, options);
  await markEmailProven(db, user, now);
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(input.password) })
    .where(eq(users.id, user.id));
  await revokeAllSessions(db, user.id, now);
  await recordAudit(db, { tenantId: user.tenantId, actorUserId: user.id, action: "user.password_reset" }, now);
  return { id: user.id, tenantId: user.tenantId, email: user.email, name: user.name };
}

/**
 * Change password: the current one is required; other sessions are signed out.
 * cross-tenant: the signed-in user (their id comes from the session) changes their own password.
 */
export async function changePassword(
  db: Db,
  input: { userId: string; currentPassword: string; newPassword: string; keepSessionId: string },
  now = new Date(),
) {
  const [user] = await db
    .select({ id: users.id, tenantId: users.tenantId, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, input.userId));
  if (!user) throw new ServiceError("User not found.", 404);
  if (user.passwordHash && !(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new ServiceError("Current password is not right.", 400, "currentPassword");
  }
  if (!input.newPassword) throw new ServiceError("New password is required.", 400, "newPassword");
  assertPasswordAllowed(input.newPassword, "newPassword");
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(input.newPassword) })
    .where(eq(users.id, user.id));
  await db.execute(
    sql`update sessions set revoked_at = ${now.toISOString()}::timestamptz where user_id = ${user.id} and id <> ${input.keepSessionId} and revoked_at is null`,
  );
  await recordAudit(db, { tenantId: user.tenantId, actorUserId: user.id, action: "user.password_changed" }, now);
}

/**
 * The code reached the inbox, so the address is proven. Single sign-on identities linked while
 * it was unproven came from a provider that did not verify it: they could belong to anyone who
 * typed this address, so they are dropped (no pre-account takeover).
 * cross-tenant: the user proved by the e-mailed code is updated by their own id.
 */
async function markEmailProven(db: Db, user: { id: string; emailVerifiedAt: Date | null }, now: Date) {
  if (user.emailVerifiedAt) return;
  await db.transaction(async (tx) => {
    await tx.update(users).set({ emailVerifiedAt: now }).where(eq(users.id, user.id));
    await tx.delete(oauthIdentities).where(eq(oauthIdentities.userId, user.id));
  });
}

async function assertNotLimited(db: Db, limits: Limit[], now: Date) {
  for (const limit of limits) {
    if (await isRateLimited(db, limit, now)) throw new ServiceError(TOO_MANY_ATTEMPTS, 429);
  }
}

/** Refuse an address over its hard limits, then wait out the account's slow-down (right guess or wrong). */
async function beginAttempt(db: Db, limits: AttemptLimits, now: Date, wait: (ms: number) => Promise<void>) {
  await assertNotLimited(db, limits.hard, now);
  const delay = attemptDelayMs(await hitsInWindow(db, limits.account, now));
  if (delay > 0) await wait(delay);
}

/** Count a failure on every counter; returns the account's failures from all addresses, this one included. */
async function recordFailure(db: Db, limits: AttemptLimits, now: Date) {
  for (const limit of limits.hard) await hitRateLimit(db, limit, now);
  return hitRateLimit(db, limits.account, now);
}

/** Once per window, when failures pile up: the owner hears of it (a mail failure must not fail the sign-in). */
async function alertOwnerOfFailures(db: Db, email: string, failures: number) {
  await sendEmail(db, {
    to: email,
    subject: "Failed sign-in attempts on your Remarket account",
    text:
      `There were ${failures} failed attempts to sign in to your Remarket account (${email}) in the last 15 minutes. ` +
      "Sign-ins to your account are slowed down for a while; you can still sign in with your password. " +
      'If these attempts were not yours, nobody got in. To be safe, choose a new password with "Forgot password?" ' +
      "on the sign-in page, one you use nowhere else.",
  }).catch((error) =>
    log.warn({ area: "auth", err: error instanceof Error ? error.message : error }, "could not send the failed sign-in alert"),
  );
}
