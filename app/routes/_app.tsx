import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useRouteLoaderData } from "@remix-run/react";
import { AppShell } from "~/components/app-shell";
import type { loader as rootLoader } from "~/root";
import { requireAuth } from "~/utils/auth.server";

/** Every page inside the shell needs a signed-in user. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAuth(request, context);
  return null;
}

export default function AppLayout() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  if (!root?.user || !root.tenant || !root.shell) return <Outlet />;
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
      <Outlet />
    </AppShell>
  );
}
