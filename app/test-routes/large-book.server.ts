import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { recomputeForecast } from "~/services/renewals/forecast.server";
import { BOOK_TABLES, refreshTableStatistics } from "~/db/table-statistics.server";

/**
 * The "large" agency of bench/pages.js (issue 16): about 20,000 customers, 50,000 policies,
 * 200 files and 2,000 notifications added to a tenant (the demo agency), each table filled by one
 * set-based statement (generate_series), then the real forecast computation. The pseudo-random
 * figures come from a fixed seed (setseed) so every run generates the same book.
 */
export async function generateLargeBook(db: Db, input: { tenantId: string; userId: string; policies: number }) {
  const started = Date.now();
  const customers = Math.round(input.policies / 2.5);
  await db.transaction(async (tx) => {
    await tx.execute(sql`select setseed(0.16)`);
    await tx.execute(sql`
      insert into customers (tenant_id, source_key, name, first_name, last_name, email, state, producer)
      select ${input.tenantId}::uuid, 'L' || i, f || ' ' || l || ' ' || i, f, l || ' ' || i,
             lower(f || '.' || l || i || '@example.com'), s, p
      from (select i,
                   (array['Olivia','Liam','Emma','Noah','Ava','Elijah','Sophia','James','Isabella','Lucas','Mia','Mason'])[1 + i % 12] as f,
                   (array['Nguyen','Garcia','Johnson','Patel','Martinez','Thompson','Robinson','Walker','Hernandez','Young','King'])[1 + (i / 12) % 11] as l,
                   (array['TX','OK','LA','AR','NM','FL','GA','AL','MS','TN'])[1 + i % 10] as s,
                   (array['Maria Lopez','James Carter','Dana Whitfield','Priya Shah','Tom Becker','Ana Ruiz'])[1 + i % 6] as p
            from generate_series(1, ${customers}) as i) g`);
    // Each policy belongs to a customer chosen by its number; expirations spread over the past month
    // and the next year; 8 % are first terms (no prior premium); some renewals carry the carrier's offer.
    await tx.execute(sql`
      with c as (select id, row_number() over (order by source_key) as n from customers
                 where tenant_id = ${input.tenantId}::uuid and source_key like 'L%'),
           g as (select i, random() as r1, random() as r2, random() as r3, random() as r4, random() as r5,
                        (current_date + (floor(random() * 395)::int - 30)) as expiration
                 from generate_series(1, ${input.policies}) as i)
      insert into policies (tenant_id, customer_id, source_key, policy_number, line_of_business, carrier_name, status,
        inception_date, effective_date, expiration_date, term_months, premium, prior_premium, renewal_premium, risk_state, producer)
      select ${input.tenantId}::uuid, c.id, 'LP' || g.i, 'L' || (10000000 + g.i),
             (array['PAUTO','PAUTO','PAUTO','HOME','HOME','HOME','BOP','UMBRP','CGL','WC','CAUTO','DFIRE'])[1 + g.i % 12],
             (array['Travelers','Progressive','Safeco','Nationwide','The Hartford','Chubb','Auto-Owners Insurance','Cincinnati Insurance','Kemper','Liberty Mutual','Erie Insurance','Foremost'])[1 + (g.i / 12) % 12],
             case when g.r1 < 0.93 then 'active' else 'expired' end,
             g.expiration - 365 * (case when g.r2 < 0.08 then 1 else 2 + (g.i % 5) end),
             g.expiration - 365, g.expiration, 12,
             round((400 + g.r3 * g.r4 * 9000)::numeric, 2),
             case when g.r2 < 0.08 then null else round(((400 + g.r3 * g.r4 * 9000) / (1.06 + (g.r5 - 0.5) * 0.1))::numeric, 2) end,
             case when g.expiration <= current_date + 45 and g.r5 < 0.6
                  then round(((400 + g.r3 * g.r4 * 9000) * (1.07 + (g.r1 - 0.4) * 0.2))::numeric, 2) end,
             (array['TX','OK','LA','AR','NM','FL','GA','AL','MS','TN'])[1 + g.i % 10],
             (array['Maria Lopez','James Carter','Dana Whitfield','Priya Shah','Tom Becker','Ana Ruiz'])[1 + g.i % 6]
      from g join c on c.n = 1 + (g.i * 7919) % ${customers}`);
    await tx.execute(sql`
      insert into files (tenant_id, uploaded_by, name, extension, content_type, size, domain, storage_key, status, created_at, updated_at)
      select ${input.tenantId}::uuid, ${input.userId}::uuid, 'export-' || i || '.csv', 'csv', 'text/csv', 1000 + i,
             (array['customers','policies','carriers','other'])[1 + i % 4], 'bench/' || ${input.tenantId} || '/' || i || '.csv',
             'Ready', now() - i * interval '1 hour', now() - i * interval '1 hour'
      from generate_series(1, 200) as i`);
    await tx.execute(sql`
      insert into notifications (tenant_id, user_id, kind, title, message, read_at, created_at)
      select ${input.tenantId}::uuid, case when i % 3 = 0 then ${input.userId}::uuid end, 'file.processed',
             'File processed', 'export-' || i || '.csv is ready', case when i % 2 = 0 then now() end, now() - i * interval '10 minutes'
      from generate_series(1, 2000) as i`);
  });
  const run = await recomputeForecast({ db, tenantId: input.tenantId });
  // What the forecast job does after an import (handleForecastRecompute), and the daily housekeeping for the rest.
  await refreshTableStatistics(db, [...BOOK_TABLES, "files", "notifications"]);
  return { customers, policies: input.policies, flagged: run.flagged, evaluated: run.evaluated, ms: Date.now() - started };
}
