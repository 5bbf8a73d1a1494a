DROP INDEX "customers_source_unique";--> statement-breakpoint
DROP INDEX "policies_source_unique";--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_source_unique" UNIQUE NULLS NOT DISTINCT("tenant_id","connection_id","source_key");--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_source_unique" UNIQUE NULLS NOT DISTINCT("tenant_id","connection_id","source_key");