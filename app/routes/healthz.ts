import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { describeError } from "~/db/errors.server";
import { log } from "~/services/platform/log.server";

/** 200 once the database is open and answers; 503 otherwise (load balancers route around it). */
export async function loader() {
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
    return new Response("ok", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
  } catch (error) {
    log.error({ area: "healthz", err: describeError(error) }, "database check failed");
    return new Response("database unavailable", { status: 503, headers: { "Content-Type": "text/plain" } });
  }
}
