import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { idempotencyKeys, type StoredOutcome } from "~/db/schema";
import { sha256 } from "~/utils/crypto.server";

export const FORM_TOKEN_FIELD = "_formToken";
const WAIT_FOR_FIRST_MS = 10_000;

/**
 * Run a form's mutation at most once per one-time token. The key covers the token and the
 * submitted fields, so a double click or a retry after a dropped response replays the first
 * outcome, while a different form on the same page (same token, other fields) still applies.
 * Failures are not recorded: nothing was applied, so a retry may apply.
 */
export async function applyOnce<T>(db: Db, input: { scope: string; formData: FormData }, run: () => Promise<T>): Promise<T> {
  const token = input.formData.get(FORM_TOKEN_FIELD);
  if (typeof token !== "string" || token.length < 16) return run();
  const key = sha256(`${input.scope}\n${token}\n${canonicalFields(input.formData)}`);

  const claimed = await db
    .insert(idempotencyKeys)
    .values({ key, status: "pending" })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed.length === 0) return (await waitForOutcome(db, key)) as T;

  let result: T;
  try {
    result = await run();
  } catch (thrown) {
    if (thrown instanceof Response && isRedirect(thrown)) {
      await store(db, key, { kind: "redirect", status: thrown.status, location: thrown.headers.get("Location")! });
    } else {
      await db.delete(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    }
    throw thrown;
  }
  if (result instanceof Response) {
    if (isRedirect(result)) {
      await store(db, key, { kind: "redirect", status: result.status, location: result.headers.get("Location")! });
    } else {
      await db.delete(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    }
  } else {
    await store(db, key, { kind: "json", status: 200, body: result ?? null });
  }
  return result;
}

function isRedirect(response: Response) {
  return response.status >= 300 && response.status < 400 && response.headers.has("Location");
}

async function store(db: Db, key: string, outcome: StoredOutcome) {
  await db.update(idempotencyKeys).set({ status: "done", response: outcome }).where(eq(idempotencyKeys.key, key));
}

async function waitForOutcome(db: Db, key: string, fingerprint?: string) {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const [row] = await db
      .select({ status: idempotencyKeys.status, response: idempotencyKeys.response })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, key));
    if (!row) throw new Response("The first submission failed; please submit again.", { status: 409 });
    if (
      fingerprint !== undefined &&
      row.response?.kind === "json" &&
      (row.response.body as { fingerprint?: string } | null)?.fingerprint !== fingerprint
    ) {
      throw new IdempotencyKeyReusedError("This Idempotency-Key was used with another request body.");
    }
    if (row.status === "done" && row.response) {
      const outcome = row.response;
      if (outcome.kind === "redirect") {
        return new Response(null, { status: outcome.status, headers: { Location: outcome.location } });
      }
      return outcome.body;
    }
    if (Date.now() > deadline) {
      throw new Response("This form is still being processed. Please wait a moment.", { status: 409 });
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function canonicalFields(formData: FormData) {
  const parts: string[] = [];
  for (const [name, value] of formData) {
    if (name === FORM_TOKEN_FIELD) continue;
    parts.push(`${name}=${typeof value === "string" ? value : `file:${value.name}:${value.size}`}`);
  }
  return parts.sort().join("&");
}

/** Shortest and longest `Idempotency-Key` header an API caller may send. */
export const IDEMPOTENCY_KEY_MIN = 16;
export const IDEMPOTENCY_KEY_MAX = 200;

/** Thrown when a key is reused with another request body (the API answers 422). */
export class IdempotencyKeyReusedError extends Error {}

type ApiReplayInput = {
  /** Who may replay: the tenant and the user (another caller's key is its own). */
  tenantId: string;
  userId: string;
  /** The operation (`POST /api/...`): a key reused on another operation is another key. */
  operation: string;
  key: string;
  /** A digest of the request body: the same key with another body is refused. */
  fingerprint: string;
};

/**
 * Run an API creation at most once per `Idempotency-Key`, scoped to tenant, user and operation.
 * The same key with the same body answers the stored `{ status, body }`; with another body it
 * throws IdempotencyKeyReusedError. Failures are not stored, so a retry may apply.
 */
export async function replayApiRequest(
  db: Db,
  input: ApiReplayInput,
  run: () => Promise<{ status: number; body: unknown }>,
): Promise<{ status: number; body: unknown; replayed: boolean }> {
  const key = sha256(`api\n${input.tenantId}\n${input.userId}\n${input.operation}\n${input.key}`);
  // The fingerprint is stored from the claim on, so a concurrent retry with another body is refused too.
  const pending: StoredOutcome = { kind: "json", status: 0, body: { fingerprint: input.fingerprint } };
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ key, status: "pending", response: pending })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed.length === 0) {
    const stored = (await waitForOutcome(db, key, input.fingerprint)) as { fingerprint: string; body: unknown; status: number };
    return { status: stored.status, body: stored.body, replayed: true };
  }
  let outcome: { status: number; body: unknown };
  try {
    outcome = await run();
  } catch (thrown) {
    await db.delete(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    throw thrown;
  }
  const body = { fingerprint: input.fingerprint, status: outcome.status, body: outcome.body };
  await store(db, key, { kind: "json", status: outcome.status, body });
  return { ...outcome, replayed: false };
}
