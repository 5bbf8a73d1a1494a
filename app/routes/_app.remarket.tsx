import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { FORM_TOKEN_FIELD, PostForm, InlineRetryNotice, Notice, Button, Modal } from "~/components/shell";
import { Pagination } from "~/components/pagination";
import { useServerForm } from "~/components/server-form";
import { Card, FilterSelect, FlagExplanation, inputClass, tableClass, theadClass } from "~/components/renewals-ui";
import { pageCountFor, readPage } from "~/utils/pagination";
import worklistCss from "~/styles/worklist.css";
// Types only: the page's dates and figures come as text from its loader (issue 14), so its browser
// bundle loads neither the formatting module (with date-fns) nor conform's hook.
import type { FLAG_STATUS_VALUES } from "~/utils/renewals";
import { useHydrated } from "~/utils/use-hydrated";
import {
  ServiceError,
  UNDO_WINDOW_MS,
  WORKLIST_PAGE_SIZE,
  WORKLIST_SORTS,
  applyFormOnce,
  calendarDate,
  changeFlagStatus,
  formatCount,
  formatDate,
  formatNumber,
  getRemarketAllowance,
  listUndoableRemarkets,
  listWorklist,
  parseFilters,
  parseWorklistAction,
  redirectWithToast,
  remarketFlags,
  replyInvalid,
  replyWithServiceError,
  requireFlags,
  requireTenantContext,
  undoRemarkets,
  worklistFigures,
  worklistRowView,
  type WorklistSort,
} from "~/routes/__remarket.server";

export const meta: MetaFunction = () => [{ title: "Re-market | Remarket" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: worklistCss }];

type FlagStatus = (typeof FLAG_STATUS_VALUES)[number];
const STATUS_LABELS: Record<FlagStatus, string> = {
  open: "Open",
  remarketed: "Re-marketed",
  dismissed: "Dismissed",
  snoozed: "Snoozed",
};
const FLAG_STATUSES = Object.keys(STATUS_LABELS) as FlagStatus[];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const url = new URL(request.url);
  const filters = parseFilters(url.searchParams);
  const page = readPage(url);
  const sort = readSort(url);
  const [list, allowance, undoable] = await Promise.all([
    listWorklist(ctx, filters, page, sort),
    getRemarketAllowance(ctx.db, ctx.tenantId),
    // The re-markets the last action made (?undo=), while they can still be undone.
    url.searchParams.get("undo") ? listUndoableRemarkets(ctx) : [],
  ]);
  // Capped counts still offer the next page; "why" goes out in plain words plus the full record.
  const pageCount = pageCountFor(list.total, WORKLIST_PAGE_SIZE) + (list.capped ? 1 : 0);
  const today = calendarDate(new Date(), ctx.auth.tenant.timeZone);
  const rows = list.rows.map((row) => worklistRowView(row, today));
  const asked = new Set((url.searchParams.get("undo") ?? "").split(","));
  const undo = undoable.filter((r) => asked.has(r.id));
  const now = Date.now();
  return {
    ...list,
    rows,
    filters,
    sort,
    page,
    pageCount,
    allowance,
    today,
    shown: worklistFigures({ computedAt: list.computedAt, total: list.total, allowance, undoCount: undo.length }, ctx.auth.tenant.timeZone),
    undo: undo.length
      ? {
          ids: undo.map((r) => r.id),
          policyNumbers: undo.map((r) => r.policyNumber),
          minutesLeft: Math.max(1, Math.ceil((Math.min(...undo.map((r) => r.remarketedAt.getTime())) + UNDO_WINDOW_MS - now) / 60_000)),
        }
      : null,
  };
}

function readSort(url: URL): WorklistSort {
  const value = url.searchParams.get("sort");
  return (WORKLIST_SORTS as readonly string[]).includes(value ?? "") ? (value as WorklistSort) : "expiry";
}

/** The page's own URL without the one-off `undo` parameter (where actions go back to). */
function backTo(url: URL) {
  const params = new URLSearchParams(url.search);
  params.delete("undo");
  const search = params.toString();
  return `${url.pathname}${search ? `?${search}` : ""}`;
}

