ALTER TABLE "remarkets" ADD COLUMN "incumbent_offer" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "remarkets" ADD COLUMN "savings_basis" text;--> statement-breakpoint
-- Savings were measured against the renewal premium at re-market time, which could be our
-- prediction: remeasure closed ones against the imported offer when there is one, else the
-- current premium, the only two bases the app now uses.
UPDATE "remarkets" r SET "incumbent_offer" = p."renewal_premium" FROM "policies" p WHERE p."id" = r."policy_id" AND p."renewal_premium" IS NOT NULL;--> statement-breakpoint
UPDATE "remarkets" r SET
  "savings_basis" = CASE WHEN r."incumbent_offer" IS NOT NULL THEN 'offer' WHEN p."premium" IS NOT NULL THEN 'current' END,
  "premium_saved" = coalesce(r."incumbent_offer", p."premium") - r."bound_premium"
FROM "policies" p
WHERE p."id" = r."policy_id" AND r."outcome" IN ('rewritten', 'renewed') AND r."bound_premium" IS NOT NULL;
