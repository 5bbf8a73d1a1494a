import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { isServiceError } from "~/services/platform/errors.server";
import { openFileContent, requireFile } from "~/services/files/files.server";
import { requireTenantContext } from "~/utils/auth.server";

/** Download a tenant's file (seed files/download): streamed, as an attachment, with its type. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  try {
    const file = await requireFile(ctx, params.fileId ?? "");
    const { stream, headers } = await openFileContent(file);
    return new Response(createReadableStreamFromReadable(stream), { headers });
  } catch (error) {
    if (isServiceError(error) && error.status === 404) throw new Response("File not found", { status: 404 });
    throw error;
  }
}
