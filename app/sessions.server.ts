import { createCookie, createCookieSessionStorage } from "@remix-run/node";
import { getEnv } from "~/env.server";

/**
 * The session cookie holds only a random token; the session row (hashed token) holds the rest,
 * so "sign out everywhere" and idle expiry are decided on the server.
 */
function build() {
  const env = getEnv();
  const secure = env.secureCookies;
  const sessionCookie = createCookie("__session", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    secrets: [env.sessionSecret],
    maxAge: env.SESSION_MAX_AGE_HOURS * 3600,
  });
  // Toasts survive a no-JavaScript redirect by riding in a flash cookie.
  const toastStorage = createCookieSessionStorage({
    cookie: {
      name: "__toast",
      httpOnly: true,
      sameSite: "lax",
      secure,
      path: "/",
      secrets: [env.sessionSecret],
    },
  });
  // The theme is a preference, not a secret; logout keeps it (seed §4).
  const themeCookie = createCookie("theme", {
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: 60 * 60 * 24 * 365,
  });
  // Where to land after a single sign-on round trip.
  const ssoReturnCookie = createCookie("__sso_return", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: 600,
    secrets: [env.sessionSecret],
  });
  return { sessionCookie, toastStorage, themeCookie, ssoReturnCookie };
}

let cookies: ReturnType<typeof build> | undefined;

export function getCookies() {
  cookies ??= build();
  return cookies;
}
