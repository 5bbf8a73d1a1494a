/** One cookie's value from a Cookie header, or null. */
export function readCookie(request: Request, name: string) {
  const header = request.headers.get("Cookie") ?? "";
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) {
      try {
        return decodeURIComponent(rest.join("="));
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The browser's IANA time zone from the `tz` client-hint cookie; UTC when unknown or invalid. */
export function getTimeZone(request: Request) {
  const raw = readCookie(request, "tz");
  if (!raw) return "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: raw });
    return raw;
  } catch {
    return "UTC";
  }
}
