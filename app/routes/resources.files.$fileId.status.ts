import type { LoaderFunctionArgs } from "@remix-run/node";
import { getFileDetail } from "~/services/files/files.server";
import { jsonRoute } from "~/utils/api.server";
import { requireTenantContext } from "~/utils/auth.server";

/** A file's status, history and job as JSON (for scripts and the crash test). */
export async function loader(args: LoaderFunctionArgs) {
  return jsonRoute(args, ["GET"], async () => {
    const ctx = await requireTenantContext(args.request, args.context);
    const { file, history, job, hasReport } = await getFileDetail(ctx, args.params.fileId ?? "");
    return { id: file.id, name: file.name, status: file.status, failureReason: file.failureReason, history, job, hasReport };
  });
}
