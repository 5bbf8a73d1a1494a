import { cn } from "~/utils/cn";
import { formatMoney, formatNumber } from "~/utils/renewals";

// Apart from renewals-ui so that a page using only the table pieces (the worklist, whose figures
// come formatted from its loader) does not load the formatting module and date-fns (issue 14).

/**
 * Premium change in colour and with its sign (never colour alone): "▲ +18.2%". The arrow is
 * decoration; screen readers hear "+18.2% up".
 */
export function ChangeText({ pct, amount }: { pct: number | null; amount?: number | null }) {
  if (pct === null || pct === undefined) return <span className="text-slate-500">n/a</span>;
  const up = pct > 0;
  const down = pct < 0;
  const sign = up ? "+" : down ? "−" : "±";
  return (
    <span
      className={cn(
        "whitespace-nowrap font-medium",
        up ? "text-red-700 dark:text-red-400" : down ? "text-green-700 dark:text-green-400" : "text-slate-600",
      )}
      data-testid="change"
    >
      <span aria-hidden="true">{up ? "▲ " : down ? "▼ " : ""}</span>
      {sign}
      {formatNumber(Math.abs(pct), 1)}%<span className="sr-only">{up ? " up" : down ? " down" : " flat"}</span>
      {amount !== undefined && amount !== null ? (
        <span className="block text-xs font-normal">
          {amount >= 0 ? "+" : "−"}
          {formatMoney(Math.abs(amount))}
        </span>
      ) : null}
    </span>
  );
}
