CREATE TABLE "bulk_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid,
	"action" text NOT NULL,
	"requested" integer NOT NULL,
	"succeeded" integer NOT NULL,
	"failures" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"details" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "carrier_lines" (
	"carrier_id" uuid NOT NULL,
	"line_of_business" text NOT NULL,
	CONSTRAINT "carrier_lines_carrier_id_line_of_business_pk" PRIMARY KEY("carrier_id","line_of_business")
);
--> statement-breakpoint
CREATE TABLE "carrier_states" (
	"carrier_id" uuid NOT NULL,
	"state" text NOT NULL,
	CONSTRAINT "carrier_states_carrier_id_state_pk" PRIMARY KEY("carrier_id","state")
);
--> statement-breakpoint
CREATE TABLE "forecast_runs" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"evaluated" integer NOT NULL,
	"flagged" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"filter_options" jsonb NOT NULL,
	"phases" jsonb
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"remarket_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"carrier_id" uuid,
	"carrier_name" text NOT NULL,
	"premium" numeric(12, 2) NOT NULL,
	"effective_date" date NOT NULL,
	"coverage_notes" text,
	"selected" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remarkets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"flag_id" uuid,
	"user_id" uuid,
	"quota_year" integer NOT NULL,
	"remarketed_at" timestamp with time zone NOT NULL,
	"baseline_premium" numeric(12, 2),
	"incumbent_carrier_name" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"outcome" text,
	"selected_quote_id" uuid,
	"bound_premium" numeric(12, 2),
	"premium_saved" numeric(12, 2),
	"closed_at" timestamp with time zone,
	"closed_by" uuid
);
--> statement-breakpoint
CREATE TABLE "renewal_flags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"customer_name" text NOT NULL,
	"policy_number" text NOT NULL,
	"line_of_business" text NOT NULL,
	"carrier_name" text NOT NULL,
	"risk_state" text,
	"producer" text,
	"expiration_date" date NOT NULL,
	"prior_premium" numeric(12, 2),
	"current_premium" numeric(12, 2) NOT NULL,
	"renewal_premium" numeric(12, 2) NOT NULL,
	"predicted" boolean NOT NULL,
	"change_pct" numeric(9, 2) NOT NULL,
	"change_amount" numeric(12, 2) NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"rule_version" text NOT NULL,
	"why" jsonb NOT NULL,
	"dismiss_reason" text,
	"snoozed_until" date,
	"status_changed_at" timestamp with time zone,
	"status_changed_by" uuid,
	"flagged_at" timestamp with time zone DEFAULT now() NOT NULL,
	"evaluated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "renewal_forecasts" (
	"tenant_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"expiration_date" date NOT NULL,
	"prior_premium" numeric(12, 2),
	"current_premium" numeric(12, 2),
	"renewal_premium" numeric(12, 2),
	"predicted" boolean DEFAULT false NOT NULL,
	"prediction_level" text,
	"prediction_sample" integer,
	"prediction_rate" numeric(9, 6),
	"change_pct" numeric(9, 2),
	"change_amount" numeric(12, 2),
	"in_window" boolean DEFAULT true NOT NULL,
	"flagged" boolean DEFAULT false NOT NULL,
	"exclusion" text,
	"eligible" boolean DEFAULT false NOT NULL,
	"why" jsonb,
	CONSTRAINT "renewal_forecasts_tenant_id_policy_id_pk" PRIMARY KEY("tenant_id","policy_id")
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"remarket_id" uuid,
	"policy_id" uuid,
	"customer_id" uuid,
	"title" text NOT NULL,
	"assignee" text,
	"employee_account_id" uuid,
	"activity_code" text,
	"work_group" text,
	"due_date" date NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"writeback" text DEFAULT 'none' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tenant_carriers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"carrier_id" uuid NOT NULL,
	"agency_code" text,
	"producer_code" text,
	"portal_username" text,
	"portal_secret" text,
	"credentials_invalid" boolean DEFAULT false NOT NULL,
	"credentials_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bulk_actions" ADD CONSTRAINT "bulk_actions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_actions" ADD CONSTRAINT "bulk_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carrier_lines" ADD CONSTRAINT "carrier_lines_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carrier_states" ADD CONSTRAINT "carrier_states_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forecast_runs" ADD CONSTRAINT "forecast_runs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_remarket_id_remarkets_id_fk" FOREIGN KEY ("remarket_id") REFERENCES "public"."remarkets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remarkets" ADD CONSTRAINT "remarkets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remarkets" ADD CONSTRAINT "remarkets_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remarkets" ADD CONSTRAINT "remarkets_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remarkets" ADD CONSTRAINT "remarkets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remarkets" ADD CONSTRAINT "remarkets_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_flags" ADD CONSTRAINT "renewal_flags_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_flags" ADD CONSTRAINT "renewal_flags_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_flags" ADD CONSTRAINT "renewal_flags_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_flags" ADD CONSTRAINT "renewal_flags_status_changed_by_users_id_fk" FOREIGN KEY ("status_changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_forecasts" ADD CONSTRAINT "renewal_forecasts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_remarket_id_remarkets_id_fk" FOREIGN KEY ("remarket_id") REFERENCES "public"."remarkets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_carriers" ADD CONSTRAINT "tenant_carriers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_carriers" ADD CONSTRAINT "tenant_carriers_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_actions_tenant_idx" ON "bulk_actions" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "carrier_states_state_idx" ON "carrier_states" USING btree ("state");--> statement-breakpoint
CREATE INDEX "quotes_remarket_idx" ON "quotes" USING btree ("remarket_id");--> statement-breakpoint
CREATE INDEX "quotes_policy_idx" ON "quotes" USING btree ("policy_id");--> statement-breakpoint
CREATE UNIQUE INDEX "remarkets_policy_unique" ON "remarkets" USING btree ("policy_id","tenant_id");--> statement-breakpoint
CREATE INDEX "remarkets_tenant_time_idx" ON "remarkets" USING btree ("tenant_id","remarketed_at");--> statement-breakpoint
CREATE INDEX "remarkets_customer_idx" ON "remarkets" USING btree ("customer_id","remarketed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "renewal_flags_policy_unique" ON "renewal_flags" USING btree ("policy_id","tenant_id");--> statement-breakpoint
CREATE INDEX "renewal_flags_worklist_idx" ON "renewal_flags" USING btree ("tenant_id","status","expiration_date","id","carrier_name","line_of_business","producer","risk_state");--> statement-breakpoint
CREATE INDEX "renewal_flags_carrier_line_idx" ON "renewal_flags" USING btree ("tenant_id","status","carrier_name","line_of_business","expiration_date","id");--> statement-breakpoint
CREATE INDEX "renewal_flags_customer_idx" ON "renewal_flags" USING btree ("customer_id","tenant_id");--> statement-breakpoint
CREATE INDEX "renewal_forecasts_expiration_idx" ON "renewal_forecasts" USING btree ("tenant_id","expiration_date");--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_remarket_unique" ON "tasks" USING btree ("remarket_id");--> statement-breakpoint
CREATE INDEX "tasks_tenant_status_idx" ON "tasks" USING btree ("tenant_id","status","due_date");--> statement-breakpoint
CREATE INDEX "tasks_policy_idx" ON "tasks" USING btree ("policy_id");--> statement-breakpoint
CREATE INDEX "tasks_customer_idx" ON "tasks" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tenant_carriers_unique" ON "tenant_carriers" USING btree ("tenant_id","carrier_id");