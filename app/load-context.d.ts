import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    requestId?: string;
    cspNonce?: string;
    /** The TCP peer's address from the socket (server/index.js), never a forwarded header. */
    socketAddress?: string;
    /** Work the loaders of this request share (request-scope.server.ts); new for every request. */
    memo?: Map<string, unknown>;
  }
}
