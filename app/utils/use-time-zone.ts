import { useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

/**
 * The zone a page shows instants in: the agency's, so everyone on a team reads the same day and
 * hour; the browser's before sign-in; UTC when neither is known.
 */
export function useTimeZone(): string {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return root?.tenant?.timeZone ?? root?.timeZone ?? "UTC";
}
