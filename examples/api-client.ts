// A Remarket API client, from sign-in to a re-marketed renewal, with nothing but `fetch`.
//
//   REMARKET_URL=http://localhost:3000 REMARKET_EMAIL=you@agency.example REMARKET_PASSWORD=… npx tsx examples/api-client.ts
//
// (or: npx tsx examples/api-client.ts <base URL> <e-mail> <password> [export.csv]). Read it top to bottom: each
// step is one or two calls, printed as it runs. The reference is at <base URL>/api/docs.

// ── 1. Tokens and the one helper every call goes through ─────────────────────────────────────────

type Tokens = { access_token: string; refresh_token: string; expires_in: number };

/** An RFC 9457 problem: every failure of the API answers one (`detail` says what went wrong). */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly problem: { title?: string; detail?: string; errors?: Record<string, string[]> },
  ) {
    super(`${status} ${problem.detail ?? problem.title ?? "failed"}`);
  }
}

type CallOptions = { json?: unknown; form?: FormData; idempotencyKey?: string };

/** A signed-in client: `call()` sends the access token and, on a 401, refreshes once and retries once. */
export function createClient(baseUrl: string) {
  let tokens: Tokens | null = null;

  async function send(method: string, path: string, options: CallOptions) {
    const headers = new Headers({ Accept: "application/json" });
    if (tokens) headers.set("Authorization", `Bearer ${tokens.access_token}`);
    // Writes are JSON (or multipart for uploads); the server refuses other bodies with a 415.
    if (options.json !== undefined) headers.set("Content-Type", "application/json");
    // A creating POST with an Idempotency-Key can be retried safely: the retry answers the first outcome.
    if (options.idempotencyKey) headers.set("Idempotency-Key", options.idempotencyKey);
    const body = options.form ?? (options.json === undefined ? undefined : JSON.stringify(options.json));
    return fetch(new URL(path, baseUrl), { method, headers, body });
  }

  async function read<T>(response: Response): Promise<T> {
    const type = response.headers.get("Content-Type") ?? "";
    if (!response.ok) {
      const problem = type.includes("json") ? await response.json() : { detail: await response.text() };
      throw new ApiProblem(response.status, problem);
    }
    if (response.status === 204) return undefined as T;
    return (type.includes("json") ? response.json() : response.text()) as Promise<T>;
  }

  /** Spend the refresh token: a new access token and a new refresh token (the old one is now used up). */
  async function refresh() {
    if (!tokens) throw new Error("Sign in first.");
    const response = await fetch(new URL("/api/auth/refresh", baseUrl), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ refresh_token: tokens.refresh_token }),
    });
    tokens = await read<Tokens>(response);
    return tokens;
  }

  /**
   * Call the API. The documented rule: on a 401, refresh once, then retry once; if the refresh or
   * the retry answers 401 too, the sign-in is over (never loop). A client with several threads
   * must let one of them refresh and the others wait: a refresh token works only once.
   */
  async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    let response = await send(method, path, options);
    if (response.status === 401 && tokens) {
      await refresh();
      response = await send(method, path, options);
    }
    return read<T>(response);
  }

  async function login(email: string, password: string) {
    tokens = await call<Tokens>("POST", "/api/auth/login", { json: { email, password } });
    return tokens;
  }

  return {
    login,
    refresh,
    call,
    /** The tokens in hand (for showing them off; a real client keeps them to itself). */
    tokens: () => tokens,
    /** Forget the access token, as if it had lapsed (the next call gets a 401 and refreshes). */
    expireAccessToken: () => {
      if (tokens) tokens = { ...tokens, access_token: "lapsed" };
    },
  };
}

// ── 2. The tour: sign in → refresh → upload → set up → import → worklist → re-market ────────────

type Data<T> = { data: T };
type Connection = { id: string; name: string; step: string };
type RunStatus = "queued" | "running" | "succeeded" | "failed";
type Status = { step: string; latestRun: { id: string; status: RunStatus; policiesCount: number | null; error: string | null } | null };
type FlaggedRenewal = {
  id: string;
  policyId: string;
  customerName: string;
  policyNumber: string;
  carrierName: string;
  expirationDate: string;
  changePct: number;
  reason: string;
};
type Quota = { remarketQuota: { annual_quota: number; currentYearUsage: number } };

