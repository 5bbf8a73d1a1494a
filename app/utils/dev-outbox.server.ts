import type { AppLoadContext } from "@remix-run/node";
import { getEnv } from "~/env.server";
import { isLoopbackAddress } from "./loopback.server";

/** Where the sign-up and reset pages tell people to find their code. */
export type CodeDelivery = "email" | "outbox" | "administrator";

/**
 * May this request read /dev/outbox? Only when the outbox is on (no SMTP server, APP_URL on
 * loopback) and the TCP peer itself is this machine: `socketAddress` comes from the socket in
 * server/index.js, never from X-Forwarded-For, so no header and no TRUST_PROXY can open it.
 */
export function outboxOpenTo(context: AppLoadContext) {
  return getEnv().devOutbox && isLoopbackAddress(context.socketAddress);
}

/** Mail server: by e-mail; this machine's own browser: the outbox; anyone else: ask the administrator (server log). */
export function codeDeliveryFor(context: AppLoadContext): CodeDelivery {
  if (getEnv().SMTP_URL) return "email";
  return outboxOpenTo(context) ? "outbox" : "administrator";
}
