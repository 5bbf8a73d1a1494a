// What the cluster test and bench/cluster.js do to a running Remarket over HTTP, as a browser or an
// API client would: sign in to the demo, set agencies up through the fixtures route (test builds
// only), start an import and follow it.

/** The one-time form token of the sign-in page. */
export async function formToken(/** @type {string} */ base) {
  const login = await (await fetch(`${base}/auth/login`)).text();
  const token = /name="_formToken" value="([^"]+)"/.exec(login)?.[1];
  if (!token) throw new Error("no form token on /auth/login");
  return token;
}

/** "Try the demo" as a browser presses it; resolves to the session cookie ("__session=…"). */
export async function pressTryTheDemo(/** @type {string} */ base, /** @type {string} */ token) {
  const response = await fetch(`${base}/auth/demo`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ _formToken: token }),
  });
  const session = response.headers.getSetCookie().find((c) => c.startsWith("__session="));
  if (response.status !== 302 || !session) throw new Error(`the demo did not sign in (${response.status})`);
  return session.split(";")[0];
}

/** POST /api/test-fixtures (ENABLE_TEST_FIXTURES, a build with BUILD_TEST_ROUTES). */
export async function fixture(/** @type {string} */ base, /** @type {Record<string, unknown>} */ body) {
  const response = await fetch(`${base}/api/test-fixtures`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`fixture ${JSON.stringify(body)} failed: ${response.status} ${await response.text()}`);
  return /** @type {Promise<Record<string, unknown>>} */ (response.json());
}

/** An agency with a user and a file connection ready to import `policies` generated policies. */
export async function agencyReadyToImport(/** @type {string} */ base, /** @type {string} */ name, /** @type {number} */ policies) {
  const email = `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const password = "cluster-pass-1234";
  const made = await fixture(base, { email, password });
  const tenantId = /** @type {string} */ (made.tenantId);
  const ready = await fixture(base, { fixture: "ready-connection", tenantId, policies, seed: 11 });
  return { email, password, tenantId, connectionId: /** @type {string} */ (ready.connectionId) };
}

/** Signs in through the API and queues the connection's import, as an API client would. */
export async function startImport(
  /** @type {string} */ base,
  /** @type {{ email: string; password: string; connectionId: string }} */ agency,
) {
  const login = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: agency.email, password: agency.password }),
  });
  if (!login.ok) throw new Error(`API sign-in failed: ${login.status}`);
  const { access_token } = /** @type {{ access_token: string }} */ (await login.json());
  const started = await fetch(`${base}/api/connections/start-etl/${agency.connectionId}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${access_token}`, "Content-Type": "application/json" },
    body: "{}",
  });
  if (started.status >= 300) throw new Error(`start-etl failed: ${started.status} ${await started.text()}`);
}

/**
 * @typedef {{ run: { status: string; checkpoint: number; rowsRead: number; rowsImported: number; rowsRejected: number; rowsFiltered: number } | null;
 *   counts: unknown; digest: string }} ImportState
 */

/** Polls the import's state until `until` holds (or 150 s pass). */
export async function waitForImport(
  /** @type {string} */ base,
  /** @type {{ tenantId: string; connectionId: string }} */ agency,
  /** @type {(state: ImportState) => boolean} */ until,
) {
  const deadline = Date.now() + 150_000;
  for (;;) {
    const state = /** @type {ImportState} */ (
      /** @type {unknown} */ (
        await fixture(base, { fixture: "connection-state", tenantId: agency.tenantId, connectionId: agency.connectionId })
      )
    );
    if (until(state)) return state;
    if (Date.now() > deadline) throw new Error(`timed out; last state ${JSON.stringify(state.run)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const finished = (/** @type {ImportState} */ s) => s.run?.status === "succeeded" || s.run?.status === "failed";
