import type { MouseEvent } from "react";
import { useLocation, useNavigate } from "@remix-run/react";
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

const linkClass = (isActive: boolean) =>
  cn(
    "block rounded-md px-3 py-2 text-sm font-medium",
    isActive
      ? "bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-white"
      : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800",
  );

/** NavLink's rule: the link's own page, or (unless `end`) a page below it. */
export function isActiveLink(pathname: string, to: string, end = false) {
  if (pathname === to) return true;
  return !end && to !== "/" && pathname.startsWith(`${to}/`);
}

/**
 * Links and a <details> section: it works, and keeps its state, without JavaScript. The links are
 * plain anchors marked from this one location, and one click handler on the <nav> makes them
 * client-side navigations: as Remix Links (let alone NavLinks) each of the sixteen resolved its
 * path and hooked into the router again, a seventh of the dashboard's server time (decision record
 * 004), and the shell renders this list twice (the phone menu and the desktop column).
 */
export function Sidebar({ isStaff }: { isStaff: boolean }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const settingsOpen = activeSection(pathname) === "/configuration";
  const link = (item: NavItem) => {
    const active = isActiveLink(pathname, item.to, item.end);
    return (
      <a key={item.to} href={item.to} className={linkClass(active)} aria-current={active ? "page" : undefined}>
        {item.label}
      </a>
    );
  };
  // What <Link> does on a click: a plain left click (no new tab, no modifier) navigates in the app.
  const followInApp = (event: MouseEvent<HTMLElement>) => {
    const anchor = (event.target as HTMLElement).closest("a");
    if (!anchor || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(anchor.getAttribute("href") ?? "/");
  };
  return (
    // The anchors inside are what is interactive; Enter on a link is a click, so keys need nothing more.
    <nav aria-label="Main" className="space-y-1" onClick={followInApp}>
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
