import { hash, verify } from "@node-rs/argon2";
import { getEnv } from "~/env.server";
import type { PasswordPolicy } from "~/utils/password-policy";

/** argon2id with the library's defaults (19 MiB, 2 passes): OWASP's minimum recommendation. */
export function hashPassword(password: string) {
  return hash(password);
}

export async function verifyPassword(passwordHash: string | null, password: string) {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verifying against a real hash when the user is unknown keeps response times alike,
// so timing does not reveal which e-mail addresses have accounts.
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string) {
  dummyHash ??= hash("remarket-timing-equaliser");
  await verifyPassword(await dummyHash, password);
}

/** The password policy from the environment (seed §5). */
export function getPasswordPolicy(): PasswordPolicy {
  const env = getEnv();
  return {
    minLength: env.PASSWORD_MIN_LENGTH,
    maxLength: env.PASSWORD_MAX_LENGTH,
    requireLowercase: env.PASSWORD_REQUIRE_LOWERCASE,
    requireUppercase: env.PASSWORD_REQUIRE_UPPERCASE,
    requireDigit: env.PASSWORD_REQUIRE_DIGIT,
    requireSymbol: env.PASSWORD_REQUIRE_SYMBOL,
  };
}
