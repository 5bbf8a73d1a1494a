import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    requestId?: string;
    cspNonce?: string;
    /** Work the loaders of this request share (request-scope.server.ts); new for every request. */
    memo?: Map<string, unknown>;
  }
}
