import { Readable } from "node:stream";
import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { generateSampleExport, sampleAsOf } from "~/services/connections/sample-export.server";
import { requireAuth } from "~/utils/auth.server";

// Seed integrations/ezlynx/sample-csv: the generated EZLynx-style export, as a download, built
// around today so a fresh agency importing it gets renewals to flag.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAuth(request, context);
  const rows = Math.min(Math.max(Number(new URL(request.url).searchParams.get("rows")) || 120, 10), 5_000);
  const stream = Readable.from(generateSampleExport({ policies: rows, asOf: sampleAsOf(new Date()) }));
  return new Response(createReadableStreamFromReadable(stream), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="ezlynx-sample-export.csv"',
      "Cache-Control": "private, max-age=3600",
    },
  });
}
