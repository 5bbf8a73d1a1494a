import type { AppLoadContext } from "@remix-run/node";

/**
 * `compute()` once per key for the loaders of one request (the root, layout and page loaders share
 * one lookup of the signed-in user). The memo lives in the request's load context: getLoadContext
 * in server/index.js makes a fresh one for every request, and Remix hands that object to every
 * loader and action of the request. Without a memo in the context (a test calling one loader) it
 * computes every time.
 *
 * Only loaders share. A form posted without JavaScript runs the action and then, in the same
 * request, the loaders (with a GET request of their own): an action computes afresh and keeps
 * nothing, so no loader reuses a lookup made before the action changed something.
 */
export function requestMemo<T>(request: Request, context: AppLoadContext, key: string, compute: () => T): T {
  const memo = context.memo;
  if (!memo || (request.method !== "GET" && request.method !== "HEAD")) return compute();
  if (!memo.has(key)) memo.set(key, compute());
  return memo.get(key) as T;
}
