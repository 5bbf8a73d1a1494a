import { getEnv } from "~/env.server";

/** Seed §6: the staff allow-list, compared trimmed and case-insensitively. */
export function isStaffEmail(email: string | null | undefined, allowList = getEnv().staffEmails) {
  if (!email) return false;
  const normalized = email.trim().toLowerCase();
  return allowList.some((entry) => entry.trim().toLowerCase() === normalized);
}
