// Every outbound API call follows seed §8 (and §9's constants):
// - 401: refresh the token once, wait 500 ms, retry with the new token. Requests that arrive while
//   a refresh is under way wait for it and go out with the new token; requests that got a 401 for
//   the old token reuse the one refresh instead of starting another.
// - A second 401, or a refresh that fails: the credentials are invalid. `onInvalidCredentials`
//   runs once (the connection goes to Error and a notification is raised) and the call fails.
// - 500 (any 5xx): one retry after 1000 ms, then fail.
// - Every call has a time-out.
// Time is injected (`sleep`) so tests run the rules without waiting.

export const RETRY_AFTER_401_MS = 500;
export const RETRY_AFTER_500_MS = 1_000;
export const DEFAULT_TIMEOUT_MS = 30_000;

export class InvalidCredentialsError extends Error {
  constructor(message = "invalid credentials") {
    super(message);
    this.name = "InvalidCredentialsError";
  }
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export class ApiTimeoutError extends Error {
  constructor(url: string, ms: number) {
    super(`No answer from ${new URL(url).host} within ${ms} ms`);
    this.name = "ApiTimeoutError";
  }
}

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export type ApiClientOptions = {
  /** Obtain a fresh access token (and the base URL it belongs to); throw when refused. */
  refreshToken: () => Promise<{ accessToken: string; baseUrl: string }>;
  onInvalidCredentials: (reason: string) => Promise<void>;
  fetch?: typeof fetch;
  sleep?: Sleep;
  timeoutMs?: number;
};

export type ApiClient = {
  /** JSON request to a path on the API's base URL (or an absolute URL on it). */
  request<T = unknown>(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<T>;
  /** How many token refreshes ran (tests and logs). */
  readonly refreshCount: number;
};

export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? realSleep;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let session: { accessToken: string; baseUrl: string } | null = null;
  let refreshing: Promise<{ accessToken: string; baseUrl: string }> | null = null;
  let invalid: InvalidCredentialsError | null = null;
  let refreshCount = 0;

  async function markInvalid(reason: string): Promise<never> {
    if (!invalid) {
      invalid = new InvalidCredentialsError();
      await options.onInvalidCredentials(reason);
    }
    throw invalid;
  }

  /** One refresh at a time; everyone who needs a token waits for the same one. */
  function refresh() {
    refreshing ??= (async () => {
      refreshCount++;
      try {
        session = await withTimeout("token", () => options.refreshToken());
        return session;
      } catch (error) {
        return markInvalid(`token refresh failed: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  async function current() {
    if (invalid) throw invalid;
    if (refreshing) return refreshing;
    return session ?? refresh();
  }

  async function withTimeout<T>(label: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      return await run(controller.signal);
    } catch (error) {
      if (controller.signal.aborted) throw new ApiTimeoutError(label.startsWith("http") ? label : "http://token", timeoutMs);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async function send(path: string, token: { accessToken: string; baseUrl: string }, init: Parameters<ApiClient["request"]>[1] = {}) {
    const url = path.startsWith("http") ? path : `${token.baseUrl}${path}`;
    if (new URL(url).origin !== new URL(token.baseUrl).origin) throw new ApiError("Refusing to follow a link to another host", 0);
    return withTimeout(url, (signal) =>
      doFetch(url, {
        method: init.method ?? "GET",
        headers: {
          Authorization: `Bearer ${token.accessToken}`,
          Accept: "application/json",
          ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
          ...init.headers,
        },
        body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
        signal,
      }),
    );
  }

  async function request<T>(path: string, init?: Parameters<ApiClient["request"]>[1]): Promise<T> {
    let token = await current();
    let response = await send(path, token, init);

    if (response.status === 401) {
      await response.body?.cancel();
      // Someone may have refreshed already while this request was out: reuse their token.
      token = session && session.accessToken !== token.accessToken ? session : await (refreshing ?? refresh());
      await sleep(RETRY_AFTER_401_MS);
      response = await send(path, token, init);
      if (response.status === 401) {
        await response.body?.cancel();
        return markInvalid("second 401 after a token refresh");
      }
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      await sleep(RETRY_AFTER_500_MS);
      response = await send(path, token, init);
    }
    const text = await response.text();
    const body = text ? safeJson(text) : null;
    if (!response.ok) throw new ApiError(`${init?.method ?? "GET"} ${path} failed with ${response.status}`, response.status, body);
    return body as T;
  }

  return {
    request,
    get refreshCount() {
      return refreshCount;
    },
  };
}

function safeJson(text: string) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