const ROW_ACTION = /^(remarket|dismiss|snooze):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const formData = await request.formData();
  const url = new URL(request.url);
  const back = backTo(url);
  if (formData.get("intent") === "undo") return undo(ctx, request, formData, back);
  const rowValue = formData.get("row");
  const row = typeof rowValue === "string" ? rowValue.match(ROW_ACTION) : null;
  // A row button whose value does not name a renewal is a renewal that is not there.
  if (rowValue !== null && !row) throw new Response("Renewal not found", { status: 404 });
  const tomorrow = calendarDate(new Date(Date.now() + 86_400_000), ctx.auth.tenant.timeZone);
  const submission = parseWorklistAction(formData, row, tomorrow);
  if (submission.status !== "success") return replyInvalid(submission);
  const input = submission.value as Record<string, unknown>;
  const op = row ? row[1] : String(input.intent).replace(/^bulk-/, "");
  const bulk = !row;
  const selected = row ? [row[2]] : (input.ids as string[]);

  // Spending quota asks first: without `confirmed` the answer is the question (a dialog with
  // JavaScript, a page without), carrying this submission's one-time token so the yes applies once.
  if (op === "remarket" && formData.get("confirmed") !== "yes") {
    const allowance = await getRemarketAllowance(ctx.db, ctx.tenantId);
    // Refused anyway (unpaid, none left): say why straight away instead of asking.
    if (allowance.allowed) {
      try {
        const flags = await requireFlags(ctx.db, ctx.tenantId, selected);
        return { confirm: confirmation(flags, allowance, formData, row ? String(rowValue) : null) };
      } catch (error) {
        return replyWithServiceError(submission, error);
      }
    }
  }

  try {
    return await applyFormOnce(request, formData, async () => {
      if (op === "remarket") {
        const { done, failures } = await remarketFlags(ctx, selected, bulk);
        // Nothing applied: throw, so the one-time token is released and a retry may apply.
        if (done.length === 0) throw new ServiceError(failures.map((f) => (bulk ? `${f.label}: ${f.reason}` : f.reason)).join("\n"), 409);
        const last = done[done.length - 1];
        const params = new URLSearchParams(new URL(back, url).search);
        params.set("undo", done.map((d) => d.remarketId).join(","));
        return redirectWithToast(`${url.pathname}?${params}`, {
          type: failures.length ? "error" : "success",
          title: done.length === 1 ? `Re-marketed ${last.policyNumber}` : `Re-marketed ${done.length} policies`,
          message: `${failures.length ? `${failures.length} could not be re-marketed (see Reports › Bulk actions). ` : ""}Quota ${last.quotaYear}: ${last.used} of ${last.quota} used. You can undo for 10 minutes.`,
          // The same undo as the notice under the header: this page's action, intent=undo, the ids.
          // The toast travels in a cookie (4 KB at most): past 20 ids only the notice offers it.
          undo:
            done.length > 20
              ? undefined
              : {
                  action: back,
                  label: done.length === 1 ? `Undo re-market of ${last.policyNumber}` : `Undo ${done.length} re-markets`,
                  fields: [{ name: "intent", value: "undo" }, ...done.map((d) => ({ name: "remarket", value: d.remarketId }))],
                },
        });
      }
      if (op === "dismiss") {
        const why = String(row ? input[`reason-${row[2]}`] : input.reason);
        const { succeeded, failures } = await changeFlagStatus(ctx, selected, { status: "dismissed", reason: why }, bulk);
        if (succeeded === 0) throw new ServiceError(failures.map((f) => `${f.label}: ${f.reason}`).join("\n"), 409);
        return redirectWithToast(back, {
          type: "success",
          title: "Dismissed",
          message: `${formatCount(succeeded, "renewal")} dismissed: ${why}`,
        });
      }
      const day = String(row ? input[`until-${row[2]}`] : input.until);
      const { succeeded, failures } = await changeFlagStatus(ctx, selected, { status: "snoozed", until: day }, bulk);
      if (succeeded === 0) throw new ServiceError(failures.map((f) => `${f.label}: ${f.reason}`).join("\n"), 409);
      return redirectWithToast(back, {
        type: "success",
        title: "Snoozed",
        message: `${formatCount(succeeded, "renewal")} snoozed until ${formatDate(day)}.`,
      });
    });
  } catch (error) {
    return replyWithServiceError(submission, error);
  }
}

