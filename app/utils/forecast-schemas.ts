import { z } from "zod";
import { periodToCode } from "./format";
import { moneyField } from "./money-input";
import { ALL_LINES_ID as ALL_LINES, LINE_CODES as LINES_OF_BUSINESS } from "./renewals";

// Forecast preferences, checked the same way by /forecast and the API.

// Seed §5: the window is chosen by label ('6 months' / '12 months') and stored as its code.
const windowField = z
  .string({ error: "Choose a window." })
  .transform((v) => periodToCode(v, null))
  .refine((v): v is "6m" | "yr" => v === "6m" || v === "yr", "Choose 6 months or 12 months.");
const pct = z.coerce.number({ error: "Enter a percentage." }).min(0.1, "Enter at least 0.1%.").max(500, "Enter at most 500%.");
const amount = moneyField("Increase", { optional: true, max: 1_000_000 });
const actDays = z.coerce
  .number({ error: "Enter a number of days." })
  .int("Enter whole days.")
  .min(1, "Enter at least 1 day.")
  .max(365, "Enter at most 365 days.");

export const forecastObject = z.enum([ALL_LINES, ...LINES_OF_BUSINESS], { error: "Choose what the preference applies to." });
export const SettingsSchema = z.object({
  window: windowField,
  thresholdPct: pct,
  thresholdAmount: amount,
  actDaysBeforeExpiration: actDays,
});
/** A preference to save: the settings, what it applies to, and the exclusions. */
export const ForecastPreferenceFields = SettingsSchema.extend({
  forecastObjectId: forecastObject,
  excludeFirstTerm: z.boolean().default(false),
  excludeZeroPremium: z.boolean().default(false),
});
