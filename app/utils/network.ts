/**
 * How the browser side lives with a flaky office network (issue 20). One fetch wrapper, installed
 * by entry.client.tsx, sits under every Remix data request:
 * - a data read (GET) that gets no answer is tried again by itself: seed §9 data-fetching
 *   defaults, 3 retries with back-off 1 s, 2 s, 4 s … capped at 30 s; then it fails with a
 *   ConnectionError, which the error boundaries show as the connection notice inside the shell;
 * - a submission (POST …) that gets no answer is held, not failed: the page, the form and its
 *   values stay, a notice offers "Try again", and that sends the very same body again, one-time
 *   token included, so a change whose answer was lost is applied once;
 * - a 5xx answer is tried once more after 1000 ms (seed §9), then handed to Remix as it came.
 * The wrapper's record of failures also drives the offline indicator in the header.
 */

export const CONNECTION_MESSAGE = "Couldn't reach Remarket. Your change may not have been saved; try again — it will not be applied twice.";

/** A form carrying this field (value "1") is not held on a network failure: it fails at once. */
export const FAIL_FAST_FIELD = "_failFast";

/** Seed §9: a 5xx answer is tried once more after this long. */
export const SERVER_RETRY_MS = 1000;
/** Seed §9 data-fetching defaults. */
export const DATA_RETRIES = 3;
const BACKOFF_CAP_MS = 30_000;
/** How many failures in a row count as "requests keep failing". */
const FAILING_AFTER = 2;
const PROBE_EVERY_MS = 3000;

/** Back-off before the data read's retry number `attempt` (0-based): 1 s, 2 s, 4 s … capped. */
export function backoffMs(attempt: number) {
  return Math.min(1000 * 2 ** attempt, BACKOFF_CAP_MS);
}

/** A request that never got an answer (the request or its answer was lost on the way). */
export class ConnectionError extends TypeError {
  readonly connectionError = true;
  constructor() {
    super("Couldn't reach Remarket");
    this.name = "TypeError";
  }
}

/** True for a fetch that got no answer, as opposed to an answer that reports an error. */
export function isConnectionError(error: unknown) {
  if (error instanceof ConnectionError) return true;
  if (typeof error === "object" && error !== null && "connectionError" in error) return true;
  // The browsers' own wording for a fetch that got no response.
  return error instanceof TypeError && /failed to fetch|networkerror|load failed|network request failed/i.test(error.message);
}

// ---------------------------------------------------------------------------------------------
// The shared state: failures in a row, the browser's offline flag, submissions waiting on a retry

export type HeldSubmission = { id: number; owner: HTMLFormElement | null; tryAgain: () => void };
export type NetworkState = { failuresInARow: number; browserOffline: boolean; held: HeldSubmission[] };

const serverState: NetworkState = { failuresInARow: 0, browserOffline: false, held: [] };
let state: NetworkState = serverState;
const listeners = new Set<() => void>();

function update(change: Partial<NetworkState>) {
  state = { ...state, ...change };
  for (const listener of listeners) listener();
  if (isFailing(state)) startProbing();
}

export function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export const getSnapshot = () => state;
export const getServerSnapshot = () => serverState;

/** The header's indicator: offline, or requests keep failing. */
export function isFailing(s: NetworkState) {
  return s.browserOffline || s.failuresInARow >= FAILING_AFTER;
}

/** A request got an answer (any status): the connection works. */
export function recordAnswer() {
  if (state.failuresInARow !== 0) update({ failuresInARow: 0 });
}
/** A request got no answer. */
export function recordFailure() {
  update({ failuresInARow: state.failuresInARow + 1 });
}

// While requests keep failing, a small read of /healthz clears the indicator by itself once the
// network is back, without the person doing anything.
let probing = false;
function startProbing() {
  if (probing || typeof window === "undefined") return;
  probing = true;
  const probe = async () => {
    if (!isFailing(state)) return void (probing = false);
    try {
      const res = await nativeFetch("/healthz", { cache: "no-store" });
      if (res.ok) recordAnswer();
    } catch {
      // still unreachable: the next probe will tell
    }
    if (isFailing(state)) setTimeout(probe, PROBE_EVERY_MS);
    else probing = false;
  };
  setTimeout(probe, PROBE_EVERY_MS);
}

// ---------------------------------------------------------------------------------------------
// The fetch wrapper

let nativeFetch: typeof fetch = (...args) => fetch(...args);
let lastSubmit: { form: HTMLFormElement; at: number } | null = null;
let nextId = 1;

