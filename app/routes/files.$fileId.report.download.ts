import type { LoaderFunctionArgs } from "@remix-run/node";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { EdaReportView, REPORT_CSS } from "~/components/eda-report";
import { isServiceError } from "~/services/platform/errors.server";
import { contentDisposition, getFileReport } from "~/services/files/files.server";
import { requireTenantContext } from "~/utils/auth.server";

/** The report as one self-contained HTML file: inline CSS, inline SVG, no scripts. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  try {
    const { report } = await getFileReport(ctx, params.fileId ?? "");
    const body = renderToStaticMarkup(createElement(EdaReportView, { report }));
    const title = report.fileName.replace(/[<>&"]/g, "");
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Report: ${title}</title><style>${REPORT_CSS}</style></head><body>${body}</body></html>`;
    return new Response(html, {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Disposition": contentDisposition(`${report.fileName} - report.html`),
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (isServiceError(error) && error.status === 404) throw new Response(error.message, { status: 404 });
    throw error;
  }
}
