import type { ActionFunctionArgs } from "@remix-run/node";
import { requireTenantContext } from "~/utils/auth.server";
import { toastHeader } from "~/utils/toast.server";
import { receiveFileUpload, uploadToast } from "~/utils/upload.server";

/**
 * The upload form's JavaScript path (XMLHttpRequest, for progress and cancel): the same
 * streaming upload as the page's action, answered with JSON and a toast cookie.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const outcome = await receiveFileUpload(request, ctx);
  if (!outcome.ok) return Response.json({ ok: false, fieldErrors: outcome.fieldErrors }, { status: outcome.status });
  return Response.json(
    { ok: true, fileId: outcome.fileId, redirectTo: "/files?view=mine" },
    { headers: { "Set-Cookie": await toastHeader(uploadToast(outcome)) } },
  );
}
