import { AsyncLocalStorage } from "node:async_hooks";

// Remix hands each loader of a request its own copy of the Request, so a WeakMap keyed by the
// Request cannot share work between the root, layout and page loaders. server/index.js runs each
// HTTP request inside this scope instead.
const scope = new AsyncLocalStorage<Map<string, unknown>>();

/** Run one HTTP request (its action and loaders) with a memo of its own. */
export function runInRequestScope<T>(handle: () => T): T {
  return scope.run(new Map(), handle);
}

/** `compute()` once per request and key; outside a request scope (unit tests) it just computes. */
export function requestMemo<T>(key: string, compute: () => T): T {
  const memo = scope.getStore();
  if (!memo) return compute();
  if (!memo.has(key)) memo.set(key, compute());
  return memo.get(key) as T;
}
