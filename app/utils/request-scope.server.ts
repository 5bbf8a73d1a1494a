// Per-request memo, keyed by the Request itself: every loader of a request receives the same
// Request object (patches/@remix-run+server-runtime: Remix used to hand each loader its own copy),
// so the root, layout and page loaders share one lookup of the signed-in user. An action and the
// loaders that run after it get different Requests, so they never share a result read before the
// action changed something.
const memos = new WeakMap<Request, Map<string, unknown>>();

/** `compute()` once per request and key. */
export function requestMemo<T>(request: Request, key: string, compute: () => T): T {
  let memo = memos.get(request);
  if (!memo) {
    memo = new Map();
    memos.set(request, memo);
  }
  if (!memo.has(key)) memo.set(key, compute());
  return memo.get(key) as T;
}
