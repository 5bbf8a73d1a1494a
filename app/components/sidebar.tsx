import { Link, useLocation } from "@remix-run/react";
import { cn } from "~/utils/cn";

type NavItem = { to: string; label: string; end?: boolean };

const MAIN: NavItem[] = [
  { to: "/", label: "Dashboard", end: true },
  { to: "/customers", label: "Customers" },
  { to: "/remarket", label: "Re-market" },
  { to: "/forecast", label: "Forecast" },
  { to: "/quotes", label: "Quotes" },
  { to: "/tasks", label: "Tasks" },
  { to: "/carriers", label: "Carriers" },
  { to: "/reports", label: "Reports" },
  { to: "/files", label: "Files" },
  { to: "/notifications", label: "Notifications" },
  { to: "/billing", label: "Billing" },
];

/** Seed §2: the Settings section holds Connections and Integration Setup. */
const SETTINGS: NavItem[] = [
  { to: "/connect-database", label: "Connections" },
  { to: "/integration-setup", label: "Integration Setup" },
  { to: "/settings/team", label: "Team" },
  { to: "/settings/account", label: "Account" },
  { to: "/settings/api-keys", label: "API keys" },
];

// Wizard pages belong to the settings section too, so it stays open while one is set up.
const CONFIGURATION_PATHS = [
  "/connect-database",
  "/integration-setup",
  "/create-connection",
  "/configure-integration",
  "/configuration",
  "/settings",
];

/** Seed §2: opening Connections or Integration Setup marks /configuration as the active section. */
export function activeSection(pathname: string) {
  return CONFIGURATION_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`)) ? "/configuration" : pathname;
}

/** The label of the link for this page (the phone menu's closed bar shows where you are), or "". */
export function sectionName(pathname: string) {
  return [...MAIN, ...SETTINGS].find((item) => isActiveLink(pathname, item.to, item.end))?.label ?? "";
}

/** NavLink's rule: the link's own page, or (unless `end`) a page below it. */
export function isActiveLink(pathname: string, to: string, end = false) {
  if (pathname === to) return true;
  return !end && to !== "/" && pathname.startsWith(`${to}/`);
}

/**
 * Remix Links and a <details> section: it works, and keeps its state, without JavaScript. The
 * links are marked from this one location (NavLink's rule, isActiveLink) rather than being
 * NavLinks: sixteen NavLinks each matched the location again, a seventh of the dashboard's server
 * time (decision record 004). The shell renders this list once, for phones and wide screens.
 */
export function Sidebar({ isStaff }: { isStaff: boolean }) {
  const { pathname } = useLocation();
  const settingsOpen = activeSection(pathname) === "/configuration";
  const link = (item: NavItem) => {
    const active = isActiveLink(pathname, item.to, item.end);
    return (
      <Link key={item.to} to={item.to} className="nav-link" aria-current={active ? "page" : undefined}>
        {item.label}
      </Link>
    );
  };
  return (
    <nav aria-label="Main" className="space-y-1">
      {MAIN.map(link)}
      <details open={settingsOpen} className="group" data-section="/configuration">
        <summary
          className={cn(
            "cursor-pointer list-none rounded-md px-3 py-2 text-sm font-medium",
            settingsOpen ? "text-brand-700 dark:text-white" : "text-slate-700 dark:text-slate-300",
          )}
          aria-current={settingsOpen ? "true" : undefined}
        >
          Settings{" "}
          <span aria-hidden="true" className="float-right group-open:rotate-90">
            ›
          </span>
        </summary>
        <div className="ml-3 space-y-1 border-l border-slate-200 pl-2 dark:border-slate-700">{SETTINGS.map(link)}</div>
      </details>
      {isStaff ? link({ to: "/admin", label: "Staff admin" }) : null}
    </nav>
  );
}
