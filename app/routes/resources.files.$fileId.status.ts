import type { LoaderFunctionArgs } from "@remix-run/node";
import { isServiceError } from "~/services/errors.server";
import { getFileDetail } from "~/services/files.server";
import { requireTenantContext } from "~/utils/auth.server";

/** A file's status, history and job as JSON (for scripts and the crash test). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  try {
    const { file, history, job, hasReport } = await getFileDetail(ctx, params.fileId ?? "");
    return Response.json({ id: file.id, name: file.name, status: file.status, failureReason: file.failureReason, history, job, hasReport });
  } catch (error) {
    if (isServiceError(error) && error.status === 404) return Response.json({ error: "File not found" }, { status: 404 });
    throw error;
  }
}
