ALTER TABLE "forecast_runs" ADD COLUMN "monthly" jsonb;--> statement-breakpoint
CREATE INDEX "customers_tenant_state_idx" ON "customers" USING btree ("tenant_id","state");--> statement-breakpoint
CREATE INDEX "customers_tenant_producer_idx" ON "customers" USING btree ("tenant_id","producer");--> statement-breakpoint
CREATE INDEX "policies_tenant_active_customer_idx" ON "policies" USING btree ("tenant_id","customer_id") WHERE "policies"."status" = 'active';--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("tenant_id","user_id") WHERE "notifications"."read_at" is null;