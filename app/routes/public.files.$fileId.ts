import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { getDb } from "~/db/client.server";
import { verifyFileLink } from "~/services/files/file-links.server";
import { getFileForPublicLink, openFileContent } from "~/services/files/files.server";

/**
 * A signed, expiring public link (seed files/get-public-url): no session needed, but the
 * signature must match this file id and expiry, and the expiry must not have passed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const fileId = params.fileId ?? "";
  const check = verifyFileLink(fileId, url.searchParams.get("expires"), url.searchParams.get("signature"));
  if (check === "expired") return text("This link has expired. Ask for a new one.", 410);
  if (check !== "valid") return text("This link is not valid.", 403);
  const file = await getFileForPublicLink(await getDb(), fileId);
  if (!file) return text("This file no longer exists.", 404);
  const { stream, headers } = await openFileContent(file);
  return new Response(createReadableStreamFromReadable(stream), { headers: { ...headers, "Referrer-Policy": "no-referrer" } });
}

function text(message: string, status: number) {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
