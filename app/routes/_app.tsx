import { Outlet } from "@remix-run/react";
import { RouteErrorBoundary, RootShell } from "~/components/shell";
import { appLayoutLoader } from "~/routes/__app.server";

/** Every page inside the shell needs a signed-in user. */
export const loader = appLayoutLoader;

export default function AppLayout() {
  return (
    <RootShell>
      <Outlet />
    </RootShell>
  );
}

/** A page without its own boundary: the error shows inside the shell, navigation kept. */
export function ErrorBoundary() {
  return (
    <RootShell>
      <RouteErrorBoundary />
    </RootShell>
  );
}
