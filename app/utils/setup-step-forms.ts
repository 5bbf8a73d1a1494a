import { z } from "zod";
import { LINES_OF_BUSINESS } from "~/db/schema/book";
import { FILTER_DIMENSIONS, type FilterDimension } from "~/db/schema/connections";
import { periodToCode } from "~/utils/format";
import { moneyField } from "~/utils/money-input";
import { singleLineText } from "~/utils/schemas";

// The rules of the wizard's prediction and filter-options steps, shared by their pages and the
// JSON API (app/api/connections.server.ts), so a step saved over the API is checked the same way.

/** One forecast preference as the prediction step takes it (seed forecast-preferences). */
export const PreferenceSchema = z.object({
  window: z.enum(["6 months", "12 months"], { error: "Choose 6 or 12 months." }),
  thresholdPct: z.number({ error: "Enter a percentage." }).min(0, "Use 0 or more.").max(1000, "Use at most 1000 %."),
  thresholdAmount: moneyField("Increase", { optional: true, max: 1_000_000 }),
  actDaysBeforeExpiration: z
    .number({ error: "Enter a number of days." })
    .int("Use whole days.")
    .min(1, "Use 1 day or more.")
    .max(365, "Use at most 365 days."),
  excludeFirstTerm: z.boolean().default(false),
  excludeZeroPremium: z.boolean().default(false),
});

/** The prediction step's preferences by forecast object: `all`, and optionally one per line of business. */
export function predictionSchema<L extends z.ZodType>(line: L) {
  return z.object({
    all: PreferenceSchema,
    ...(Object.fromEntries(LINES_OF_BUSINESS.map((l) => [l, line])) as Record<(typeof LINES_OF_BUSINESS)[number], L>),
  });
}

/** The preferences to save from a valid prediction step (lines without their own are left to `all`). */
export function toForecastPreferences(value: Record<string, z.output<typeof PreferenceSchema> | undefined>) {
  return Object.entries(value).flatMap(([forecastObjectId, v]) =>
    v
      ? [
          {
            forecastObjectId,
            window: periodToCode(v.window, "yr"),
            thresholdPct: v.thresholdPct,
            thresholdAmount: v.thresholdAmount ?? null,
            actDaysBeforeExpiration: v.actDaysBeforeExpiration,
            excludeFirstTerm: v.excludeFirstTerm,
            excludeZeroPremium: v.excludeZeroPremium,
          },
        ]
      : [],
  );
}

export const FILTER_TITLES: Record<FilterDimension, string> = {
  linesOfBusiness: "Lines of business",
  states: "States",
  carriers: "Carriers",
  statuses: "Policy statuses",
};

/**
 * Per dimension, the values offered (`offered:<dimension>`) and those ticked (`<dimension>`); what
 * was offered and not ticked is excluded. A dimension with values needs one ticked.
 */
export const FiltersSchema = z
  .object(
    Object.fromEntries(
      FILTER_DIMENSIONS.flatMap((d) => [
        [d, z.array(z.string()).default([])],
        [`offered:${d}`, z.array(z.string()).default([])],
      ]),
    ) as Record<string, z.ZodDefault<z.ZodArray<z.ZodString>>>,
  )
  .superRefine((form, ctx) => {
    for (const d of FILTER_DIMENSIONS) {
      if (form[`offered:${d}`].length > 0 && form[d].length === 0)
        ctx.addIssue({ code: "custom", path: [d], message: `Tick at least one of the ${FILTER_TITLES[d].toLowerCase()}.` });
    }
  });

/** The excluded values per dimension of a valid filter-options step. */
export function excludedFilters(form: z.output<typeof FiltersSchema>) {
  return Object.fromEntries(
    FILTER_DIMENSIONS.map((d) => {
      const ticked = new Set(form[d]);
      return [d, form[`offered:${d}`].filter((v) => !ticked.has(v)).slice(0, 1000)];
    }),
  ) as Record<FilterDimension, string[]>;
}

/** The task-creation step's settings; a fixed employee must be one of the connection's listed employees. */
export function taskSettingSchema<E extends z.ZodRawShape>(employeeIds: string[], extra: E) {
  return z
    .object({
      ...extra,
      enabled: z.boolean().default(false),
      assigneeRule: z.enum(["producer", "csr", "fixed"], { error: "Choose who gets the task." }),
      fixedEmployeeAccountId: z
        .string()
        .optional()
        .refine((id) => id === undefined || employeeIds.includes(id), "Choose one of the listed employees."),
      activityCode: singleLineText().max(50).optional(),
      workGroup: singleLineText().max(50).optional(),
      dueDaysBeforeExpiration: z
        .number({ error: "Enter a number of days." })
        .int("Use whole days.")
        .min(0, "Use 0 or more.")
        .max(365, "Use at most 365 days."),
    })
    .refine((v) => (v as TaskSettingInput).assigneeRule !== "fixed" || Boolean((v as TaskSettingInput).fixedEmployeeAccountId), {
      message: "Choose the employee.",
      path: ["fixedEmployeeAccountId"],
    });
}

type TaskSettingInput = {
  enabled: boolean;
  assigneeRule: "producer" | "csr" | "fixed";
  fixedEmployeeAccountId?: string;
  activityCode?: string;
  workGroup?: string;
  dueDaysBeforeExpiration: number;
};

/** The setting to save from a valid task-creation step (blank optional fields are none). */
export function toTaskCreationSetting(input: TaskSettingInput) {
  return {
    enabled: input.enabled,
    assigneeRule: input.assigneeRule,
    fixedEmployeeAccountId: input.assigneeRule === "fixed" ? input.fixedEmployeeAccountId || null : null,
    activityCode: input.activityCode || null,
    workGroup: input.workGroup || null,
    dueDaysBeforeExpiration: input.dueDaysBeforeExpiration,
  };
}
