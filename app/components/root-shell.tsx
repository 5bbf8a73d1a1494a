import { useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { AppShell } from "~/components/app-shell";
import type { loader as rootLoader } from "~/root";

/**
 * The signed-in shell from the root loader's data, around `children`. Error boundaries use it
 * too: when a page's data could not be read, the root keeps its last data, so the header and
 * the navigation stay and only the page area shows what went wrong.
 */
export function RootShell({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
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
