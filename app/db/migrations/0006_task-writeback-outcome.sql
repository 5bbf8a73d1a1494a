ALTER TABLE "tasks" ADD COLUMN "writeback_external_id" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "writeback_error" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "writeback_at" timestamp with time zone;