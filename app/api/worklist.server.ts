import { z } from "zod";
import { FLAG_STATUSES } from "~/db/schema";
import { listWorklistAfter, WORKLIST_SORT } from "~/services/renewals/worklist.server";
import { defineOperation } from "~/utils/api.server";
import { cursorQuery, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from "~/utils/cursor.server";
import { plainReason } from "~/utils/flag-reason";
import { singleLineText } from "~/utils/schemas";

// The re-market worklist (the /remarket page's list) for API clients: the flagged renewals with
// the page's filters and sorts (soonest expiry first unless asked), paged by limit + cursor.

const filter = singleLineText().max(120, "Keep filters under 120 characters.").optional();

const FlaggedRenewalSchema = z.object({
  id: z.string().describe("The flag's id"),
  policyId: z.string().describe("POST it to /api/policies/remarket to re-market the policy"),
  customerId: z.string(),
  customerName: z.string(),
  policyNumber: z.string(),
  lineOfBusiness: z.string(),
  carrierName: z.string(),
  riskState: z.string().nullable(),
  producer: z.string().nullable(),
  expirationDate: z.string().describe("YYYY-MM-DD"),
  priorPremium: z.number().nullable(),
  currentPremium: z.number(),
  renewalPremium: z.number(),
  basis: z.enum(["offer", "predicted"]).describe("What the renewal premium is: the carrier's offer or a prediction"),
  changePct: z.number(),
  changeAmount: z.number(),
  status: z.enum(FLAG_STATUSES),
  reason: z.string().describe("Why it was flagged, in plain words"),
  dismissReason: z.string().nullable(),
  snoozedUntil: z.string().nullable().describe("YYYY-MM-DD"),
  remarketId: z.string().nullable().describe("The re-market, once there is one"),
});

const EXAMPLE = {
  id: "6f1c2a9e-3b7d-4e52-9a10-2c8d4f6b1e07",
  policyId: "0b9e7d4c-5a21-4f3e-8c6d-7e2f1a9b3c54",
  customerId: "9d3a6c1f-2e84-4b7a-a5c9-1f0e8d7b6a32",
  customerName: "Jordan Avery",
  policyNumber: "HO-204518",
  lineOfBusiness: "HOME",
  carrierName: "Harbor Mutual",
  riskState: "OH",
  producer: "Sam Lee",
  expirationDate: "2027-02-14",
  priorPremium: 1180,
  currentPremium: 1240,
  renewalPremium: 1488,
  basis: "offer",
  changePct: 20,
  changeAmount: 248,
  status: "open",
  reason: "Renewal offer +20.0% (threshold 10%)",
  dismissReason: null,
  snoozedUntil: null,
  remarketId: null,
};

export const renewalsFlagged = defineOperation({
  method: "GET",
  path: "/api/renewals/flagged",
  tag: "Re-marketing",
  summary: `Flagged renewals (the re-market worklist), soonest expiry first (or sort): limit (default ${LIST_LIMIT_DEFAULT}, at most ${LIST_LIMIT_MAX}) and cursor (nextCursor of the previous page)`,
  description:
    "status defaults to open; carrier, line (of business), producer, state and basis (offer or predicted) filter by exact value, q by customer name or policy number. sort is the page's: expiry, change_pct, change_amount or premium, descending with a leading minus. nextCursor is null on the last page.",
  input: z.object({
    status: z.enum(FLAG_STATUSES, { error: `status is one of ${FLAG_STATUSES.join(", ")}.` }).default("open"),
    carrier: filter,
    line: filter,
    producer: filter,
    state: filter,
    basis: z.enum(["offer", "predicted"], { error: "basis is offer or predicted." }).optional(),
    q: filter,
    sort: WORKLIST_SORT.query,
    ...cursorQuery,
  }),
  response: z
    .object({ data: z.object({ items: z.array(FlaggedRenewalSchema), nextCursor: z.string().nullable() }) })
    .meta({ examples: [{ data: { items: [EXAMPLE], nextCursor: "WyIyMDI3LTAyLTE0IiwiNmYxYzJhOWUtLi4uIl0" } }] }),
  run: async (ctx, { limit, cursor, sort, ...filters }) => {
    const { items, nextCursor } = await listWorklistAfter(ctx, filters, { limit, cursor, sort });
    return {
      data: {
        items: items.map(({ why, predicted, ...row }) => ({
          ...row,
          basis: predicted ? ("predicted" as const) : ("offer" as const),
          reason: plainReason(why),
        })),
        nextCursor,
      },
    };
  },
});
