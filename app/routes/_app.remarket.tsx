import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { format, parseISO } from "date-fns";
import { z } from "zod";
import { PostForm, useFormId } from "~/components/forms";
import { Pagination } from "~/components/pagination";
import { Card, FilterSelect, inputClass, tableClass, theadClass } from "~/components/renewals-ui";
import { Notice } from "~/components/ui/alert-pill";
import { Button } from "~/components/ui/button";
import { ServiceError } from "~/services/platform/errors.server";
import { calendarDate } from "~/services/renewals/forecast.server";
import { getRemarketAllowance } from "~/services/billing/quota.server";
import { remarketFlags } from "~/services/renewals/remarket.server";
import { WORKLIST_PAGE_SIZE, changeFlagStatus, listWorklist } from "~/services/renewals/worklist.server";
import { requireTenantContext } from "~/utils/auth.server";
import { applyFormOnce } from "~/utils/forms.server";
import { pageCountFor, readPage } from "~/utils/pagination";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";
import worklistCss from "~/styles/worklist.css";
import { FLAG_STATUS_VALUES as FLAG_STATUSES, daysBetween, formatMoney, formatNumber, shortDate, whyParts } from "~/utils/renewals";
import { redirectWithToast } from "~/utils/toast.server";
import { multiLineText, singleLineText } from "~/utils/schemas";

export const meta: MetaFunction = () => [{ title: "Re-market | Remarket" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: worklistCss }];

const optionalText = singleLineText()
  .max(120)
  .optional()
  .catch(undefined)
  .transform((v) => v || undefined);
const FiltersSchema = z.object({
  status: z.enum(FLAG_STATUSES).catch("open"),
  carrier: optionalText,
  line: optionalText,
  producer: optionalText,
  state: optionalText,
  q: optionalText,
});

const STATUS_LABELS: Record<(typeof FLAG_STATUSES)[number], string> = {
  open: "Open",
  remarketed: "Re-marketed",
  dismissed: "Dismissed",
  snoozed: "Snoozed",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const url = new URL(request.url);
  const filters = FiltersSchema.parse(Object.fromEntries(url.searchParams));
  const page = readPage(url);
  const [list, allowance] = await Promise.all([listWorklist(ctx, filters, page), getRemarketAllowance(ctx.db, ctx.tenantId)]);
  // Capped counts still offer the next page; "why" goes out as its two sentences, not the raw record.
  const pageCount = pageCountFor(list.total, WORKLIST_PAGE_SIZE) + (list.capped ? 1 : 0);
  const rows = list.rows.map(({ why, policyId: _policyId, ...row }) => ({ ...row, why: whyParts(why) }));
  return { ...list, rows, filters, page, pageCount, allowance, today: calendarDate(new Date(), ctx.auth.tenant.timeZone) };
}

const ROW_ACTION = /^(remarket|dismiss|snooze):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const ids = z.array(z.string().uuid(), { error: "Select at least one renewal." }).min(1, "Select at least one renewal.");
const reason = multiLineText({ error: "Enter a reason to dismiss." })
  .min(1, "Enter a reason to dismiss.")
  .max(500, "Keep the reason under 500 characters.");
const until = (tomorrow: string) =>
  z
    .string({ error: "Choose a date to snooze until." })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Choose a date to snooze until.")
    .refine((d) => d >= tomorrow, "Choose a date after today.");

/**
 * One form holds the whole table: row buttons carry `row=<op>:<flag id>` and read that row's
 * fields (`reason-<id>`, `until-<id>`); toolbar buttons carry `intent=bulk-…` and the checked ids.
 * No JavaScript needed. The schema follows the button pressed, so each message lands on the
 * field that was used.
 */
