import { Link, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { ConnectionErrorNotice } from "~/components/shell";
import { isConnectionError } from "~/utils/network";

const messages: Record<number, { title: string; body: string }> = {
  400: { title: "That request could not be used", body: "Please check what you entered and try again." },
  403: { title: "You do not have access to this", body: "Ask an admin of your agency if you think you should." },
  404: { title: "Page not found", body: "The page or record you asked for does not exist, or it belongs to another agency." },
  409: { title: "Already in progress", body: "This was submitted already. Please wait a moment and refresh." },
  429: { title: "Too many attempts", body: "Please wait a few minutes and try again." },
  503: {
    title: "Remarket is briefly unavailable",
    body: "We cannot reach our database just now. Nothing you saved is lost; please try again in a minute.",
  },
};

/** Calm 4xx and 500 pages; the raw error is logged on the server, never shown. */
export function GeneralErrorPage({ error }: { error: unknown }) {
  // No answer at all is not a server error: say so, and offer the retry right here.
  if (isConnectionError(error)) return <ConnectionErrorPage />;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const known = messages[status];
  const title = known?.title ?? "Something went wrong on our side";
  const body = known?.body ?? "We have logged the problem and will look into it. Your data is safe; please try again in a moment.";
  const detail = isRouteErrorResponse(error) && status < 500 && typeof error.data === "string" ? error.data : null;
  return (
    <main className="mx-auto flex max-w-xl flex-col items-start gap-4 px-6 py-16">
      <p className="text-sm font-semibold text-brand-600">Error {status}</p>
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="text-slate-600 dark:text-slate-300">{detail && detail !== "Not found" ? detail : body}</p>
      <Link to="/" className="text-sm font-semibold text-brand-600 hover:underline">
        Go to the dashboard
      </Link>
    </main>
  );
}

/** A request that never got an answer, shown where the page would be. */
export function ConnectionErrorPage() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-start gap-4 px-6 py-16" data-testid="connection-error">
      <h1 className="text-2xl font-bold">No connection</h1>
      <ConnectionErrorNotice />
    </div>
  );
}

/** Drop-in ErrorBoundary for routes inside the shell: the error renders within the page area. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  return <GeneralErrorPage error={error} />;
}
