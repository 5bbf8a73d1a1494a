import { z } from "zod";
import { moneyField } from "./money-input";
import { multiLineText, singleLineText } from "./schemas";

// A quote for a re-marketed policy, checked the same way by /quotes/:remarketId and the API.

/** A quote's fields (new when `quoteId` is absent). */
export const QuoteFields = {
  quoteId: z.string().uuid().optional(),
  carrierId: z.string().uuid().optional(),
  carrierName: singleLineText().max(120, "Keep the carrier name under 120 characters.").optional(),
  premium: moneyField("Premium", { missing: "Enter the quoted premium." }),
  effectiveDate: z.string({ error: "Enter the effective date." }).regex(/^\d{4}-\d{2}-\d{2}$/, "Enter the effective date."),
  coverageNotes: multiLineText().max(2000, "Keep the notes under 2,000 characters.").optional(),
};

/** A quote names its carrier, from the catalogue or by name; checked even when another field failed. */
export function quoteNamesCarrier<T extends z.ZodObject<typeof QuoteFields & z.ZodRawShape>>(schema: T) {
  return schema.refine((v: { carrierId?: string; carrierName?: string }) => Boolean(v.carrierId || v.carrierName), {
    message: "Choose a carrier or type its name.",
    path: ["carrierId"],
    when: ({ issues }) => !issues.some((issue) => issue.path?.[0] === "carrierId" || issue.path?.[0] === "carrierName"),
  });
}
