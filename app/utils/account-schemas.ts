import { z } from "zod";
import { newPasswordSchema, type PasswordPolicy } from "./password-policy";
import { singleLineText } from "./schemas";

// Account fields checked the same way by the pages (auth/signup, settings) and the API.

/** A person's name. */
export const personName = () => singleLineText({ error: "Your name is required." }).min(1, "Your name is required.").max(120);

/** Sign-up's fields (the page adds its password confirmation). */
export function signUpFields(policy: PasswordPolicy) {
  return z.object({
    agencyName: singleLineText({ error: "Agency name is required." }).min(2, "Agency name is too short.").max(120),
    name: personName(),
    email: z.string({ error: "E-mail is required." }).trim().email("Enter a valid e-mail address."),
    password: newPasswordSchema(policy, "Password is required."),
  });
}
