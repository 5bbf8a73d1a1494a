import { resetEnvForTests } from "~/env.server";
import { resetStripeForTests } from "~/services/billing/stripe.server";

/**
 * Set environment variables for one test file and restore them afterwards. Test files share
 * a worker (and its modules), so a leaked variable would change the next file's behaviour.
 */
export function withEnv(vars: Record<string, string | undefined>) {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    resetEnvForTests();
    resetStripeForTests();
  };
  apply(vars);
  return () => apply(saved);
}
