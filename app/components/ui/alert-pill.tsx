import type { ReactNode } from "react";
import { cn } from "~/utils/cn";

const tones = {
  success: "bg-green-50 text-green-800 ring-green-600/30 dark:bg-green-950 dark:text-green-200",
  warning: "bg-amber-50 text-amber-900 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-200",
  error: "bg-red-50 text-red-800 ring-red-600/30 dark:bg-red-950 dark:text-red-200",
  neutral: "bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-200",
};

/** Seed §2 alert pill; the text always says what the colour says. */
export function AlertPill({ tone, children, className }: { tone: keyof typeof tones; children: ReactNode; className?: string }) {
  return (
    <span
      className={cn("inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset", tones[tone], className)}
    >
      {children}
    </span>
  );
}

/** A block message for a form or page (role=alert for errors so screen readers announce it). */
export function Notice({ tone, children }: { tone: keyof typeof tones; children: ReactNode }) {
  return (
    <div role={tone === "error" ? "alert" : "status"} className={cn("rounded-md px-4 py-3 text-sm ring-1 ring-inset", tones[tone])}>
      {children}
    </div>
  );
}