type Confirmation = {
  title: string;
  message: string;
  button: string;
  labels: string[];
  token: string;
  row: string | null;
  ids: string[];
};

function confirmation(
  flags: Awaited<ReturnType<typeof requireFlags>>,
  allowance: { quotaYear: number; used: number; quota: number },
  formData: FormData,
  row: string | null,
): Confirmation {
  const n = flags.length;
  const left = Math.max(0, allowance.quota - allowance.used);
  const policies = n === 1 ? `policy ${flags[0].policyNumber}` : `${formatNumber(n)} policies`;
  const uses = `${formatNumber(n)} of your ${formatNumber(left)} re-market${left === 1 ? "" : "s"} left in ${allowance.quotaYear}`;
  return {
    title: `Re-market ${policies}?`,
    message:
      n <= left
        ? `This uses ${uses}.`
        : `You have ${formatNumber(left)} re-market${left === 1 ? "" : "s"} left in ${allowance.quotaYear}: the first ${formatNumber(left)} go through, the rest are refused.`,
    button: `Re-market ${n === 1 ? flags[0].policyNumber : `${formatNumber(n)} policies`}`,
    labels: flags.map((f) => `${f.policyNumber} · ${f.customerName}`),
    token: String(formData.get(FORM_TOKEN_FIELD) ?? ""),
    row,
    ids: row ? [] : flags.map((f) => f.id),
  };
}

async function undo(ctx: Awaited<ReturnType<typeof requireTenantContext>>, request: Request, formData: FormData, back: string) {
  const ids = formData.getAll("remarket").map(String);
  try {
    return await applyFormOnce(request, formData, async () => {
      const { done, failures } = await undoRemarkets(ctx, ids);
      const last = done[done.length - 1];
      return redirectWithToast(back, {
        type: failures.length ? "error" : "success",
        title: done.length
          ? `Undone: ${done.length === 1 ? `re-market of ${last.policyNumber}` : `${done.length} re-markets`}`
          : "Not undone",
        message: [
          ...new Set(failures.map((f) => f.reason)),
          last
            ? `Quota ${last.quotaYear}: ${formatNumber(last.used)} used; the renewal${done.length === 1 ? " is" : "s are"} back in the worklist.`
            : "",
        ]
          .filter(Boolean)
          .join(" "),
      });
    });
  } catch (error) {
    // Another agency's re-market, or a made-up id: not found, like any record that is not yours.
    if (error instanceof ServiceError && error.status === 404) throw new Response("Re-market not found", { status: 404 });
    throw error;
  }
}

