import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAuth } from "~/utils/auth.server";

// The signed-in layout's loader lives here rather than in _app.tsx: in the browser build a
// `.server` module imported by many routes becomes a script request of its own (an empty one),
// and the layout is on every first load (issue 14).

/** Every page inside the shell needs a signed-in user. */
export async function appLayoutLoader({ request, context }: LoaderFunctionArgs) {
  await requireAuth(request, context);
  return null;
}
