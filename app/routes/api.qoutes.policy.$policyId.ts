import type { LoaderFunctionArgs } from "@remix-run/node";
import { quotesForPolicy } from "~/services/quotes.server";
import { apiError, requireApiContext } from "~/utils/api.server";

/** Seed GET qoutes/policy (spelling kept for existing clients; /api/quotes/policy/:id is the alias). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiContext(request);
  try {
    return Response.json({ data: await quotesForPolicy(ctx, params.policyId ?? "") });
  } catch (error) {
    return apiError(error);
  }
}