export type ExampleOptions = {
  baseUrl: string;
  email: string;
  password: string;
  /** Where each step is printed (console.log by default). */
  log?: (line: string) => void;
  /** The export to upload (CSV text); the server's generated sample when absent. */
  exportCsv?: string;
  /** How long to wait for the import and the forecast after it. */
  timeoutMs?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ask `check` every second until it answers something, or give up after `timeoutMs`. */
async function waitFor<T>(what: string, timeoutMs: number, check: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what}.`);
    await sleep(1000);
  }
}

/** Run the whole tour against a server; the figures of each step are returned (the CI test checks them). */
export async function runExample({ baseUrl, email, password, exportCsv, log = console.log, timeoutMs = 120_000 }: ExampleOptions) {
  const api = createClient(baseUrl);

  // Sign in with e-mail and password: an access token (15 minutes) and a refresh token.
  const signedIn = await api.login(email, password);
  log(`1. Signed in as ${email}: the access token lives ${signedIn.expires_in} s.`);

  // Refresh: both tokens are replaced. Keep the new refresh token; the old one is spent.
  const refreshed = await api.refresh();
  const rotated = refreshed.refresh_token !== signedIn.refresh_token && refreshed.access_token !== signedIn.access_token;
  log(`2. Refreshed: new access token and new refresh token (rotated: ${rotated}).`);

  // A lapsed access token is no trouble: call() gets the 401, refreshes once and retries.
  api.expireAccessToken();
  const me = await api.call<{ tenant: { name: string } }>("GET", "/api/auth/user");
  log(`   With a lapsed access token, call() refreshed and retried: agency "${me.tenant.name}".`);

  // Upload an EZLynx export as multipart/form-data: the agency's own, or the server's generated
  // sample (its terms built around today, so some renewals fall due). The Idempotency-Key makes a
  // retry (after a network error) safe.
  const csv = exportCsv ?? (await api.call<string>("GET", "/api/integrations/ezlynx/sample-csv?rows=120"));
  const form = new FormData();
  form.append("file", new Blob([csv], { type: "text/csv" }), "ezlynx-export.csv");
  form.append("name", "EZLynx (API example)");
  const upload = await api.call<Data<{ connection: Connection; file: { name: string; bytes: number } }>>(
    "POST",
    "/api/connections/ezlynx/upload-csv",
    { form, idempotencyKey: crypto.randomUUID() },
  );
  const connection = upload.data.connection;
  log(`3. Uploaded ${upload.data.file.name} (${upload.data.file.bytes} bytes): connection ${connection.id}.`);

  // Walk the setup, step by step; a later step before an earlier one is saved answers 409.
  // Mapping: take the suggested column for each field (a real client may let someone adjust it).
  const mapping = await api.call<Data<{ object: string; suggested: Record<string, string> }>>(
    "GET",
    `/api/connections/salesforce/mapping?connectionId=${connection.id}`,
  );
  await api.call("POST", "/api/mappings/save-config", {
    json: { connectionId: connection.id, mapping: { object: mapping.data.object, fields: mapping.data.suggested } },
  });
  log(`4. Setup: mapping saved (${Object.keys(mapping.data.suggested).length} fields from the suggestion).`);

  // Prediction: flag a renewal that goes up 10% or more, looking 12 months ahead.
  const setup = `/api/connections/${connection.id}`;
  const preference = {
    window: "12 months",
    thresholdPct: 10,
    actDaysBeforeExpiration: 60,
    excludeFirstTerm: false,
    excludeZeroPremium: true,
  };
  await api.call("PUT", `${setup}/prediction`, { json: { preferences: { all: preference } } });
  log("   Prediction step saved: flag renewals up 10% or more.");

  // Task creation: none in this example (an EZLynx export cannot receive tasks back anyway).
  await api.call("PUT", `${setup}/task-creation`, {
    json: { setting: { enabled: false, assigneeRule: "producer", dueDaysBeforeExpiration: 30 } },
  });
  log("   Task-creation step saved: no tasks.");

  // Filter options: see what the export holds; `included: {}` keeps every value of every dimension.
  const filters = await api.call<Data<{ dimensions: Record<string, { value: string; included: boolean }[]> }>>(
    "GET",
    `${setup}/filter-options`,
  );
  const lines = filters.data.dimensions.linesOfBusiness?.map((v) => v.value) ?? [];
  const done = await api.call<Data<{ step: string }>>("PUT", `${setup}/filter-options`, { json: { included: {} } });
  log(`   Filter-options step saved (lines of business: ${lines.join(", ")}); setup ${done.data.step.toLowerCase()}.`);

  // Run the import, and poll its status until it finishes.
  const started = await api.call<Data<{ runId: string }>>("POST", `/api/connections/start-etl/${connection.id}`, { json: {} });
  const run = await waitFor("the import", timeoutMs, async () => {
    const { data } = await api.call<Data<Status>>("GET", `/api/connections/status/${connection.id}`);
    const latest = data.latestRun;
    return latest?.id === started.data.runId && (latest.status === "succeeded" || latest.status === "failed") ? latest : null;
  });
  if (run.status !== "succeeded") throw new Error(`The import failed: ${run.error}`);
  log(`5. Import ${run.status}: ${run.policiesCount} policies.`);

  // The forecast runs in the background after an import; the worklist fills when it is done.
  // Pages come `limit` at a time; pass `nextCursor` back as `cursor` for the next one.
  const firstPage = await waitFor("the flagged renewals", timeoutMs, async () => {
    const page = await api.call<Data<{ items: FlaggedRenewal[]; nextCursor: string | null }>>(
      "GET",
      "/api/renewals/flagged?status=open&limit=10",
    );
    return page.data.items.length > 0 ? page.data : null;
  });
  let flaggedCount = firstPage.items.length;
  for (let cursor = firstPage.nextCursor; cursor;) {
    const page = await api.call<Data<{ items: FlaggedRenewal[]; nextCursor: string | null }>>(
      "GET",
      `/api/renewals/flagged?status=open&limit=100&cursor=${encodeURIComponent(cursor)}`,
    );
    flaggedCount += page.data.items.length;
    cursor = page.data.nextCursor;
  }
  log(`6. ${flaggedCount} flagged renewals; the first ones (soonest expiry first):`);
  for (const r of firstPage.items.slice(0, 3)) {
    log(`   ${r.expirationDate}  ${r.policyNumber}  ${r.customerName} (${r.carrierName}): ${r.reason}`);
  }

  // Re-market the first: it uses one unit of the year's quota. The Idempotency-Key means that a
  // retry after a dropped connection answers the same re-market instead of using a second unit.
  const before = await api.call<Data<Quota>>("GET", "/api/billing-subscription/remarket-usage");
  const chosen = firstPage.items[0];
  const remarket = await api.call<Data<{ remarketId: string; used: number; quota: number }>>("POST", "/api/policies/remarket", {
    json: { policyId: chosen.policyId },
    idempotencyKey: `remarket-${chosen.policyId}`,
  });
  const after = await api.call<Data<Quota>>("GET", "/api/billing-subscription/remarket-usage");
  log(
    `7. Re-marketed ${chosen.policyNumber}: quota used ${before.data.remarketQuota.currentYearUsage} → ${after.data.remarketQuota.currentYearUsage} of ${after.data.remarketQuota.annual_quota}.`,
  );

  return {
    rotated,
    connectionId: connection.id,
    uploadedBytes: upload.data.file.bytes,
    importStatus: run.status,
    policiesImported: run.policiesCount ?? 0,
    flaggedCount,
    remarketed: { policyId: chosen.policyId, remarketId: remarket.data.remarketId },
    quotaUsed: { before: before.data.remarketQuota.currentYearUsage, after: after.data.remarketQuota.currentYearUsage },
  };
}

// ── 3. From the command line ─────────────────────────────────────────────────────────────────────

if (import.meta.url === new URL(process.argv[1] ?? "", "file://").href) {
  const [
    baseUrl = process.env.REMARKET_URL,
    email = process.env.REMARKET_EMAIL,
    password = process.env.REMARKET_PASSWORD,
    exportFile = process.env.REMARKET_EXPORT,
  ] = process.argv.slice(2);
  if (!baseUrl || !email || !password) {
    console.error(
      "Usage: npx tsx examples/api-client.ts <base URL> <e-mail> <password> [export.csv] (or REMARKET_URL, REMARKET_EMAIL, REMARKET_PASSWORD, REMARKET_EXPORT)",
    );
    process.exit(2);
  }
  const { readFile } = await import("node:fs/promises");
  const exportCsv = exportFile ? await readFile(exportFile, "utf8") : undefined;
  runExample({ baseUrl, email, password, exportCsv }).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
