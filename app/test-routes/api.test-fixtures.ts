import type { ActionFunctionArgs } from "@remix-run/node";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, type Db } from "~/db/client.server";
import { queryRows } from "~/db/rows.server";
import { getEnv } from "~/env.server";
import { billingAccounts, users } from "~/db/schema";
import { seedBookDemo } from "~/services/renewals/book-demo.server";
import { connectionFixture } from "~/services/connections/connection-fixtures.server";
import { createLoginSession, resolveSession } from "~/services/identity/login-sessions.server";
import { hashPassword } from "~/services/identity/passwords.server";
import { consumeRemarketQuota } from "~/services/billing/quota.server";
import { createTenant } from "~/services/identity/tenants.server";
import { getCookies } from "~/sessions.server";
import { generateLargeBook } from "./large-book.server";

/**
 * End-to-end test fixtures: create a tenant and a signed-in user through the services, for
 * Playwright, which cannot open the server's embedded database itself. Mounted only in builds
 * made with BUILD_TEST_ROUTES=true (remix.config.js), and answers only when
 * ENABLE_TEST_FIXTURES=true (never in production).
 */
const FixtureSchema = z.object({
  agencyName: z.string().default("E2E Agency"),
  name: z.string().default("E2E Admin"),
  email: z.string().email(),
  password: z.string().min(6),
  role: z.enum(["admin", "staff"]).default("admin"),
  tenantId: z.string().uuid().optional(),
});

/** Record re-marketing uses through the quota service (until the renewals flow can make them). */
const ConsumeQuotaSchema = z.object({
  action: z.literal("consume-quota"),
  tenantId: z.string().uuid(),
  count: z.number().int().min(1).max(1000).default(1),
});

/** A tenant with the demo book (which computes its forecast), whose free trial ended yesterday (the unpaid refusal). */
const UnpaidBookSchema = z.object({ action: z.literal("unpaid-book"), tenantId: z.string().uuid(), userId: z.string().uuid() });

/** bench/pages.js --size large: a large generated book added to a tenant (the demo agency). */
const LargeBookSchema = z.object({
  action: z.literal("large-book"),
  /** The Cookie header of the signed-in demo user: the book goes to that user's agency. */
  cookie: z.string(),
  policies: z.number().int().min(1).max(1_000_000).default(50_000),
});

/**
 * bench/pages.js --explain: the plan of statements a page ran (read from SQL_LOG_FILE), with their
 * parameters bound, run (EXPLAIN ANALYZE) so each says what it took.
 */
const ExplainSchema = z.object({
  action: z.literal("explain"),
  statements: z.array(z.object({ sql: z.string(), params: z.array(z.unknown()) })).max(200),
});

export async function action({ request }: ActionFunctionArgs) {
  if (!getEnv().ENABLE_TEST_FIXTURES) throw new Response("Not found", { status: 404 });
  const body = await request.json();
  const db = await getDb();
  if (typeof body?.fixture === "string") return Response.json(await connectionFixture(db, body));
  if (body?.action === "consume-quota") {
    const { tenantId, count } = ConsumeQuotaSchema.parse(body);
    const results = [];
    for (let i = 0; i < count; i++) results.push(await db.transaction((tx) => consumeRemarketQuota(tx, tenantId)));
    return Response.json({ results });
  }
  if (body?.action === "explain") return Response.json(await explainStatements(db, ExplainSchema.parse(body).statements));
  if (body?.action === "large-book") {
    const input = LargeBookSchema.parse(body);
    const token = await getCookies().sessionCookie.parse(input.cookie);
    const session = typeof token === "string" ? await resolveSession(db, token) : null;
    if (!session) throw new Response("Not signed in", { status: 400 });
    return Response.json(await generateLargeBook(db, { tenantId: session.tenant.id, userId: session.user.id, policies: input.policies }));
  }
  if (body?.action === "unpaid-book") {
    const { tenantId, userId } = UnpaidBookSchema.parse(body);
    const now = new Date();
    await db.transaction((tx) => seedBookDemo({ db: tx, tenantId, userId, now }));
    await db
      .update(billingAccounts)
      .set({ trialEndsAt: new Date(now.getTime() - 86_400_000) })
      .where(eq(billingAccounts.tenantId, tenantId));
    return Response.json({ ok: true });
  }
  const input = FixtureSchema.parse(body);
  // A fixed address (an allow-listed staff e-mail) is used by both Playwright projects: the
  // second asks for a user that exists, and gets a fresh session for it.
  // cross-tenant: a test-only fixture (ENABLE_TEST_FIXTURES) finds its user by e-mail, whatever the agency.
  const [existing] = await db
    .select({ id: users.id, tenantId: users.tenantId, email: users.email })
    .from(users)
    .where(sql`lower(${users.email}) = ${input.email.toLowerCase()}`);
  if (existing) return Response.json({ ...existing, sessionCookie: await sessionCookieValue(db, existing) });
  const tenantId = input.tenantId ?? (await createTenant(db, { name: input.agencyName })).id;
  const [user] = await db
    .insert(users)
    .values({
      tenantId,
      email: input.email.toLowerCase(),
      name: input.name,
      role: input.role,
      passwordHash: await hashPassword(input.password),
      emailVerifiedAt: new Date(),
    })
    .returning({ id: users.id, tenantId: users.tenantId, email: users.email });
  return Response.json({ ...user, sessionCookie: await sessionCookieValue(db, user) });
}

async function explainStatements(db: Db, statements: { sql: string; params: unknown[] }[]) {
  const plans: string[][] = [];
  for (const statement of statements) {
    // $1, $2… back into bound parameters, so the plan is made for the values the page used.
    const parts = statement.sql.split(/\$(\d+)/);
    const chunks = parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql.param(statement.params[Number(part) - 1])));
    try {
      // Only reads reach here (bench/pages.js keeps select and with), and each runs in a transaction rolled back.
      const rows = await db
        .transaction(async (tx) => {
          const result = await queryRows<Record<string, string>>(tx, sql`explain (analyze, buffers false) ${sql.join(chunks)}`);
          throw new RolledBack(result);
        })
        .catch((e: unknown) => {
          if (e instanceof RolledBack) return e.rows;
          throw e;
        });
      plans.push(rows.map((r) => r["QUERY PLAN"]));
    } catch (error) {
      plans.push([`(no plan: ${error instanceof Error ? error.message : String(error)})`]);
    }
  }
  return { plans };
}

class RolledBack extends Error {
  constructor(readonly rows: Record<string, string>[]) {
    super("rolled back");
  }
}

async function sessionCookieValue(db: Db, user: { id: string; tenantId: string }) {
  const { token } = await createLoginSession(db, { userId: user.id, tenantId: user.tenantId });
  const cookie = await getCookies().sessionCookie.serialize(token);
  return cookie.split(";")[0].split("=").slice(1).join("=");
}

export async function loader() {
  throw new Response("Not found", { status: 404 });
}
