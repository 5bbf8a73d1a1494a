DROP INDEX "customers_source_unique";--> statement-breakpoint
DROP INDEX "policies_source_unique";--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "file_id" uuid;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "writeback_external_id" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "writeback_error" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "writeback_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_source_unique" UNIQUE NULLS NOT DISTINCT("tenant_id","connection_id","source_key");--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_source_unique" UNIQUE NULLS NOT DISTINCT("tenant_id","connection_id","source_key");