import { getEnv } from "~/env.server";

// Anything a browser might read differently from URL parsing is refused outright: control
// characters and whitespace (browsers drop a tab, so "/\t/evil.example" becomes "//evil.example"),
// and backslashes (browsers read "\" as "/" in http URLs).
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\\]|\s/;
// Encoded slashes, backslashes and control characters have no business in one of our paths.
const UNSAFE_PATH_ESCAPES = /%(2f|5c|[01][0-9a-f]|7f)/i;
const MAX_LENGTH = 2048;

/**
 * Where to send someone after a form (e.g. ?redirectTo= after login): a path on this site, or
 * `fallback`. Resolved with `new URL(to, APP_URL)` and kept only when the origin is APP_URL's;
 * the answer is always a path ("/…", never "//…"), so a Location header cannot leave the site.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/") {
  if (!to || typeof to !== "string" || to.length > MAX_LENGTH || UNSAFE_CHARACTERS.test(to)) return fallback;
  const origin = new URL(getEnv().appUrl).origin;
  let url: URL;
  try {
    url = new URL(to, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== origin || url.username || url.password) return fallback;
  if (!url.pathname.startsWith("/") || url.pathname.startsWith("//") || UNSAFE_PATH_ESCAPES.test(url.pathname)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
