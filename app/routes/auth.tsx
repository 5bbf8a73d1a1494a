import { Link, Outlet, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

/** The signed-out pages: a centred card with the brand and the footer. */
export default function AuthLayout() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return (
    <div className="flex min-h-screen flex-col">
      <main className="flex flex-1 items-start justify-center px-4 py-12">
        <div className="w-full max-w-md">
          <Link to="/" className="mb-6 flex items-center justify-center gap-2 text-2xl font-bold text-brand-700 dark:text-white">
            <img src="/logo.svg" alt="" width={32} height={32} />
            Remarket
          </Link>
          <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
            <Outlet />
          </div>
        </div>
      </main>
      <footer className="px-4 py-4 text-center text-xs text-slate-500">
        © {root?.year ?? new Date().getFullYear()} Remarket. All Rights Reserved
      </footer>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
