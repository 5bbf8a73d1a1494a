import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ESLint, RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it, test } from "vitest";
import { readSchemaTables, tenantScopeRule } from "../../eslint-rules/tenant-scope.js";

// RuleTester reports each case through the test framework's describe/it.
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const ruleTester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: "module" } });

const header = `import { and, eq, inArray, sql } from "drizzle-orm";
import { carriers, customers, files, policies, remarkets, sessions, tenantCarriers, users } from "~/db/schema";
`;
const code = (body: string) => header + body;

describe("the schema's tenant-owned tables", () => {
  test("every table with a tenantId column, and none without", () => {
    const tables = readSchemaTables(path.resolve("app/db/schema"));
    const owned = [...tables].filter(([, t]) => t.tenantOwned).map(([name]) => name);
    expect(owned).toEqual(
      expect.arrayContaining([
        "customers",
        "policies",
        "files",
        "remarkets",
        "quotes",
        "tasks",
        "notifications",
        "renewalFlags",
        "bulkActions",
        "users",
      ]),
    );
    expect(owned).not.toContain("carriers");
    expect(owned).not.toContain("tenants");
    expect(tables.get("renewalFlags")?.sqlName).toBe("renewal_flags");
  });
});

ruleTester.run("remarket/tenant-scope", tenantScopeRule, {
  valid: [
    {
      name: "a select filtered by its table's tenantId",
      code: code(`db.select().from(customers).where(and(eq(customers.tenantId, t), eq(customers.id, id)));`),
    },
    {
      name: "the where-clause built by a helper of the same file",
      code: code(`function whereOf(ctx) { const parts = [eq(customers.tenantId, ctx.tenantId)]; return and(...parts); }
const where = whereOf(ctx);
db.select().from(customers).where(where);`),
    },
    {
      name: "conditions pushed to an array",
      code: code(
        `const conditions = []; conditions.push(eq(files.tenantId, ctx.tenantId)); db.select().from(files).where(and(...conditions));`,
      ),
    },
    {
      name: "a join on the joined row's id",
      code: code(`db.select().from(remarkets).innerJoin(policies, eq(policies.id, remarkets.policyId)).where(eq(remarkets.tenantId, t));`),
    },
    {
      name: "a shared table joined to the tenant's rows on the tenant",
      code: code(
        `db.select().from(carriers).leftJoin(tenantCarriers, and(eq(tenantCarriers.carrierId, carriers.id), eq(tenantCarriers.tenantId, t)));`,
      ),
    },
    { name: "the shared catalogue needs no tenant", code: code(`db.select().from(carriers).where(eq(carriers.id, id));`) },
    {
      name: "update and delete with the tenant",
      code: code(
        `db.update(files).set({ a: 1 }).where(and(eq(files.tenantId, t), eq(files.id, id))); db.delete(files).where(eq(files.tenantId, t));`,
      ),
    },
    { name: "not a query: a storage delete", code: code(`storage.delete(key); next.delete("page");`) },
    {
      name: "raw SQL with the alias's tenant_id",
      code: code(`sql\`select count(*) from renewal_forecasts f join policies p on p.id = f.policy_id where f.tenant_id = \${t}\`;`),
    },
    {
      name: "raw SQL fragment inlined from a variable",
      code: code(`const where = sql\`f.tenant_id = \${t} and f.in_window\`; sql\`select 1 from renewal_forecasts f where \${where}\`;`),
    },
    {
      name: "a plain template holding a statement",
      code: "const s = `select (select count(*) from renewal_flags where tenant_id = ${tenant} and status = 'open') as open_flags`;",
    },
    {
      name: "a correlated subquery on the outer row's key",
      code: code(`sql\`(select name from \${users} where \${users.id} = \${sessions.userId})\`;`),
    },
    {
      name: "raw SQL scoping the outer table and tying a sub-query to it",
      code: code(
        `sql\`select count(*) from renewal_forecasts f where f.tenant_id = \${t} and not exists (select 1 from remarkets r where r.tenant_id = f.tenant_id)\`;`,
      ),
    },
    {
      name: "raw SQL interpolating the tables",
      code: code(`sql\`exists (select 1 from \${policies} p where p.tenant_id = \${t} and p.customer_id = "customers"."id")\`;`),
    },
    {
      name: "a deliberate cross-tenant query, with its reason",
      code: code(`/** cross-tenant: the job worker processes any tenant's file by the job's id. */
async function job(db, id) { return db.select().from(files).where(eq(files.id, id)); }`),
    },
    {
      name: "an opt-out on the statement",
      code: code(`// cross-tenant: the public link's verified signature names the file.
db.select().from(files).where(eq(files.id, id));`),
    },
  ],
  invalid: [
    {
      name: "issue 19 mutation: listCustomers without its tenant filter (where built by a helper)",
      code: code(`function customerWhere(ctx, f) {
  const parts = [];
  if (f.q) parts.push(sql\`lower(\${customers.name}) like \${f.q}\`);
  if (f.segment === "active") parts.push(sql\`exists (select 1 from \${policies} p where p.tenant_id = \${ctx.tenantId} and p.customer_id = "customers"."id")\`);
  return and(...parts);
}
const where = customerWhere(ctx, filters);
db.select().from(customers).where(where);
db.select({ total: count() }).from(customers).where(where);`),
      errors: [{ messageId: "missingWhere" }, { messageId: "missingWhere" }],
    },
    {
      name: "issue 19 mutation: listFiles without its tenant filter (conditions array)",
      code: code(`const conditions = [];
if (filters.view === "mine") conditions.push(eq(files.uploadedBy, ctx.userId));
const where = and(...conditions);
db.select().from(files).leftJoin(users, eq(users.id, files.uploadedBy)).where(where);`),
      errors: [{ messageId: "missingWhere" }],
    },
    {
      name: "issue 19 mutation: listRemarkets without its tenant filter",
      code: code(`const where = and(input.status === "all" ? undefined : eq(remarkets.status, input.status));
db.select().from(remarkets).innerJoin(policies, eq(policies.id, remarkets.policyId)).where(where);`),
      errors: [{ messageId: "missingWhere" }],
    },
    {
      name: "a lookup by id alone",
      code: code(`db.select().from(files).where(eq(files.id, id));`),
      errors: [{ messageId: "missingWhere" }],
    },
    {
      name: "an update by id alone",
      code: code(`db.update(remarkets).set({ quotaYear: 1 }).where(eq(remarkets.id, id));`),
      errors: [{ messageId: "missingWhere" }],
    },
    { name: "a delete with no where at all", code: code(`db.delete(files);`), errors: [{ messageId: "missingWhere" }] },
    {
      name: "a column read from the database is not a filter",
      code: code(`const [user] = await db.select({ id: users.id, tenantId: users.tenantId }).from(users).where(eq(users.email, e));
db.update(users).set({ name: "x" }).where(eq(users.id, user.id));`),
      errors: [{ messageId: "missingWhere" }, { messageId: "missingWhere" }],
    },
    {
      name: "a shared table joined to tenant rows without the tenant",
      code: code(`db.select().from(carriers).leftJoin(tenantCarriers, eq(tenantCarriers.carrierId, carriers.id));`),
      errors: [{ messageId: "unscopedJoin" }],
    },
    {
      name: "raw SQL without tenant_id",
      code: code(`sql\`select count(*) from renewal_forecasts where in_window\`;`),
      errors: [{ messageId: "rawUnscoped" }],
    },
    {
      name: "a subquery's tenant_id does not scope the table around it",
      code: code(
        `sql\`select * from customers c where exists (select 1 from policies p where p.tenant_id = \${t} and p.customer_id = c.id)\`;`,
      ),
      errors: [{ messageId: "rawUnscoped" }],
    },
    {
      name: "a sub-query tied to the outer table's tenant does not scope the outer table",
      code: code(
        `sql\`select count(*) from renewal_forecasts f where f.eligible and not exists (select 1 from remarkets r where r.tenant_id = f.tenant_id)\`;`,
      ),
      errors: [{ messageId: "rawUnscoped" }],
    },
    {
      name: "a lookup by a parameter is not a correlated subquery",
      code: code(`sql\`select * from files where id = \${id}\`;`),
      errors: [{ messageId: "rawUnscoped" }],
    },
    {
      name: "an opt-out without a reason",
      code: code(`// cross-tenant: because
db.select().from(files).where(eq(files.id, id));`),
      errors: [{ messageId: "reasonMissing" }],
    },
  ],
});

