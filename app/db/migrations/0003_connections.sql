CREATE TABLE "connection_task_options" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"label" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"integration_id" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'not_connected' NOT NULL,
	"step" text DEFAULT 'CONNECTION_SETTING' NOT NULL,
	"parent_connection_id" uuid,
	"credentials_sealed" text,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"file_key" text,
	"file_name" text,
	"file_bytes" integer,
	"mapping" jsonb,
	"filters" jsonb,
	"state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sync_interval_hours" integer DEFAULT 24 NOT NULL,
	"max_rejected_share" numeric(4, 3) DEFAULT 0.2 NOT NULL,
	"invalid_credentials" boolean DEFAULT false NOT NULL,
	"last_error" text,
	"last_sync_at" timestamp with time zone,
	"last_duration_ms" integer,
	"records_imported" integer DEFAULT 0 NOT NULL,
	"disconnected_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_rejections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"reasons" jsonb NOT NULL,
	"raw" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"trigger" text DEFAULT 'manual' NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"rows_total" integer,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"rows_imported" integer DEFAULT 0 NOT NULL,
	"rows_rejected" integer DEFAULT 0 NOT NULL,
	"rows_filtered" integer DEFAULT 0 NOT NULL,
	"runner_id" text,
	"checkpoint" integer DEFAULT 0 NOT NULL,
	"customers_count" integer,
	"policies_count" integer,
	"duration_ms" integer,
	"error" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connection_task_options" ADD CONSTRAINT "connection_task_options_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_task_options" ADD CONSTRAINT "connection_task_options_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_parent_connection_id_connections_id_fk" FOREIGN KEY ("parent_connection_id") REFERENCES "public"."connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rejections" ADD CONSTRAINT "import_rejections_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rejections" ADD CONSTRAINT "import_rejections_run_id_import_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."import_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_runs" ADD CONSTRAINT "import_runs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_runs" ADD CONSTRAINT "import_runs_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "connection_task_options_unique" ON "connection_task_options" USING btree ("connection_id","kind","code");--> statement-breakpoint
CREATE INDEX "connections_tenant_idx" ON "connections" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "import_rejections_row_unique" ON "import_rejections" USING btree ("run_id","row_number");--> statement-breakpoint
CREATE INDEX "import_runs_connection_idx" ON "import_runs" USING btree ("tenant_id","connection_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "import_runs_one_active" ON "import_runs" USING btree ("connection_id") WHERE "import_runs"."status" in ('queued', 'running');