/** What a route's action returned via `data(value, { status })` (Remix single fetch's DataWithResponseInit). */
export function unwrapData<T = Record<string, unknown>>(result: unknown): { status: number; data: T } {
  if (result && typeof result === "object" && "type" in result && result.type === "DataWithResponseInit") {
    const { data, init } = result as unknown as { data: T; init: ResponseInit | null };
    return { status: init?.status ?? 200, data };
  }
  if (result instanceof Response) throw new Error(`expected data, got a ${result.status} Response`);
  return { status: 200, data: result as T };
}

/** Run a loader or action that is expected to throw (or return) a Response; returns it. */
export async function responseOf(run: () => Promise<unknown>): Promise<Response> {
  try {
    const result = await run();
    if (result instanceof Response) return result;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error("expected a Response");
}
