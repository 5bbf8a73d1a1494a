import type { KeyboardEvent, ReactNode } from "react";
import { FormToken, OfflineIndicator } from "~/components/shell";
import { InactivityModal } from "~/components/inactivity-modal";
import { Sidebar, sectionName } from "~/components/sidebar";
import { Form, Link, useLocation } from "@remix-run/react";

type ShellProps = {
  user: { name: string; email: string; role: string };
  tenant: { name: string };
  showDemo: boolean;
  paid: boolean;
  unpaidReason: string | null;
  isStaff: boolean;
  unreadNotifications: number;
  theme: "light" | "dark";
  idleExpiresInMs: number | null;
  year: number;
  children: ReactNode;
};

/** Header, collapsible sidebar, banners and footer around every signed-in page. */
export function AppShell(props: ShellProps) {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  return (
    <div className="flex min-h-screen flex-col">
      {/* The first tab stop: past the header and the sidebar's links straight to the page. */}
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-semibold focus:text-brand-700 focus:shadow-lg focus:ring-2 focus:ring-brand-500"
      >
        Skip to content
      </a>
      <header className="flex items-center justify-between gap-4 border-b border-slate-200 bg-white px-4 py-3 dark:border-slate-800 dark:bg-slate-900">
        <div className="flex items-center gap-3">
          <Link to="/" className="flex items-center gap-2 text-lg font-bold text-brand-700 dark:text-white">
            <img src="/logo.svg" alt="" width={28} height={28} />
            Remarket
          </Link>
          <span className="hidden text-sm text-slate-500 sm:inline" data-testid="tenant-name">
            {props.tenant.name}
          </span>
        </div>
        <div className="flex items-center gap-2">
          <OfflineIndicator />
          <Link
            to="/notifications"
            className="relative rounded-md p-2 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
            aria-label={`Notifications, ${unreadText(props.unreadNotifications)} unread`}
          >
            <BellIcon />
            {props.unreadNotifications > 0 ? (
              <span
                className="absolute -right-0.5 -top-0.5 rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white"
                data-testid="unread-count"
              >
                {unreadText(props.unreadNotifications)}
              </span>
            ) : null}
          </Link>
          <details className="relative" onKeyDown={closeOnEscape}>
            <summary className="cursor-pointer list-none rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800">
              <span data-testid="user-name">{props.user.name}</span> <span aria-hidden="true">▾</span>
            </summary>
            <div className="absolute right-0 z-20 mt-1 w-64 space-y-1 rounded-md bg-white p-2 text-sm shadow-lg ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700">
              <p className="px-2 py-1 text-slate-500">{props.user.email}</p>
              <Link to="/settings/account" className="block rounded px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800">
                Account and password
              </Link>
              <Form method="post" action="/resources/theme">
                <FormToken />
                <input type="hidden" name="redirectTo" value={here} />
                <input type="hidden" name="theme" value={props.theme === "dark" ? "light" : "dark"} />
                <button type="submit" className="w-full rounded px-2 py-1 text-left hover:bg-slate-100 dark:hover:bg-slate-800">
                  {props.theme === "dark" ? "Light theme" : "Dark theme"}
                </button>
              </Form>
              <Form method="post" action="/auth/logout">
                <FormToken />
                <button type="submit" className="w-full rounded px-2 py-1 text-left hover:bg-slate-100 dark:hover:bg-slate-800">
                  Sign out
                </button>
              </Form>
            </div>
          </details>
        </div>
      </header>
      {props.showDemo ? (
        <div className="bg-brand-50 px-4 py-2 text-center text-sm text-brand-900 dark:bg-slate-800 dark:text-slate-100" role="status">
          You are exploring a demo agency with sample data. It is deleted after 24 hours.
        </div>
      ) : null}
      {!props.paid ? (
        <div className="bg-amber-100 px-4 py-2 text-center text-sm text-amber-900" role="alert" data-testid="unpaid-banner">
          {props.unpaidReason ?? "Your subscription is not active."} Re-marketing is paused until billing is sorted out.{" "}
          <Link to="/billing" className="font-semibold underline">
            Go to billing
          </Link>
        </div>
      ) : null}
      <div className="flex flex-1 flex-col md:flex-row">
        <aside className="border-b border-slate-200 bg-white md:w-60 md:border-b-0 md:border-r md:p-3 dark:border-slate-800 dark:bg-slate-900">
          {/* Phones: the navigation behind a "Menu" button, a <details> so it opens without
              JavaScript; with JavaScript, Escape closes it and a click-through folds it away.
              From md up the same links are the sidebar, shown whether the <details> is open or
              not (.site-menu in tailwind.css), so the list is rendered once. */}
          <details className="site-menu group/menu" onKeyDown={closeOnEscape} key={location.pathname} data-testid="phone-menu">
            <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-500 dark:text-slate-100 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden">
              <span className="flex items-center gap-2">
                <MenuIcon />
                Menu
              </span>
              <span className="text-xs font-normal text-slate-500 group-open/menu:hidden dark:text-slate-400">
                {sectionName(location.pathname)}
              </span>
              <span aria-hidden="true" className="hidden text-base leading-none group-open/menu:inline">
                ✕
              </span>
            </summary>
            <div className="border-t border-slate-200 px-3 pb-3 pt-2 md:border-t-0 md:p-0 dark:border-slate-800">
              <Sidebar isStaff={props.isStaff} />
            </div>
          </details>
        </aside>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none md:px-8">
          {props.children}
        </main>
      </div>
      <footer className="border-t border-slate-200 px-4 py-4 text-center text-xs text-slate-500 dark:border-slate-800">
        © {props.year} Remarket. All Rights Reserved
      </footer>
      {props.idleExpiresInMs !== null ? <InactivityModal expiresInMs={props.idleExpiresInMs} /> : null}
    </div>
  );
}

/** The bell's count: the server counts no further than 100 unread, shown as "99+". */
function unreadText(count: number) {
  return count > 99 ? "99+" : String(count);
}

/** Escape closes a disclosure menu (the user menu, the phone menu) and gives focus back to its button. */
function closeOnEscape(event: KeyboardEvent<HTMLDetailsElement>) {
  const menu = event.currentTarget;
  if (event.key !== "Escape" || !menu.open) return;
  menu.open = false;
  menu.querySelector("summary")?.focus();
}

function MenuIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M4 6h16M4 12h16M4 18h16" />
    </svg>
  );
}

function BellIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
      <path d="M13.73 21a2 2 0 0 1-3.46 0" />
    </svg>
  );
}
