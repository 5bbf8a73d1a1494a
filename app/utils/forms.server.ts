import { getDb } from "~/db/client.server";
import { applyOnce } from "~/services/platform/idempotency.server";

/**
 * Apply a form action once per one-time token (see components/forms.tsx). The scope is the
 * path, so the same token on two routes' forms never collides.
 */
export async function applyFormOnce<T>(request: Request, formData: FormData, run: () => Promise<T>) {
  const scope = `${request.method} ${new URL(request.url).pathname}`;
  return applyOnce(await getDb(), { scope, formData }, run);
}