export default function RemarketPage() {
  const { rows, total, capped, options, filters, sort, page, pageCount, allowance, today, computedAt, undo, shown } =
    useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const actionData = useActionData<typeof action>();
  const confirm = actionData && "confirm" in actionData ? actionData.confirm : null;
  const lastResult = actionData && !("confirm" in actionData) ? actionData : undefined;
  const [closedConfirm, setClosedConfirm] = useState<Confirmation | null>(null);
  const [selected, setSelected] = useState(0);
  const tableForm = useRef<HTMLFormElement>(null);
  const countSelected = () => setSelected(tableForm.current?.querySelectorAll('input[name="ids"]:checked').length ?? 0);
  // New rows (after an action or a page change) keep only the boxes still there: count again.
  useEffect(countSelected, [rows]);
  // The whole table is one form, validated on the server only, so its conform reply is read as it
  // comes (useServerForm, decision record 015) and conform's hook stays out of the browser (issue
  // 14). The toolbar's fields and every row's `reason-<id>` / `until-<id>` find their messages and
  // a refused submission's typed values by name. A result that goes away (a success redirects
  // back) takes its messages with it.
  const [reply, fields] = useServerForm({ id: "worklist", lastResult });
  const errors: Record<string, string[] | undefined> = reply.allErrors;
  const typed = (name: string) => {
    const value = fields[name].initialValue;
    return typeof value === "string" ? value : "";
  };
  const general = [...(errors[""] ?? []), ...(errors.intent ?? []), ...(errors.ids ?? [])];
  const busy = navigation.state === "submitting";
  const actionable = filters.status === "open" || filters.status === "snoozed";
  // Without JavaScript the question is a page of its own; with it, a dialog over the worklist.
  if (confirm && !hydrated) return <ConfirmPage confirm={confirm} />;
  // With JavaScript the bulk bar shows once something is selected (or a bulk field has a message).
  const bulkErrors = general.length > 0 || !!errors.reason || !!errors.until;
  const showBulk = actionable && (!hydrated || selected > 0 || bulkErrors);
  const left = Math.max(0, allowance.quota - allowance.used);
  const activeFilters = [filters.status !== "open", filters.carrier, filters.line, filters.producer, filters.state, filters.basis].filter(
    Boolean,
  ).length;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-2">
        <div>
          <h1 className="text-2xl font-bold">Re-market</h1>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Renewals flagged for shopping.
            {computedAt ? (
              ` Forecast computed ${shown.computedAt}.`
            ) : (
              <>
                {" "}
                The forecast has not been computed yet:{" "}
                <Link to="/forecast" className="text-brand-600 underline">
                  compute it on the Forecast page
                </Link>
                .
              </>
            )}
          </p>
        </div>
        <p className="text-sm text-slate-700 dark:text-slate-200">
          <strong>{shown.left}</strong> re-market{left === 1 ? "" : "s"} left in {allowance.quotaYear} (
          <span data-testid="quota-used">{shown.used}</span> of <span data-testid="quota-total">{shown.quota}</span> used)
          {allowance.allowed ? null : <span className="block text-red-700 dark:text-red-400">{allowance.reason}</span>}
        </p>
      </div>

      {undo ? (
        <PostForm
          className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg bg-green-50 px-3 py-2 text-sm ring-1 ring-green-200 dark:bg-green-950 dark:ring-green-900"
          aria-label="Undo re-market"
          data-testid="undo-bar"
        >
          <p role="status">
            {`You can undo the re-market of ${
              undo.policyNumbers.length === 1 ? undo.policyNumbers[0] : `${shown.undoCount} policies`
            } for ${undo.minutesLeft} more minute${undo.minutesLeft === 1 ? "" : "s"}.`}
          </p>
          <input type="hidden" name="intent" value="undo" />
          {undo.ids.map((id) => (
            <input key={id} type="hidden" name="remarket" value={id} />
          ))}
          <Button type="submit" variant="secondary" className="py-1" pending={busy}>
            Undo
          </Button>
        </PostForm>
      ) : null}

      <Card className="p-3">
        {/* Phones: search and Apply, the other filters folded under "Filters" (open when one is set).
            Desktops: one row, the fold's summary hidden and its content always shown (worklist.css). */}
        <Form method="get" className="grid grid-cols-[1fr_auto] items-end gap-2 lg:flex" aria-label="Filters">
          <input type="hidden" name="sort" value={sort} />
          <label className="block text-sm lg:min-w-[10rem] lg:flex-1">
            <span className="font-medium text-slate-700 dark:text-slate-200">Search</span>
            <input type="search" name="q" defaultValue={filters.q ?? ""} placeholder="Name or policy #" className={`${inputClass} mt-1`} />
          </label>
          <div className="lg:order-last">
            <Button type="submit" variant="secondary">
              Apply
            </Button>
          </div>
          <details className="wl-filters col-span-2" open={activeFilters > 0 || undefined}>
            <summary className="wl-sum font-medium">{`Filters${activeFilters ? ` (${activeFilters} set)` : ""}`}</summary>
            <div className="grid grid-cols-2 gap-2 pt-2 sm:grid-cols-3 lg:contents">
              <FilterSelect
                name="status"
                label="Status"
                value={filters.status}
                all=""
                className="lg:w-28"
                options={FLAG_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
              />
              <FilterSelect
                name="carrier"
                label="Carrier"
                value={filters.carrier ?? ""}
                className="lg:w-36"
                options={options.carriers.map((v) => ({ value: v, label: v }))}
              />
              <FilterSelect
                name="line"
                label="Line"
                value={filters.line ?? ""}
                className="lg:w-28"
                options={options.lines.map((v) => ({ value: v, label: v }))}
              />
              <FilterSelect
                name="producer"
                label="Producer"
                value={filters.producer ?? ""}
                className="lg:w-36"
                options={options.producers.map((v) => ({ value: v, label: v }))}
              />
              <FilterSelect
                name="state"
                label="State"
                value={filters.state ?? ""}
                className="lg:w-24"
                options={options.states.map((v) => ({ value: v, label: v }))}
              />
              <FilterSelect
                name="basis"
                label="Renewal figure"
                value={filters.basis ?? ""}
                all="Any"
                className="lg:w-36"
                options={[
                  { value: "offer", label: "Carrier offer" },
                  { value: "predicted", label: "Predicted" },
                ]}
              />
            </div>
          </details>
        </Form>
      </Card>

      <PostForm id="worklist" className="space-y-3" aria-label="Worklist" ref={tableForm} onChange={countSelected}>
        {/* The first submit button is the form's default: Enter in a field must not re-market anything. */}
        <button type="submit" disabled hidden aria-hidden="true" tabIndex={-1} />
        {general.length ? (
          <Notice tone="error">
            {general.map((m) => (
              <p key={m}>{m}</p>
            ))}
          </Notice>
        ) : null}
        {showBulk ? (
          // Phones without JavaScript: folded to one line until opened. Desktops: always one open
          // row (worklist.css hides the fold). With JavaScript it only shows with a selection: open.
          <details
            className="wl-bulk rounded-lg bg-slate-50 px-3 py-2 text-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
            open={hydrated || bulkErrors || undefined}
            data-testid="bulk-bar"
            aria-label="Bulk actions"
          >
            <summary className="wl-sum font-medium">Bulk actions for the selected rows</summary>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-2 pt-2 lg:pt-0" role="group" aria-label="Bulk actions">
              {hydrated ? (
                <span className="font-medium" aria-live="polite">
                  {/* At most a page of rows (25): a plain number reads the same as formatNumber's. */}
                  {`${selected} selected`}
                </span>
              ) : (
                <span className="font-medium">Selected:</span>
              )}
              <Button type="submit" name="intent" value="bulk-remarket" pending={busy} className="py-1.5">
                Re-market selected
              </Button>
              <span className="flex items-center gap-1">
                <input
                  name="reason"
                  defaultValue={typed("reason")}
                  maxLength={500}
                  placeholder="Dismiss reason"
                  aria-label="Dismiss reason"
                  className={`${inputClass} w-40 py-1.5`}
                  aria-invalid={errors.reason ? true : undefined}
                  aria-describedby={errors.reason ? "reason-error" : undefined}
                />
                <Button
                  type="submit"
                  name="intent"
                  value="bulk-dismiss"
                  variant="secondary"
                  className="py-1.5"
                  aria-label="Dismiss selected"
                >
                  Dismiss
                </Button>
              </span>
              <span className="flex items-center gap-1">
                <label htmlFor="bulk-until" className="whitespace-nowrap text-slate-600 dark:text-slate-300">
                  Snooze until
                </label>
                <input
                  id="bulk-until"
                  type="date"
                  name="until"
                  min={today}
                  defaultValue={typed("until")}
                  className={`${inputClass} w-auto py-1.5`}
                  aria-invalid={errors.until ? true : undefined}
                  aria-describedby={errors.until ? "until-error" : undefined}
                />
                <Button type="submit" name="intent" value="bulk-snooze" variant="secondary" className="py-1.5" aria-label="Snooze selected">
                  Snooze
                </Button>
              </span>
              {errors.reason ? (
                <p id="reason-error" className="w-full text-red-600">
                  {errors.reason[0]}
                </p>
              ) : null}
              {errors.until ? (
                <p id="until-error" className="w-full text-red-600">
                  {errors.until[0]}
                </p>
              ) : null}
            </div>
          </details>
        ) : null}

        <div className="wl-frame rounded-lg bg-white shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
          <table className={`${tableClass} wl-table`} data-testid="worklist">
            <thead className={theadClass}>
              <tr>
                <th className="w-8 px-3 py-2">
                  {hydrated && actionable && rows.length ? (
                    // JavaScript only: without it each row is checked on its own.
                    <input
                      type="checkbox"
                      className="wl-cb"
                      aria-label="Select all on this page"
                      checked={selected === rows.length}
                      onChange={(e) => {
                        tableForm.current?.querySelectorAll<HTMLInputElement>('input[name="ids"]').forEach((box) => {
                          box.checked = e.target.checked;
                        });
                      }}
                    />
                  ) : (
                    <span className="sr-only">Select</span>
                  )}
                </th>
                <th className="py-2 pr-3">Customer</th>
                <th className="pr-3">Policy</th>
                <th className="pr-3">Carrier</th>
                <SortHeader label="Expires" column="expiry" sort={sort} />
                <th className="pr-2" aria-sort={sort === "expiry" || sort === "-expiry" ? undefined : sortDirection(sort)}>
                  <SortLink label="Expiring → renewal" column="premium" sort={sort} firstDescending />
                  <span className="block font-normal normal-case">
                    change <SortLink label="%" column="change_pct" sort={sort} firstDescending />{" "}
                    <SortLink label="$" column="change_amount" sort={sort} firstDescending />
                  </span>
                </th>
                <th className="pr-3">Why flagged</th>
                <th className="pr-3">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={8} className="px-3 py-6 text-center text-slate-500">
                    No {STATUS_LABELS[filters.status].toLowerCase()} renewals match these filters.
                  </td>
                </tr>
              ) : null}
              {rows.map((r) => (
                <WorklistRow
                  key={r.id}
                  r={r}
                  today={today}
                  actionable={actionable}
                  errors={
                    errors[`reason-${r.id}`] || errors[`until-${r.id}`]
                      ? { reason: errors[`reason-${r.id}`], until: errors[`until-${r.id}`] }
                      : null
                  }
                />
              ))}
            </tbody>
          </table>
        </div>
      </PostForm>
      <p className="text-sm text-slate-500" data-testid="worklist-total">
        {capped ? `More than ${shown.total}` : shown.total} {STATUS_LABELS[filters.status].toLowerCase()} renewal
        {total === 1 ? "" : "s"}
      </p>
      <Pagination page={page} pageCount={pageCount} />
      {confirm ? (
        <Modal open={closedConfirm !== confirm} title={confirm.title} onClose={() => setClosedConfirm(confirm)}>
          <ConfirmForm confirm={confirm} onCancel={() => setClosedConfirm(confirm)} />
        </Modal>
      ) : null}
    </div>
  );
}

