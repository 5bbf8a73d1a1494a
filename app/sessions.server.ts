import { createCookie, createCookieSessionStorage, type Cookie } from "@remix-run/node";
import { getEnv } from "~/env.server";

/** Headers whose parsed session cookie is remembered; the oldest goes first beyond this. */
const REMEMBERED_COOKIE_HEADERS = 1_000;
const REMEMBERED_HEADER_MAX_LENGTH = 2_048;

/**
 * `cookie`, with what `parse` made of each recent Cookie header remembered. Checking the signature
 * is an HMAC and a decode on every signed-in request, and its answer depends only on the header and
 * the secret, which is fixed for the life of the process; a browser sends the same header page
 * after page. Only string (or absent) values are remembered, so no caller can change another's.
 */
export function rememberingParses(cookie: Cookie, max = REMEMBERED_COOKIE_HEADERS): Cookie {
  const parsed = new Map<string, string | null>();
  const remembering: Cookie = Object.create(cookie);
  remembering.parse = async (header, options) => {
    if (!header || options || header.length > REMEMBERED_HEADER_MAX_LENGTH) return cookie.parse(header, options);
    const known = parsed.get(header);
    if (known !== undefined) return known;
    const value: unknown = await cookie.parse(header);
    if (value === null || typeof value === "string") {
      if (parsed.size >= max) parsed.delete(parsed.keys().next().value as string);
      parsed.set(header, value);
    }
    return value;
  };
  return remembering;
}

/**
 * The session cookie holds only a random token; the session row (hashed token) holds the rest,
 * so "sign out everywhere" and idle expiry are decided on the server.
 */
function build() {
  const env = getEnv();
  const secure = env.secureCookies;
  const sessionCookie = rememberingParses(
    createCookie("__session", {
      httpOnly: true,
      sameSite: "lax",
      secure,
      path: "/",
      secrets: [env.sessionSecret],
      maxAge: env.SESSION_MAX_AGE_HOURS * 3600,
    }),
  );
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
  // A new API key's secret, carried once from the create action to the page that shows it (so it
  // survives a no-JavaScript redirect); only that page reads it, and it clears it on reading. The
  // path is /settings, not the page's own: with JavaScript the loader is fetched as
  // /settings/api-keys.data, which a cookie scoped to /settings/api-keys would not be sent to.
  const apiKeyRevealCookie = createCookie("__api_key_reveal", {
    httpOnly: true,
    sameSite: "strict",
    secure,
    path: "/settings",
    maxAge: 60,
    secrets: [env.sessionSecret],
  });
  return { sessionCookie, toastStorage, themeCookie, ssoReturnCookie, apiKeyRevealCookie };
}

let cookies: ReturnType<typeof build> | undefined;

export function getCookies() {
  cookies ??= build();
  return cookies;
}
