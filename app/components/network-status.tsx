import { useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { Button } from "~/components/shell";
import { CONNECTION_MESSAGE, getServerSnapshot, getSnapshot, isFailing, subscribe, type HeldSubmission } from "~/utils/network";
import { useHydrated } from "~/utils/use-hydrated";

/** The network state kept by the fetch wrapper (utils/network.ts). */
function useNetworkState() {
  return useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
}

/** The connection notice: what happened, and the one thing to do about it. */
export function ConnectionNotice({ onTryAgain, pending = false }: { onTryAgain: () => void; pending?: boolean }) {
  return (
    <div
      role="alert"
      data-testid="connection-notice"
      className="col-span-full flex w-full basis-full flex-wrap items-center justify-between gap-3 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-300 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-700"
    >
      <p>{CONNECTION_MESSAGE}</p>
      <Button type="button" variant="secondary" onClick={onTryAgain} pending={pending}>
        Try again
      </Button>
    </div>
  );
}

/** Inside an error boundary: "Try again" reads the page's data again. */
export function ConnectionErrorNotice() {
  const revalidator = useRevalidator();
  return <ConnectionNotice onTryAgain={() => revalidator.revalidate()} pending={revalidator.state !== "idle"} />;
}

/**
 * Placed inside a form (PostForm does it): when this form's submission got no answer, the notice
 * shows here, the form and its values untouched, and "Try again" sends the same submission again.
 */
export function InlineRetryNotice() {
  const [form, setForm] = useState<HTMLFormElement | null>(null);
  // A stable callback ref: the form is looked up once, when the notice's place is mounted.
  const place = useCallback((element: HTMLDivElement | null) => setForm(element?.closest("form") ?? null), []);
  const { held } = useNetworkState();
  const mine = form ? held.filter((h) => h.owner === form) : [];
  const shown = mine.length > 0;
  useEffect(() => {
    if (shown) form?.scrollIntoView({ block: "nearest" });
  }, [shown, form]);
  return (
    <div ref={place} data-inline-retry="" className="contents">
      {mine.length > 0 ? <ConnectionNotice onTryAgain={() => tryAgainAll(mine)} /> : null}
    </div>
  );
}

/**
 * For a held submission no form shows a notice for (a fetcher, a form without PostForm, a
 * programmatic submit): the same notice, fixed at the bottom of the window.
 */
export function HeldSubmissionNotice() {
  const { held } = useNetworkState();
  const unowned = held.filter((h) => !h.owner?.isConnected || !h.owner.querySelector("[data-inline-retry]"));
  if (unowned.length === 0) return null;
  return (
    <div className="fixed inset-x-0 bottom-4 z-50 mx-auto max-w-2xl px-4" data-testid="held-submission">
      <div className="rounded-md bg-white shadow-lg dark:bg-slate-900">
        <ConnectionNotice onTryAgain={() => tryAgainAll(unowned)} />
      </div>
    </div>
  );
}

function tryAgainAll(held: HeldSubmission[]) {
  for (const h of held) h.tryAgain();
}

/**
 * The header's indicator: shown while the browser says it is offline or requests keep failing;
 * it goes by itself once a request (or the wrapper's own probe) gets an answer.
 */
export function OfflineIndicator() {
  const network = useNetworkState();
  // The server never knows: render nothing until hydrated, so hydration matches.
  const hydrated = useHydrated();
  if (!hydrated || !isFailing(network)) return null;
  return (
    <span
      role="status"
      data-testid="offline-indicator"
      className="inline-flex items-center gap-1.5 rounded-full bg-amber-100 px-2.5 py-1 text-xs font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-100"
    >
      <span aria-hidden="true" className="h-2 w-2 rounded-full bg-amber-500" />
      {network.browserOffline ? "Offline" : "Connection problems"}
    </span>
  );
}
