import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import type { listWorklist } from "~/services/renewals/worklist.server";
import { explainReason, plainReason } from "~/utils/flag-reason";
import { formatDate, formatDateTime, formatMoney, formatNumber } from "~/utils/format";
import { FLAG_STATUS_VALUES as FLAG_STATUSES, daysBetween } from "~/utils/renewals";
import { multiLineText, queryFilterText } from "~/utils/schemas";

// The worklist's server side, in one module the route imports. Its schemas live here: the page
// validates on the server (conform's `lastResult` shows the messages, with or without JavaScript),
// so zod never reaches its bundle. The services and helpers its loader and action call are passed
// on from here too: in the browser build each `.server` module a route imports becomes an empty
// module, and one that other routes import too becomes a script request of its own (issue 14).

export { getRemarketAllowance } from "~/services/billing/quota.server";
export { ServiceError } from "~/services/platform/errors.server";
export { calendarDate } from "~/services/renewals/forecast.server";
export { UNDO_WINDOW_MS, listUndoableRemarkets, remarketFlags, undoRemarkets } from "~/services/renewals/remarket.server";
export {
  WORKLIST_PAGE_SIZE,
  WORKLIST_SORTS,
  changeFlagStatus,
  listWorklist,
  requireFlags,
  type WorklistSort,
} from "~/services/renewals/worklist.server";
export { requireTenantContext } from "~/utils/auth.server";
export { applyFormOnce } from "~/utils/forms.server";
export { replyInvalid, replyWithServiceError } from "~/utils/submission.server";
export { redirectWithToast } from "~/utils/toast.server";
// The action's messages are written on the server: passed on from here so that the route's
// browser bundle does not load the formatting module (and date-fns with it).
export { formatCount, formatDate, formatNumber } from "~/utils/format";

const optionalText = queryFilterText();
const FiltersSchema = z.object({
  status: z.enum(FLAG_STATUSES).catch("open"),
  carrier: optionalText,
  line: optionalText,
  producer: optionalText,
  state: optionalText,
  basis: z.enum(["offer", "predicted"]).optional().catch(undefined),
  q: optionalText,
});

/** The worklist's filters from its query string; anything unreadable falls back to no filter. */
export function parseFilters(searchParams: URLSearchParams) {
  return FiltersSchema.parse(Object.fromEntries(searchParams));
}

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

/** The worklist form's submission, checked against the schema of the button that was pressed. */
export function parseWorklistAction(formData: FormData, row: RegExpMatchArray | null, tomorrow: string) {
  return parseWithZod(formData, { schema: actionSchema(row, tomorrow) });
}

type WorklistRow = Awaited<ReturnType<typeof listWorklist>>["rows"][number];

/**
 * A worklist row as the page shows it: "why" in plain words plus the full record, and every date
 * and figure already text (utils/format, as on the dashboard), so the page's browser bundle needs
 * no formatting code (issue 14). The raw values stay for the row's data attributes.
 */
export function worklistRowView({ why, policyId: _policyId, ...row }: WorklistRow, today: string) {
  const days = daysBetween(today, row.expirationDate);
  const up = row.changePct > 0;
  const down = row.changePct < 0;
  return {
    ...row,
    reason: plainReason(why),
    explain: explainReason(why),
    shown: {
      expires: formatDate(row.expirationDate),
      due: days === 0 ? "today" : days === 1 ? "tomorrow" : days > 0 ? `in ${days} days` : `${-days} days ago`,
      premium: `${formatMoney(row.currentPremium)} → ${formatMoney(row.renewalPremium)}`,
      change: `${up ? "+" : down ? "−" : "±"}${formatNumber(Math.abs(row.changePct), 1)}% · ${row.changeAmount >= 0 ? "+" : "−"}${formatMoney(Math.abs(row.changeAmount))}`,
      snoozedUntil: row.snoozedUntil ? formatDate(row.snoozedUntil) : null,
    },
  };
}

/** The page's other figures as text: the forecast's time in the agency's zone, quota and totals. */
export function worklistFigures(
  input: { computedAt: Date | string | null; total: number; allowance: { used: number; quota: number }; undoCount: number },
  timeZone: string,
) {
  return {
    computedAt: input.computedAt ? formatDateTime(input.computedAt, timeZone) : null,
    total: formatNumber(input.total),
    left: formatNumber(Math.max(0, input.allowance.quota - input.allowance.used)),
    used: formatNumber(input.allowance.used),
    quota: formatNumber(input.allowance.quota),
    undoCount: formatNumber(input.undoCount),
  };
}
