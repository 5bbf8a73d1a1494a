import type { ActionFunctionArgs } from "@remix-run/node";
import { selectQuote } from "~/services/quotes.server";
import { apiError, requireApiContext, requireJsonWrite } from "~/utils/api.server";

/** Seed qoutes/id/selection: select a quote, closing its re-market (alias: /api/quotes/:id/selection). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST" && request.method !== "PUT" && request.method !== "PATCH") {
    return Response.json({ error: "Method not allowed" }, { status: 405 });
  }
  const ctx = await requireApiContext(request);
  requireJsonWrite(request);
  const id = params.id ?? "";
  if (!/^[0-9a-f-]{36}$/i.test(id)) return Response.json({ error: "Quote not found" }, { status: 404 });
  try {
    return Response.json({ data: await selectQuote(ctx, id) });
  } catch (error) {
    return apiError(error);
  }
}

export async function loader() {
  return Response.json({ error: "Method not allowed" }, { status: 405 });
}
