import { Readable } from "node:stream";
import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { getConnection } from "~/services/connections/connections.server";
import { getLatestRun, rejectionsCsv } from "~/services/connections/imports.server";
import { requireTenantContext } from "~/utils/auth.server";
import { orNotFound } from "~/utils/wizard.server";

/** The rejected rows of the connection's latest import, with their reasons, as CSV. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const connection = await orNotFound(getConnection(ctx, params.connectionId));
  const run = await getLatestRun(ctx, connection.id);
  if (!run) throw new Response("Not found", { status: 404 });
  const day = (run.finishedAt ?? run.createdAt).toISOString().slice(0, 10);
  return new Response(createReadableStreamFromReadable(Readable.from(rejectionsCsv(ctx, run.id))), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="rejected-rows-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
