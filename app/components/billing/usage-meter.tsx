import { AlertPill } from "~/components/shell";
import { cn } from "~/utils/cn";
import { formatNumber, formatPercent } from "~/utils/format";
import { usageLevel, usagePercent } from "~/utils/quota-usage";

/**
 * Seed remarket-usage: currentYearUsage of annual_quota as a meter with text, and a pill from
 * 80 % (warning) and at 100 % (error) so the state never rests on colour alone.
 */
export function UsageMeter({ used, quota, quotaYear }: { used: number; quota: number; quotaYear: number }) {
  const percent = usagePercent(used, quota);
  const level = usageLevel(used, quota);
  const width = Math.min(100, percent);
  return (
    <div className="space-y-2" data-testid="usage-meter">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm" data-testid="usage-text">
          <strong>{formatNumber(used)}</strong> of {formatNumber(quota)} re-markets used in {quotaYear} ({formatPercent(percent)})
        </p>
        {level === "error" ? (
          <AlertPill tone="error">Quota used up</AlertPill>
        ) : level === "warning" ? (
          <AlertPill tone="warning">80% or more used</AlertPill>
        ) : (
          <AlertPill tone="success">Within quota</AlertPill>
        )}
      </div>
      <div
        role="meter"
        aria-label={`Re-marketing quota used in ${quotaYear}`}
        aria-valuemin={0}
        aria-valuemax={quota}
        aria-valuenow={Math.min(used, quota)}
        aria-valuetext={`${formatNumber(used)} of ${formatNumber(quota)} (${formatPercent(percent)})`}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div
          className={cn("h-full rounded-full", level === "error" ? "bg-red-600" : level === "warning" ? "bg-amber-500" : "bg-brand-600")}
          style={{ width: `${width}%` }}
        />
      </div>
    </div>
  );
}
