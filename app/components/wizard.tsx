import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Button } from "~/components/shell";
import { cn } from "~/utils/cn";
import { editStepRoute, stepIndex, WIZARD_STEPS, type Step } from "~/utils/setup-steps";

/**
 * The six-step progress indicator. Saved steps are links (they can be revisited); the current
 * step is marked; later steps are plain text because they cannot be entered yet.
 */
export function WizardProgress({
  current,
  reached,
  connectionId,
  integrationId,
}: {
  current: Step;
  reached: Step;
  connectionId: string | null;
  integrationId: string;
}) {
  return (
    <nav aria-label="Setup progress" className="mb-6">
      <ol className="flex flex-wrap gap-2 text-sm">
        {WIZARD_STEPS.map(({ step, label }, i) => {
          const isCurrent = step === current;
          const open = connectionId !== null && stepIndex(step) <= stepIndex(reached) && !isCurrent;
          const done = stepIndex(step) < stepIndex(reached);
          const body = (
            <>
              <span
                className={cn(
                  "inline-flex h-6 w-6 items-center justify-center rounded-full text-xs font-semibold",
                  isCurrent
                    ? "bg-brand-600 text-white"
                    : done
                      ? "bg-green-600 text-white"
                      : "bg-slate-200 text-slate-600 dark:bg-slate-700 dark:text-slate-200",
                )}
                aria-hidden="true"
              >
                {done && !isCurrent ? "✓" : i + 1}
              </span>
              <span className={cn(isCurrent && "font-semibold")}>{label}</span>
              {done && !isCurrent ? <span className="sr-only"> (saved)</span> : null}
            </>
          );
          return (
            <li key={step} className="flex items-center gap-2" aria-current={isCurrent ? "step" : undefined} data-step={step}>
              {open ? (
                <Link to={editStepRoute(step, connectionId!, integrationId)} className="flex items-center gap-2 hover:underline">
                  {body}
                </Link>
              ) : (
                <span className="flex items-center gap-2">{body}</span>
              )}
              {i < WIZARD_STEPS.length - 1 ? (
                <span aria-hidden="true" className="text-slate-300">
                  —
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** Page frame of a wizard step: title, progress, body. */
export function WizardPage({
  title,
  connectionName,
  progress,
  children,
}: {
  title: string;
  connectionName?: string;
  progress: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="max-w-5xl space-y-4">
      <div>
        <p className="text-sm text-slate-500">
          <Link to="/integration-setup" className="hover:underline">
            Integration Setup
          </Link>
          {connectionName ? ` / ${connectionName}` : null}
        </p>
        <h1 className="text-2xl font-bold">{title}</h1>
      </div>
      {progress}
      {children}
    </div>
  );
}

/**
 * Back (a link to the previous step) and Save & continue. `next` is where a successful save
 * redirects: Remix learns a route only when a rendered link points to it or when the browser goes
 * there, and learning it during the save's redirect is a round trip to the server (/__manifest)
 * in which a fetcher finishing meanwhile (the mapping's draft autosave) took the navigation over
 * with a 404 match of the URL. An inert link to the next step makes Remix learn it with the page.
 */
export function WizardActions({
  backTo,
  next,
  pending,
  saveLabel = "Save & continue",
}: {
  backTo: string | null;
  next?: string;
  pending?: boolean;
  saveLabel?: string;
}) {
  return (
    <div className="flex items-center justify-between border-t border-slate-200 pt-4 dark:border-slate-700">
      {next ? <Link to={next} hidden tabIndex={-1} aria-hidden="true" /> : null}
      {backTo ? (
        <Link to={backTo} className="text-sm font-semibold text-slate-700 hover:underline dark:text-slate-200">
          ← Back
        </Link>
      ) : (
        <span />
      )}
      <Button type="submit" name="intent" value="save" pending={pending}>
        {saveLabel}
      </Button>
    </div>
  );
}