type Column = "expiry" | "premium" | "change_pct" | "change_amount";

const sortDirection = (sort: WorklistSort) => (sort.startsWith("-") ? "descending" : "ascending");

/** A sort link: keeps the filters, starts again at page 1; a second click turns the order round. */
function SortLink({
  label,
  column,
  sort,
  firstDescending = false,
}: {
  label: string;
  column: Column;
  sort: WorklistSort;
  firstDescending?: boolean;
}) {
  const location = useLocation();
  const current = sort.replace(/^-/, "") === column;
  const next = current ? (sort.startsWith("-") ? column : `-${column}`) : firstDescending ? `-${column}` : column;
  const params = new URLSearchParams(location.search);
  params.delete("page");
  params.delete("undo");
  params.set("sort", next);
  const names: Record<Column, string> = {
    expiry: "expiry date",
    premium: "renewal premium",
    change_pct: "change in %",
    change_amount: "change in $",
  };
  return (
    <Link
      to={`${location.pathname}?${params}`}
      className={current ? "text-slate-900 underline dark:text-white" : "hover:underline"}
      data-testid={`sort-${column}`}
      preventScrollReset
    >
      {label}
      {/* The name a screen reader hears starts with the visible label (WCAG 2.5.3), then says what the link does. */}
      <span className="sr-only">
        {`, sort by ${names[column]}, ${next.startsWith("-") ? "highest first" : column === "expiry" ? "soonest first" : "lowest first"}`}
      </span>
      {current ? <span aria-hidden="true">{sort.startsWith("-") ? " ↓" : " ↑"}</span> : null}
    </Link>
  );
}