function actionSchema(row: RegExpMatchArray | null, tomorrow: string) {
  if (row) {
    const [, op, id] = row;
    return z.object({
      row: z.string(),
      ...(op === "dismiss" ? { [`reason-${id}`]: reason } : {}),
      ...(op === "snooze" ? { [`until-${id}`]: until(tomorrow) } : {}),
    });
  }
  return z.discriminatedUnion(
    "intent",
    [
      z.object({ intent: z.literal("bulk-remarket"), ids }),
      z.object({ intent: z.literal("bulk-dismiss"), ids, reason }),
      z.object({ intent: z.literal("bulk-snooze"), ids, until: until(tomorrow) }),
    ],
    { error: "Choose an action." },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const formData = await request.formData();
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  const rowValue = formData.get("row");
  const row = typeof rowValue === "string" ? rowValue.match(ROW_ACTION) : null;
  // A row button whose value does not name a renewal is a renewal that is not there.
  if (rowValue !== null && !row) throw new Response("Renewal not found", { status: 404 });
  const tomorrow = calendarDate(new Date(Date.now() + 86_400_000), ctx.auth.tenant.timeZone);
  const submission = parseWithZod(formData, { schema: actionSchema(row, tomorrow) });
  if (submission.status !== "success") return replyInvalid(submission);
  const input = submission.value as Record<string, unknown>;
  const op = row ? row[1] : String(input.intent).replace(/^bulk-/, "");
  const bulk = !row;
  const selected = row ? [row[2]] : (input.ids as string[]);

  try {
    return await applyFormOnce(request, formData, async () => {
      if (op === "remarket") {
        const { done, failures } = await remarketFlags(ctx, selected, bulk);
        // Nothing applied: throw, so the one-time token is released and a retry may apply.
        if (done.length === 0) throw new ServiceError(failures.map((f) => (bulk ? `${f.label}: ${f.reason}` : f.reason)).join("\n"), 409);
        const last = done[done.length - 1];
        return redirectWithToast(back, {
          type: failures.length ? "error" : "success",
          title: done.length === 1 ? `Re-marketed ${last.policyNumber}` : `Re-marketed ${done.length} policies`,
          message: `${failures.length ? `${failures.length} could not be re-marketed (see Reports › Bulk actions). ` : ""}Quota ${last.quotaYear}: ${last.used} of ${last.quota} used.`,
        });
      }
      if (op === "dismiss") {
        const why = String(row ? input[`reason-${row[2]}`] : input.reason);
        const { succeeded, failures } = await changeFlagStatus(ctx, selected, { status: "dismissed", reason: why }, bulk);
        if (succeeded === 0) throw new ServiceError(failures.map((f) => `${f.label}: ${f.reason}`).join("\n"), 409);
        return redirectWithToast(back, {
          type: "success",
          title: "Dismissed",
          message: `${formatNumber(succeeded)} renewal${succeeded === 1 ? "" : "s"} dismissed: ${why}`,
        });
      }
      const day = String(row ? input[`until-${row[2]}`] : input.until);
      const { succeeded, failures } = await changeFlagStatus(ctx, selected, { status: "snoozed", until: day }, bulk);
      if (succeeded === 0) throw new ServiceError(failures.map((f) => `${f.label}: ${f.reason}`).join("\n"), 409);
      return redirectWithToast(back, {
        type: "success",
        title: "Snoozed",
        message: `${formatNumber(succeeded)} renewal${succeeded === 1 ? "" : "s"} snoozed until ${format(parseISO(day), "d MMM yyyy")}.`,
      });
    });
  } catch (error) {
    return replyWithServiceError(submission, error);
  }
}

export default function RemarketPage() {
  const { rows, total, capped, options, filters, page, pageCount, allowance, today, computedAt } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  // The whole table is one form, so one conform form: the toolbar's fields and every row's
  // `reason-<id>` / `until-<id>` read their messages (and the typed value) from it.
  const lastResult = useActionData<typeof action>();
  const [form] = useForm({ id: useFormId("worklist", lastResult), lastResult });
  const errors = form.allErrors;
  // Read only after a refusal: reading conform's value subscribes the page to every keystroke.
  const entered = (form.status === "error" ? (form.value ?? {}) : {}) as Record<string, unknown>;
  const typed = (name: string) => (typeof entered[name] === "string" ? (entered[name] as string) : "");
  const general = [...(errors[""] ?? []), ...(errors.intent ?? []), ...(errors.ids ?? [])];
  const busy = navigation.state === "submitting";
  const actionable = filters.status === "open" || filters.status === "snoozed";
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Re-market</h1>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Renewals flagged for shopping, soonest expiry first.
            {computedAt ? (
              ` Forecast computed ${format(new Date(computedAt), "d MMM yyyy, HH:mm")}.`
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
        <p className="rounded-md bg-white px-3 py-2 text-sm shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
          Re-marketing quota {allowance.quotaYear}: <strong data-testid="quota-used">{formatNumber(allowance.used)}</strong> of{" "}
          <span data-testid="quota-total">{formatNumber(allowance.quota)}</span> used
          {allowance.allowed ? null : <span className="block text-red-700">{allowance.reason}</span>}
        </p>
      </div>

      <Card>
        {/* As many columns of at least 9rem as fit: no filter is ever squeezed, whatever the width. */}
        <Form method="get" className="grid grid-cols-[repeat(auto-fill,minmax(9rem,1fr))] items-end gap-3" aria-label="Filters">
          <label className="col-span-2 block text-sm">
            <span className="font-medium text-slate-700 dark:text-slate-200">Search customer or policy number</span>
            <input type="search" name="q" defaultValue={filters.q ?? ""} className={`${inputClass} mt-1`} />
          </label>
          <FilterSelect
            name="status"
            label="Status"
            value={filters.status}
            all=""
            options={FLAG_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
          />
          <FilterSelect
            name="carrier"
            label="Carrier"
            value={filters.carrier ?? ""}
            options={options.carriers.map((v) => ({ value: v, label: v }))}
          />
          <FilterSelect name="line" label="Line" value={filters.line ?? ""} options={options.lines.map((v) => ({ value: v, label: v }))} />
          <FilterSelect
            name="producer"
            label="Producer"
            value={filters.producer ?? ""}
            options={options.producers.map((v) => ({ value: v, label: v }))}
          />
          <FilterSelect
            name="state"
            label="State"
            value={filters.state ?? ""}
            options={options.states.map((v) => ({ value: v, label: v }))}
          />
          <div>
            <Button type="submit" variant="secondary">
              Apply
            </Button>
          </div>
        </Form>
      </Card>

      <PostForm id={form.id} className="space-y-3" aria-label="Worklist">
        {/* The first submit button is the form's default: Enter in a field must not re-market anything. */}
        <button type="submit" disabled hidden aria-hidden="true" tabIndex={-1} />
        {general.length ? (
          <Notice tone="error">
            {general.map((m) => (
              <p key={m}>{m}</p>
            ))}
          </Notice>
        ) : null}
        {actionable ? (
          <div className="flex flex-wrap items-end gap-3 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
            <Button type="submit" name="intent" value="bulk-remarket" pending={busy}>
              Re-market selected
            </Button>
            <div>
              <label className="block text-sm">
                <span className="font-medium">Dismiss reason</span>
                <input
                  name="reason"
                  defaultValue={typed("reason")}
                  maxLength={500}
                  className={`${inputClass} mt-1 w-64`}
                  aria-invalid={errors.reason ? true : undefined}
                  aria-describedby={errors.reason ? "reason-error" : undefined}
                />
              </label>
              {errors.reason ? (
                <p id="reason-error" className="text-sm text-red-600">
                  {errors.reason[0]}
                </p>
              ) : null}
            </div>
            <Button type="submit" name="intent" value="bulk-dismiss" variant="secondary">
              Dismiss selected
            </Button>
            <div>
              <label className="block text-sm">
                <span className="font-medium">Snooze until</span>
                <input
                  type="date"
                  name="until"
                  min={today}
                  defaultValue={typed("until")}
                  className={`${inputClass} mt-1`}
                  aria-invalid={errors.until ? true : undefined}
                  aria-describedby={errors.until ? "until-error" : undefined}
                />
              </label>
              {errors.until ? (
                <p id="until-error" className="text-sm text-red-600">
                  {errors.until[0]}
                </p>
              ) : null}
            </div>
            <Button type="submit" name="intent" value="bulk-snooze" variant="secondary">
              Snooze selected
            </Button>
          </div>
        ) : null}

        <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
          <table className={tableClass} data-testid="worklist">
            <thead className={theadClass}>
              <tr>
                <th className="w-8 px-3 py-2">
                  <span className="sr-only">Select</span>
                </th>
                <th className="py-2 pr-3">Customer</th>
                <th className="pr-3">Policy</th>
                <th className="pr-3">Carrier</th>
                <th className="pr-3">Expires</th>
                <th className="pr-3">Expiring → renewal premium</th>
                <th className="pr-3">Change</th>
                <th className="pr-3">Why flagged</th>
                <th className="pr-3">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={9} className="px-3 py-6 text-center text-slate-500">
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
        {capped ? `More than ${formatNumber(total)}` : formatNumber(total)} {STATUS_LABELS[filters.status].toLowerCase()} renewal
        {total === 1 ? "" : "s"}
      </p>
      <Pagination page={page} pageCount={pageCount} />
    </div>
  );
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];

/**
 * One worklist row. The page's HTML is mostly these rows (the worklist benchmark renders 25 per
 * request), so the markup is lean: short class names from worklist.css, one text node per cell
 * line (template strings, not JSX fragments), and the row's id only where a form needs it.
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
  const days = daysBetween(today, r.expirationDate);
  const up = r.changePct > 0;
  const down = r.changePct < 0;
  return (
    <tr
      className="wl-row"
      data-testid="worklist-row"
      data-policy={r.policyNumber}
      data-line={r.lineOfBusiness}
      data-carrier={r.carrierName}
    >
      <td className="pl-3">
        {actionable ? <input type="checkbox" name="ids" value={r.id} aria-label={`Select ${r.policyNumber}`} className="wl-cb" /> : null}
      </td>
      <td>
        <Link to={`/customers/${r.customerId}`} className="wl-a">
          {r.customerName}
        </Link>
        {r.producer ? <div className="wl-sub">{r.producer}</div> : null}
      </td>
      <td>
        <div className="wl-mono">{r.policyNumber}</div>
        <div className="wl-sub">{r.riskState ? `${r.lineOfBusiness} · ${r.riskState}` : r.lineOfBusiness}</div>
      </td>
      <td>{r.carrierName}</td>
      <td className="wl-nw">
        {shortDate(r.expirationDate)}
        <div className="wl-sub">{days === 0 ? "today" : days === 1 ? "tomorrow" : days > 0 ? `in ${days} days` : `${-days} days ago`}</div>
      </td>
      <td className="wl-nw">
        {`${formatMoney(r.currentPremium)} → ${formatMoney(r.renewalPremium)}`}
        <div className="wl-sub">{`${r.predicted ? "predicted" : "carrier offer"}${r.priorPremium ? ` · prior term ${formatMoney(r.priorPremium)}` : ""}`}</div>
      </td>
      {/* Colour and text: the arrow is decoration, "up"/"down" says it. */}
      <td className={up ? "wl-up" : down ? "wl-down" : "wl-nw"} data-testid="change">
        <span aria-hidden="true">{up ? "▲ " : down ? "▼ " : ""}</span>
        {`${up ? "+" : down ? "−" : "±"}${formatNumber(Math.abs(r.changePct), 1)}% ${up ? "up" : down ? "down" : "flat"}`}
        <div className="wl-amt">{`${r.changeAmount >= 0 ? "+" : "−"}${formatMoney(Math.abs(r.changeAmount))}`}</div>
      </td>
      <td className="wl-sub max-w-xs" data-testid="why">
        <strong className="wl-why">{r.why.headline}</strong>
        {r.why.detail}
        {r.status === "dismissed" && r.dismissReason ? <div className="wl-note">{`Dismissed: ${r.dismissReason}`}</div> : null}
        {r.status === "snoozed" && r.snoozedUntil ? <div className="wl-note">{`Snoozed until ${shortDate(r.snoozedUntil)}`}</div> : null}
      </td>
      <td>
        {actionable ? (
          <div className="wl-acts">
            <button type="submit" name="row" value={`remarket:${r.id}`} className="wl-btn" aria-label={`Re-market ${r.policyNumber}`}>
              Re-market
            </button>
            <details open={!!errors?.reason}>
              <summary className="wl-sum">Dismiss…</summary>
              <input
                name={`reason-${r.id}`}
                maxLength={500}
                className="wl-in"
                aria-label={`Dismiss reason for ${r.policyNumber}`}
                placeholder="Reason"
              />
              {errors?.reason ? <p className="wl-err">{errors.reason[0]}</p> : null}
              <button type="submit" name="row" value={`dismiss:${r.id}`} className="wl-btn2" aria-label={`Dismiss ${r.policyNumber}`}>
                Dismiss
              </button>
            </details>
            <details open={!!errors?.until}>
              <summary className="wl-sum">Snooze…</summary>
              <input type="date" name={`until-${r.id}`} min={today} className="wl-in" aria-label={`Snooze ${r.policyNumber} until`} />
              {errors?.until ? <p className="wl-err">{errors.until[0]}</p> : null}
              <button type="submit" name="row" value={`snooze:${r.id}`} className="wl-btn2" aria-label={`Snooze ${r.policyNumber}`}>
                Snooze
              </button>
            </details>
          </div>
        ) : r.remarketId ? (
          <Link to={`/quotes/${r.remarketId}`} className="wl-q">
            Quotes →
          </Link>
        ) : null}
      </td>
    </tr>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/error-page";
