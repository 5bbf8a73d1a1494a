/** Only same-site paths: an open redirect through ?redirectTo= would help phishing. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/") {
  if (!to || typeof to !== "string") return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}
