import { methodNotAllowedFor } from "~/utils/api.server";
import { openApiDocument } from "~/api/openapi.server";

/** The API's OpenAPI 3.1 document (public: it describes, it does not serve data). */
export const loader = async () =>
  Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" } });

export const action = async () => methodNotAllowedFor(["GET"]);
