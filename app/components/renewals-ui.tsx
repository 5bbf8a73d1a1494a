import type { ReactNode } from "react";
import { Link } from "@remix-run/react";
import { cn } from "~/utils/cn";

export const tableClass = "w-full text-left text-sm";
export const theadClass = "border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500 dark:border-slate-700";
// Every cell of a row gets the same top padding: with only the first cell padded, its text sat
// below the rest of the row's (the rows are top-aligned).
export const rowClass = "border-b border-slate-100 align-top dark:border-slate-800 [&>td]:py-2";

export type ListColumn = { label: string; className?: string; srOnly?: boolean };

/**
 * A list page's table: the card around it, the header row and, when `empty` is given, the one row
 * that says why there is nothing to list. The caller renders the body rows.
 */
export function ListTable({
  testId,
  columns,
  empty,
  children,
}: {
  testId: string;
  columns: ListColumn[];
  empty: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
      {/* A phone scrolls the list sideways in its frame rather than squeezing each row into a tall column. */}
      <table className={cn(tableClass, "min-w-[56rem]")} data-testid={testId}>
        <thead className={theadClass}>
          <tr>
            {columns.map((c, i) => (
              <th key={c.label} className={cn(i === 0 ? "px-3 py-2" : "pr-3", c.className)}>
                {c.srOnly ? <span className="sr-only">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {empty ? (
            <tr>
              <td colSpan={columns.length} className="px-3 py-6 text-center text-slate-500">
                {empty}
              </td>
            </tr>
          ) : null}
          {children}
        </tbody>
      </table>
    </div>
  );
}

/** A white card section with a heading. */
export function Card({
  id,
  title,
  children,
  actions,
  className,
}: {
  id?: string;
  title?: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <section
      id={id}
      className={cn("rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800", className)}
    >
      {title || actions ? (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          {title ? <h2 className="text-base font-semibold">{title}</h2> : <span />}
          {actions}
        </div>
      ) : null}
      {children}
    </section>
  );
}

/** A small figure with a label (counts at the top of a page). */
export function Stat({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="rounded-lg bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
      <div className="text-xs uppercase tracking-wide text-slate-500">{label}</div>
      <div className="mt-1 text-2xl font-semibold" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

export const inputClass =
  "block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-inset focus:ring-brand-600 dark:bg-slate-900 dark:text-slate-100 dark:ring-slate-600";

/** A labelled select for GET filter forms (uncontrolled, keeps the current value). */
export function FilterSelect({
  name,
  label,
  value,
  options,
  all = "All",
  className,
}: {
  name: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  all?: string;
  className?: string;
}) {
  return (
    <label className={cn("block text-sm", className)}>
      <span className="font-medium text-slate-700 dark:text-slate-200">{label}</span>
      <select name={name} defaultValue={value} className={cn(inputClass, "mt-1")}>
        {all ? <option value="">{all}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Plain-link status filter (works without JavaScript); the current one is marked for screen readers. */
export function StatusTabs<S extends string>({
  label,
  basePath,
  current,
  options,
}: {
  label: string;
  basePath: string;
  current: S;
  options: ReadonlyArray<{ value: S; label: string }>;
}) {
  return (
    <nav className="flex gap-3 text-sm" aria-label={label}>
      {options.map((o) => (
        <Link
          key={o.value}
          to={`${basePath}?status=${o.value}`}
          aria-current={o.value === current ? "page" : undefined}
          className={o.value === current ? "font-semibold" : "text-brand-600"}
        >
          {o.label}
        </Link>
      ))}
    </nav>
  );
}

/** Why a renewal was flagged, in full: every value the rule compared (worklist "More", policy page). */
export function FlagExplanation({ items }: { items: { label: string; value: string }[] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs" data-testid="flag-explanation">
      {items.map((i) => (
        <div key={i.label} className="contents">
          <dt className="text-slate-500">{i.label}</dt>
          <dd className="text-slate-800 dark:text-slate-100">{i.value}</dd>
        </div>
      ))}
    </dl>
  );
}
