import { useNavigate } from "@remix-run/react";
import { useEffect, type AnchorHTMLAttributes } from "react";

type AppLinkProps = Pick<AnchorHTMLAttributes<HTMLAnchorElement>, "className" | "children" | "aria-current" | "aria-label"> & {
  /** A page of this app, as an absolute path (`/customers?page=2`). */
  to: `/${string}`;
};

/**
 * A link for the chrome every signed-in page renders (header, sidebar) and for the dashboard: a
 * plain anchor, resolved by nothing. Remix's Link resolves its path against the route tree and
 * sets up its click handling, prefetching and ref on every render, which was a tenth of the
 * dashboard's server time. Without JavaScript it is an ordinary link; with it, the shell's
 * `useAppLinkNavigation` turns a plain click into a client-side navigation. `data-discover` lets
 * Remix's lazy route discovery find the page it leads to, as it does for its own links.
 */
export function AppLink({ to, className, children, "aria-current": current, "aria-label": label }: AppLinkProps) {
  // The props are named, not spread: spreading differently shaped props from two dozen call sites
  // sent V8 down its slow path, a third of what this component saves.
  return (
    <a href={to} className={className} aria-current={current} aria-label={label} data-discover="true" data-app-link="">
      {children}
    </a>
  );
}

/** Where a click on an AppLink should take the router, or null to leave the click to the browser. */
function appLinkTarget(event: Pick<MouseEvent, "defaultPrevented" | "button" | "metaKey" | "altKey" | "ctrlKey" | "shiftKey" | "target">, origin: string) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return null;
  const link = event.target instanceof Element ? event.target.closest("a[data-app-link]") : null;
  if (!(link instanceof HTMLAnchorElement)) return null;
  // A new tab or window, a download or another site: the browser's job.
  if ((link.target && link.target !== "_self") || link.hasAttribute("download") || link.origin !== origin) return null;
  return `${link.pathname}${link.search}${link.hash}`;
}

/** One click listener for every AppLink on the page (registered once, by the app shell). */
export function useAppLinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    function onClick(event: MouseEvent) {
      const to = appLinkTarget(event, window.location.origin);
      if (to === null) return;
      event.preventDefault();
      const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      // As Remix's Link does: a link to the page you are on replaces the history entry.
      navigate(to, { replace: to === here });
    }
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
}
