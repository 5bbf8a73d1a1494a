import { z } from "zod";

/** Seed §5: minimum length (default 6), optional maximum and character-class requirements. */
export type PasswordPolicy = {
  minLength: number;
  maxLength?: number;
  requireLowercase: boolean;
  requireUppercase: boolean;
  requireDigit: boolean;
  requireSymbol: boolean;
};

export type PasswordRule = { id: string; label: string; met: boolean };

/** Every rule of the policy with whether `password` meets it, in display order. */
export function passwordRules(policy: PasswordPolicy, password: string): PasswordRule[] {
  const rules: PasswordRule[] = [
    {
      id: "min",
      label: `At least ${policy.minLength} characters`,
      met: password.length >= policy.minLength,
    },
  ];
  if (policy.maxLength) {
    rules.push({
      id: "max",
      label: `At most ${policy.maxLength} characters`,
      met: password.length <= policy.maxLength,
    });
  }
  if (policy.requireLowercase) rules.push({ id: "lower", label: "A lower-case letter", met: /[a-z]/.test(password) });
  if (policy.requireUppercase) rules.push({ id: "upper", label: "An upper-case letter", met: /[A-Z]/.test(password) });
  if (policy.requireDigit) rules.push({ id: "digit", label: "A number", met: /[0-9]/.test(password) });
  if (policy.requireSymbol) rules.push({ id: "symbol", label: "A symbol (not a letter or number)", met: /[^A-Za-z0-9]/.test(password) });
  return rules;
}

/** The first unmet rule as a sentence, or null when the password is acceptable. */
export function passwordProblem(policy: PasswordPolicy, password: string): string | null {
  const unmet = passwordRules(policy, password).filter((r) => !r.met);
  if (unmet.length === 0) return null;
  return `Password needs: ${unmet.map((r) => r.label.toLowerCase()).join(", ")}.`;
}

/** The zod rule for a new password under `policy`: the first unmet rule is the message. */
export function newPasswordSchema(policy: PasswordPolicy, requiredMessage = "Password is required.") {
  return z.string({ error: requiredMessage }).superRefine((value, ctx) => {
    const problem = passwordProblem(policy, value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
}
