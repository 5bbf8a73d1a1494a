import type { AppLoadContext } from "@remix-run/node";
import { getEnv } from "~/env.server";
import { isLoopbackAddress } from "./loopback.server";

/** Where the sign-up and reset pages tell people to find their code. */
export type CodeDelivery = "email" | "outbox" | "administrator";

// Headers a proxy adds. A browser on this machine never sends them, so their presence means the
// request came through a proxy, possibly one on this machine whose socket looks local.
const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-real-ip"];

/**
 * May this request read /dev/outbox? Only when the outbox is on (no SMTP server, APP_URL on
 * loopback) and the TCP peer itself is this machine: `socketAddress` comes from the socket in
 * server/index.js, never from X-Forwarded-For, so no header and no TRUST_PROXY can open it; and a
 * request that went through a proxy is refused even when that proxy runs on this machine.
 */
export function outboxOpenTo(request: Request, context: AppLoadContext) {
  if (FORWARDING_HEADERS.some((name) => request.headers.has(name))) return false;
  return getEnv().devOutbox && isLoopbackAddress(context.socketAddress);
}

/** Mail server: by e-mail; this machine's own browser: the outbox; anyone else: ask the administrator (server log). */
export function codeDeliveryFor(request: Request, context: AppLoadContext): CodeDelivery {
  if (getEnv().SMTP_URL) return "email";
  return outboxOpenTo(request, context) ? "outbox" : "administrator";
}
