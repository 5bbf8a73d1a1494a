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

async function waitForOutcome(db: Db, key: string) {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const [row] = await db
      .select({ status: idempotencyKeys.status, response: idempotencyKeys.response })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, key));
    if (!row) throw new Response("The first submission failed; please submit again.", { status: 409 });
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
