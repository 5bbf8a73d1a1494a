import type { LoaderFunctionArgs } from "@remix-run/node";
import { openTasksCsv } from "~/services/renewals/tasks.server";
import { requireTenantContext } from "~/utils/auth.server";

/** Open tasks as CSV for agencies whose AMS imports activities from a file. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const csv = await openTasksCsv(ctx);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="remarket-open-tasks-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