function SortHeader({
  label,
  column,
  sort,
  firstDescending,
}: {
  label: string;
  column: Column;
  sort: WorklistSort;
  firstDescending?: boolean;
}) {
  return (
    <th className="pr-2" aria-sort={sort.replace(/^-/, "") === column ? sortDirection(sort) : undefined}>
      <SortLink label={label} column={column} sort={sort} firstDescending={firstDescending} />
    </th>
  );
}

/** The question before quota is spent: the same words on the no-JavaScript page and in the dialog. */
function ConfirmForm({ confirm, onCancel }: { confirm: Confirmation; onCancel?: () => void }) {
  const location = useLocation();
  const navigation = useNavigation();
  return (
    <Form method="post" className="space-y-3 text-sm" data-testid="confirm-remarket">
      <input type="hidden" name={FORM_TOKEN_FIELD} value={confirm.token} />
      <input type="hidden" name="confirmed" value="yes" />
      {/* A yes that got no answer says so here, inside the dialog, with "Try again" (same token). */}
      <InlineRetryNotice />
      {confirm.row ? (
        <input type="hidden" name="row" value={confirm.row} />
      ) : (
        <>
          <input type="hidden" name="intent" value="bulk-remarket" />
          {confirm.ids.map((id) => (
            <input key={id} type="hidden" name="ids" value={id} />
          ))}
        </>
      )}
      <p data-testid="confirm-message">{confirm.message}</p>
      <ul className="max-h-48 overflow-y-auto text-slate-600 dark:text-slate-300">
        {confirm.labels.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={navigation.state === "submitting"}>
          {confirm.button}
        </Button>
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : (
          <Link
            to={`${location.pathname}${location.search}`}
            className="inline-flex items-center rounded-md px-3.5 py-2 text-sm font-semibold ring-1 ring-inset ring-slate-300 dark:ring-slate-600"
          >
            Cancel
          </Link>
        )}
      </div>
    </Form>
  );
}

