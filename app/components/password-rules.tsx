import { passwordRules, type PasswordPolicy } from "~/utils/password-policy";
import { cn } from "~/utils/cn";

/** The policy's rules, each marked met or unmet in words (not colour alone). */
export function PasswordRules({ policy, password }: { policy: PasswordPolicy; password: string }) {
  return (
    <ul className="mt-1 space-y-0.5 text-xs" aria-label="Password rules" data-testid="password-rules">
      {passwordRules(policy, password).map((rule) => (
        <li key={rule.id} className={cn(rule.met ? "text-green-700 dark:text-green-400" : "text-slate-500")}>
          <span aria-hidden="true">{rule.met ? "✓" : "•"}</span> {rule.label}
          <span className="sr-only">{rule.met ? " (met)" : " (not met yet)"}</span>
        </li>
      ))}
    </ul>
  );
}