/** Every non-test TypeScript file under app/ (the services may move into domain folders). */
function appSources(dir = "app"): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return appSources(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/** The source file that defines `fn`, wherever it lives. */
function sourceOf(fn: string) {
  const file = appSources().find((f) => readFileSync(f, "utf8").includes(`export async function ${fn}(`));
  if (!file) throw new Error(`no source defines ${fn}`);
  return { file, text: readFileSync(file, "utf8") };
}

describe("the guard catches issue 19's surviving mutations in the real services", () => {
  const eslint = new ESLint();
  const cases = [
    { fn: "listCustomers", from: "[eq(customers.tenantId, ctx.tenantId)]", to: "[]" },
    { fn: "listFiles", from: "[eq(files.tenantId, ctx.tenantId)]", to: "[]" },
    { fn: "listRemarkets", from: "and(eq(remarkets.tenantId, ctx.tenantId), input.status", to: "and(input.status" },
  ];
  test.each(cases)("$fn without its tenant filter fails lint", async ({ fn, from, to }) => {
    const { file, text } = sourceOf(fn);
    expect(text.split(from)).toHaveLength(2); // the filter the mutation removes is there, once
    const [original] = await eslint.lintText(text, { filePath: file });
    expect(original.messages.filter((m) => m.ruleId === "remarket/tenant-scope")).toEqual([]);
    const [mutant] = await eslint.lintText(text.replace(from, to), { filePath: file });
    const reports = mutant.messages.filter((m) => m.ruleId === "remarket/tenant-scope");
    expect(reports.length).toBeGreaterThan(0);
    expect(reports[0].message).toMatch(/has no where-clause on \w+\.tenantId/);
  });
});
