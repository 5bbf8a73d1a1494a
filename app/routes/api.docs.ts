import { renderApiDocs } from "~/api/docs.server";
import { openApiDocument } from "~/api/openapi.server";
import { methodNotAllowedFor } from "~/utils/api.server";

/** The API reference as a server-rendered page (public, like the document it renders). */
export const loader = async () =>
  new Response(renderApiDocs(openApiDocument() as Parameters<typeof renderApiDocs>[0]), {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });

export const action = async () => methodNotAllowedFor(["GET"]);
