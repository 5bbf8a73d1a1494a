import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { getEnv } from "~/env.server";
import { users } from "~/db/schema";
import { connectionFixture } from "~/services/connection-fixtures.server";
import { createLoginSession } from "~/services/login-sessions.server";
import { hashPassword } from "~/services/passwords.server";
import { createTenant } from "~/services/tenants.server";
import { getCookies } from "~/sessions.server";

/**
 * End-to-end test fixtures: create a tenant and a signed-in user through the services, for
 * Playwright, which cannot open the server's embedded database itself. Exists only when
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

export async function action({ request }: ActionFunctionArgs) {
  if (!getEnv().ENABLE_TEST_FIXTURES) throw new Response("Not found", { status: 404 });
  const body = await request.json();
  const db = await getDb();
  if (typeof body?.fixture === "string") return Response.json(await connectionFixture(db, body));
  const input = FixtureSchema.parse(body);
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
  const { token } = await createLoginSession(db, { userId: user.id, tenantId });
  const cookie = await getCookies().sessionCookie.serialize(token);
  return Response.json({ ...user, sessionCookie: cookie.split(";")[0].split("=").slice(1).join("=") });
}

export async function loader() {
  throw new Response("Not found", { status: 404 });
}