function ConfirmPage({ confirm }: { confirm: Confirmation }) {
  return (
    <div className="max-w-xl space-y-3">
      <h1 className="text-2xl font-bold">{confirm.title}</h1>
      <Card>
        <ConfirmForm confirm={confirm} />
      </Card>
    </div>
  );
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];

/**
 * One worklist row, one line on a desktop: the page's HTML is mostly these rows (the worklist
 * benchmark renders 25 per request), so the markup is lean: short class names from worklist.css,
 * one text node per cell line, and the row's id only where a form needs it. Four tab stops: the
 * checkbox, the customer, Re-market and "More" (why flagged in full, dismiss, snooze).
 */
function WorklistRow({
  r,
  today,
  actionable,
  errors,
}: {
  r: Row;
  today: string;
  actionable: boolean;
  errors: { reason?: string[]; until?: string[] } | null;
}) {
  const up = r.changePct > 0;
  const down = r.changePct < 0;
  return (
    <tr
      className="wl-row"
      data-testid="worklist-row"
      data-policy={r.policyNumber}
      data-line={r.lineOfBusiness}
      data-carrier={r.carrierName}
      data-expires={r.expirationDate}
      data-premium={r.renewalPremium}
      data-change-pct={r.changePct}
      data-change-amount={r.changeAmount}
    >
      <td className="wl-c-sel">
        {actionable ? <input type="checkbox" name="ids" value={r.id} aria-label={`Select ${r.policyNumber}`} className="wl-cb" /> : null}
      </td>
      <td className="wl-c-cust">
        <Link to={`/customers/${r.customerId}`} className="wl-a" title={r.customerName}>
          {r.customerName}
        </Link>
        {r.producer ? <div className="wl-sub wl-trunc">{r.producer}</div> : null}
      </td>
      <td className="wl-c-pol wl-nw">
        <div className="wl-mono">{r.policyNumber}</div>
        <div className="wl-sub">{r.riskState ? `${r.lineOfBusiness} · ${r.riskState}` : r.lineOfBusiness}</div>
      </td>
      <td className="wl-c-car">
        <div className="wl-trunc" title={r.carrierName}>
          {r.carrierName}
        </div>
      </td>
      <td className="wl-c-exp wl-nw" data-testid="expires">
        {r.shown.expires}
        <div className="wl-sub">{r.shown.due}</div>
      </td>
      <td className="wl-c-prem wl-nw" data-testid="premium">
        {r.shown.premium}
        {/* Colour and text: the arrow is decoration, the sign says it. */}
        <div className={up ? "wl-up" : down ? "wl-down" : "wl-sub"} data-testid="change">
          <span aria-hidden="true">{up ? "▲ " : down ? "▼ " : ""}</span>
          {r.shown.change}
          <span className="sr-only">{up ? " up" : down ? " down" : " flat"}</span>
        </div>
      </td>
      <td className="wl-c-why" data-testid="why">
        <span className="wl-why" title={r.reason}>
          {r.reason}
        </span>
        {r.status === "dismissed" && r.dismissReason ? <div className="wl-note">{`Dismissed: ${r.dismissReason}`}</div> : null}
        {r.status === "snoozed" && r.snoozedUntil ? <div className="wl-note">{`Snoozed until ${r.shown.snoozedUntil}`}</div> : null}
      </td>
      <td className="wl-c-act">
        <div className="wl-acts">
          {actionable ? (
            <button type="submit" name="row" value={`remarket:${r.id}`} className="wl-btn" aria-label={`Re-market ${r.policyNumber}`}>
              Re-market
            </button>
          ) : r.remarketId ? (
            <Link to={`/quotes/${r.remarketId}`} className="wl-q">
              Quotes →
            </Link>
          ) : null}
          <details className="wl-more" open={!!errors}>
            <summary className="wl-sum" aria-label={`More for ${r.policyNumber}: why flagged${actionable ? ", dismiss, snooze" : ""}`}>
              More
            </summary>
            <div className="wl-pop">
              <FlagExplanation items={r.explain} />
              {actionable ? (
                <>
                  <label className="wl-lbl">
                    Dismiss reason
                    <input name={`reason-${r.id}`} maxLength={500} className="wl-in" aria-label={`Dismiss reason for ${r.policyNumber}`} />
                  </label>
                  {errors?.reason ? <p className="wl-err">{errors.reason[0]}</p> : null}
                  <button type="submit" name="row" value={`dismiss:${r.id}`} className="wl-btn2" aria-label={`Dismiss ${r.policyNumber}`}>
                    Dismiss
                  </button>
                  <label className="wl-lbl">
                    Snooze until
                    <input type="date" name={`until-${r.id}`} min={today} className="wl-in" aria-label={`Snooze ${r.policyNumber} until`} />
                  </label>
                  {errors?.until ? <p className="wl-err">{errors.until[0]}</p> : null}
                  <button type="submit" name="row" value={`snooze:${r.id}`} className="wl-btn2" aria-label={`Snooze ${r.policyNumber}`}>
                    Snooze
                  </button>
                </>
              ) : null}
            </div>
          </details>
        </div>
      </td>
    </tr>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
