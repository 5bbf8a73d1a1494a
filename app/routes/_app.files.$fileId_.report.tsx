import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { EdaReportView, REPORT_CSS } from "~/components/eda-report";
import { isServiceError } from "~/services/platform/errors.server";
import { getFileReport } from "~/services/files/files.server";
import { requireTenantContext } from "~/utils/auth.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Report: ${data?.report.fileName ?? "file"} | Remarket` }];

/**
 * The EDA report inside the app shell, so its reader keeps the header and the sidebar (issue 14);
 * the standalone HTML stays at /files/:fileId/report/download.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  try {
    const { file, report } = await getFileReport(ctx, params.fileId ?? "");
    return { fileId: file.id, report, timeZone: ctx.auth.tenant.timeZone };
  } catch (error) {
    if (isServiceError(error) && error.status === 404) throw new Response(error.message, { status: 404 });
    throw error;
  }
}

export default function ReportPage() {
  const { fileId, report, timeZone } = useLoaderData<typeof loader>();
  return (
    <div className="-mx-4 -my-6 md:-mx-8">
      <style dangerouslySetInnerHTML={{ __html: REPORT_CSS }} />
      <nav className="mx-auto flex max-w-[1100px] flex-wrap gap-4 px-6 pt-4 text-sm" aria-label="Report">
        <Link to={`/files/${fileId}`} className="font-semibold text-brand-600 hover:underline">
          ← Back to the file
        </Link>
        <a href={`/files/${fileId}/report/download`} className="font-semibold text-brand-600 hover:underline">
          Download as HTML
        </a>
      </nav>
      <EdaReportView report={report} timeZone={timeZone} />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
