import { Link, useLocation } from "@remix-run/react";
import { paginationItems } from "~/utils/pagination";
import { cn } from "~/utils/cn";

/** Seed §2 table footer: Previous / Next and page links; plain links, so it works without JavaScript. */
export function Pagination({
  page,
  pageCount,
  range = 2,
  margin = 3,
}: {
  page: number;
  pageCount: number;
  range?: number;
  margin?: number;
}) {
  const location = useLocation();
  if (pageCount <= 1) return null;
  const href = (p: number) => {
    const params = new URLSearchParams(location.search);
    params.set("page", String(p));
    return `${location.pathname}?${params}`;
  };
  const link = "rounded-md px-3 py-1.5 text-sm ring-1 ring-inset ring-slate-300 dark:ring-slate-600";
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-2 py-3">
      {page > 1 ? (
        <Link to={href(page - 1)} className={link} rel="prev">
          Previous
        </Link>
      ) : (
        <span className={cn(link, "opacity-50")} aria-disabled="true">
          Previous
        </span>
      )}
      <ul className="flex flex-wrap items-center gap-1">
        {paginationItems(page, pageCount, range, margin).map((item) =>
          item.type === "break" ? (
            <li key={item.key} aria-hidden="true" className="px-2 text-slate-500">
              …
            </li>
          ) : (
            <li key={item.page}>
              <Link
                to={href(item.page)}
                aria-current={item.page === page ? "page" : undefined}
                className={cn(link, item.page === page && "bg-brand-600 text-white ring-brand-600")}
              >
                {item.page}
              </Link>
            </li>
          ),
        )}
      </ul>
      {page < pageCount ? (
        <Link to={href(page + 1)} className={link} rel="next">
          Next
        </Link>
      ) : (
        <span className={cn(link, "opacity-50")} aria-disabled="true">
          Next
        </span>
      )}
    </nav>
  );
}