/** Install the wrapper under `window.fetch` (once, before Remix hydrates). */
export function installNetworkHandling() {
  if (typeof window === "undefined" || "__remarketNetwork" in window) return;
  Object.defineProperty(window, "__remarketNetwork", { value: true });
  window.fetch = wrapFetch(window.fetch.bind(window), window.location.origin);
  update({ browserOffline: !navigator.onLine });
  window.addEventListener("offline", () => update({ browserOffline: true }));
  window.addEventListener("online", () => update({ browserOffline: false }));
  // A request the page abandoned (a newer navigation or submission aborted it) rejects with an
  // AbortError; when the router has already moved on, nothing is left to handle that rejection.
  // It is not a failure anyone should see, so it is not reported as one.
  window.addEventListener("unhandledrejection", (event) => {
    if (isAbandoned(event.reason)) event.preventDefault();
  });
  // Which form a held submission came from, so that form can show the notice beside itself.
  document.addEventListener("submit", (event) => {
    if (event.target instanceof HTMLFormElement) lastSubmit = { form: event.target, at: Date.now() };
  });
}

/** `fetch` with the rules above for requests to `origin`; others go through untouched. */
export function wrapFetch(native: typeof fetch, origin: string): typeof fetch {
  nativeFetch = native;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), origin);
    // Other origins, and Request objects (their body can be read once), go through untouched.
    if (url.origin !== origin || input instanceof Request) return native(input, init);
    const method = (init?.method ?? "GET").toUpperCase();
    return method === "GET" || method === "HEAD" ? read(input, init) : submit(input, init);
  };
}

async function read(input: RequestInfo | URL, init: RequestInit | undefined) {
  const signal = init?.signal ?? undefined;
  let serverRetried = false;
  for (let attempt = 0; ;) {
    let response: Response;
    try {
      response = await nativeFetch(input, init);
    } catch (error) {
      if (signal?.aborted || !isConnectionError(error)) throw error;
      recordFailure();
      if (attempt >= DATA_RETRIES) throw new ConnectionError();
      await sleep(backoffMs(attempt++), signal);
      continue;
    }
    recordAnswer();
    if (response.status >= 500 && !serverRetried) {
      serverRetried = true;
      await sleep(SERVER_RETRY_MS, signal);
      continue;
    }
    return response;
  }
}

async function submit(input: RequestInfo | URL, init: RequestInit | undefined) {
  const signal = init?.signal ?? undefined;
  const failFast = readField(init?.body, FAIL_FAST_FIELD) === "1";
  // The form this submission came from: the one submitted just before it.
  const owner = lastSubmit && Date.now() - lastSubmit.at < 2000 && lastSubmit.form.isConnected ? lastSubmit.form : null;
  lastSubmit = null;
  let serverRetried = false;
  for (;;) {
    let response: Response;
    try {
      // Same input, same init: the same body and one-time token go again.
      response = await nativeFetch(input, init);
    } catch (error) {
      if (signal?.aborted || !isConnectionError(error)) throw error;
      recordFailure();
      if (failFast) throw new ConnectionError();
      await waitForTryAgain(owner, signal);
      continue;
    }
    recordAnswer();
    if (response.status >= 500 && !serverRetried) {
      serverRetried = true;
      await sleep(SERVER_RETRY_MS, signal);
      continue;
    }
    return response;
  }
}

/** Hold a submission until the person asks to try again, or the page abandons it. */
function waitForTryAgain(owner: HTMLFormElement | null, signal: AbortSignal | undefined) {
  return new Promise<void>((resolve, reject) => {
    const id = nextId++;
    const release = () => update({ held: state.held.filter((h) => h.id !== id) });
    const onAbort = () => {
      release();
      reject(signal?.reason ?? new DOMException("Aborted", "AbortError"));
    };
    const tryAgain = () => {
      signal?.removeEventListener("abort", onAbort);
      release();
      resolve();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    update({ held: [...state.held, { id, owner, tryAgain }] });
  });
}

function sleep(ms: number, signal: AbortSignal | undefined) {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new DOMException("Aborted", "AbortError"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The rejection of a request the page aborted itself. */
export function isAbandoned(reason: unknown) {
  return reason instanceof DOMException && reason.name === "AbortError";
}

function readField(body: BodyInit | null | undefined, name: string) {
  if (body instanceof FormData || body instanceof URLSearchParams) return body.get(name);
  return null;
}
