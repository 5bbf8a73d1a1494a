import { Link, useFetcher, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { FormToken, Button } from "~/components/shell";
import { cn } from "~/utils/cn";
import { FAIL_FAST_FIELD } from "~/utils/network";
import { useHydrated } from "~/utils/use-hydrated";

export type NotificationItem = {
  id: string;
  title: string;
  message: string;
  fileName: string | null;
  link: string | null;
  kind: string;
  read: boolean;
  createdAt: string;
  createdAtIso: string;
};

/** Seed §9: the card fades out over 500 ms before it is removed. */
export const FADE_MS = 500;

/**
 * Seed §2 notification card: file name, `dd MMM yyyy | HH:mm`, and "Mark as read". With
 * JavaScript a fetcher marks it read in place (fade, then removed; on error the list is
 * re-read, no message); without, the same form is a plain POST that redirects back.
 */
export function NotificationCard({ notification: n, redirectTo }: { notification: NotificationItem; redirectTo: string }) {
  const fetcher = useFetcher<{ ok: boolean }>();
  const revalidator = useRevalidator();
  const [phase, setPhase] = useState<"shown" | "fading" | "gone">("shown");
  const hydrated = useHydrated();

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) {
      setPhase("fading");
      const timer = setTimeout(() => {
        setPhase("gone");
        revalidator.revalidate();
      }, FADE_MS);
      return () => clearTimeout(timer);
    }
    revalidator.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- react to the fetcher's answer only
  }, [fetcher.state, fetcher.data]);

  if (phase === "gone") return null;
  const failed = n.kind.endsWith(".failed");
  return (
    <article
      data-testid="notification-card"
      style={{ transitionDuration: `${FADE_MS}ms` }}
      className={cn(
        "flex items-start justify-between gap-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 transition-opacity dark:bg-slate-900 dark:ring-slate-800",
        phase === "fading" && "opacity-0",
      )}
      aria-hidden={phase === "fading" || undefined}
    >
      <div className="min-w-0 space-y-1">
        <p className={cn("text-xs font-semibold uppercase tracking-wide", failed ? "text-red-600" : "text-green-700")}>{n.title}</p>
        {n.fileName ? (
          <p className="break-all font-medium" data-testid="notification-file-name">
            {n.link ? (
              <Link to={n.link} className="hover:underline">
                {n.fileName}
              </Link>
            ) : (
              n.fileName
            )}
          </p>
        ) : null}
        {n.message ? <p className="text-sm text-slate-600 dark:text-slate-300">{n.message}</p> : null}
        <time dateTime={n.createdAtIso} className="block text-xs tabular-nums text-slate-500" data-testid="notification-date">
          {n.createdAt}
        </time>
      </div>
      {n.read ? (
        <span className="text-xs text-slate-500">Read</span>
      ) : (
        <fetcher.Form method="post" action="/notifications">
          <FormToken />
          <input type="hidden" name="intent" value="read" />
          <input type="hidden" name="id" value={n.id} />
          {/* Only once hydrated: without JavaScript the same form is a plain POST that redirects back. */}
          {hydrated ? <input type="hidden" name="via" value="fetcher" /> : null}
          {/* Seed §9: a lost mark-as-read is not held for "Try again"; the list is re-read instead. */}
          {hydrated ? <input type="hidden" name={FAIL_FAST_FIELD} value="1" /> : null}
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <Button type="submit" variant="secondary" pending={fetcher.state !== "idle"} disabled={phase !== "shown"}>
            Mark as read
          </Button>
        </fetcher.Form>
      )}
    </article>
  );
}
