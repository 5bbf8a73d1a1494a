import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    requestId?: string;
    cspNonce?: string;
  }
}
