import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useMatches,
  useRouteError,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { GeneralErrorPage, HeldSubmissionNotice, RootShell, useRootData } from "~/components/shell";
import { ProgressBar } from "~/components/progress-bar";
import { ToastArea } from "~/components/toaster";
import tailwind from "~/tailwind.css";
import { isDraftAutosave } from "~/utils/draft-autosave";
import { isConnectionError } from "~/utils/network";
import { useNonce } from "~/utils/nonce";
import { rootData } from "~/root.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: tailwind },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Remarket" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  return rootData(request, context);
}

// Every request renews the session's idle window, and the header shows live counts: reload the
// root's data on every navigation so the inactivity timer restarts from what the server knows.
// Not after a draft autosave (a fetcher posting on each change of a form): it changes no count,
// and the session its request renewed reaches the inactivity timer with the next navigation or save.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData }) => !isDraftAutosave(formData);

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRootData();
  const nonce = useNonce();
  return (
    <html lang="en" className={data?.theme === "dark" ? "dark" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <meta name="description" content={usePageDescription()} />
        <Links />
        <TimeZoneHint nonce={nonce} />
      </head>
      <body className="min-h-screen">
        <ProgressBar />
        {children}
        <ToastArea toast={data?.toast ?? null} />
        <HeldSubmissionNotice />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/**
 * The root's own loader failed; on a click-through the root keeps its last data, so the shell and
 * its navigation stay around the message. A lost request (a click-through whose data never came,
 * after the retries) is the connection notice with "Try again", not a 500 page.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  if (!isConnectionError(error) && !isRouteErrorResponse(error)) console.error(error);
  return (
    <RootShell>
      <GeneralErrorPage error={error} />
    </RootShell>
  );
}

const DEFAULT_DESCRIPTION =
  "Remarket finds the insurance renewals worth shopping around, tracks the quotes and shows what the agency kept.";

/**
 * One meta description per page: a route says its own with `handle: { description }` (the deepest
 * one wins), every other page gets the product's. Kept apart from `meta` so no page can end up with
 * two descriptions or none.
 */
function usePageDescription() {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const description = (matches[i].handle as { description?: unknown } | undefined)?.description;
    if (typeof description === "string") return description;
  }
  return DEFAULT_DESCRIPTION;
}

// Dates are shown in the user's time zone: a cookie tells the server which one (UTC until known).
function TimeZoneHint({ nonce }: { nonce: string }) {
  const script = `try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z&&document.cookie.indexOf('tz='+encodeURIComponent(z))<0){document.cookie='tz='+encodeURIComponent(z)+'; path=/; max-age=31536000; samesite=lax'}}catch(e){}`;
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} />;
}
