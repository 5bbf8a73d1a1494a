import { Outlet, type ShouldRevalidateFunction } from "@remix-run/react";
import { RouteErrorBoundary, RootShell } from "~/components/shell";
import { appLayoutLoader } from "~/routes/__app.server";
import { isDraftAutosave } from "~/utils/draft-autosave";

/** Every page inside the shell needs a signed-in user. */
export const loader = appLayoutLoader;

// The loader only checks the sign-in, which the draft autosave's own request has just done.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  !isDraftAutosave(formData) && defaultShouldRevalidate;

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
