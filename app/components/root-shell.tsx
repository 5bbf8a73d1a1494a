import { useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { AppShell } from "~/components/app-shell";
import type { loader as rootLoader } from "~/root";

type RootData = ReturnType<typeof useRouteLoaderData<typeof rootLoader>>;
// In the browser only (on the server this module is shared by every request): the root's data as
// last shown, for when its loader has failed and the router has dropped it.
let lastShown: RootData;

/**
 * The root loader's data; in the browser, when the root's loader failed on a click-through (the
 * router then drops its data), the data last shown, so the shell stays around the error.
 */
export function useRootData() {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  if (typeof document === "undefined") return data;
  if (data) lastShown = data;
  return data ?? lastShown;
}

/**
 * The signed-in shell from the root loader's data, around `children`. Error boundaries use it
 * too, so the header and the navigation stay and only the page area shows what went wrong.
 */
export function RootShell({ children }: { children: ReactNode }) {
  const root = useRootData();
  if (!root?.user || !root.tenant || !root.shell) return <>{children}</>;
  return (
    <AppShell
      user={root.user}
      tenant={root.tenant}
      showDemo={root.showDemo}
      paid={root.shell.paid}
      unpaidReason={root.shell.unpaidReason}
      isStaff={root.shell.isStaff}
      unreadNotifications={root.shell.unreadNotifications}
      theme={root.theme}
      idleExpiresInMs={root.idleExpiresInMs}
      year={root.year}
    >
      {children}
    </AppShell>
  );
}
