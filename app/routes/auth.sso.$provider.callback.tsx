import type { LoaderFunctionArgs } from "@remix-run/node";
import { getDb } from "~/db/client.server";
import { isServiceError } from "~/services/platform/errors.server";
import { getSsoAuthenticator, listSsoProviders, signInWithSso } from "~/services/identity/sso.server";
import { getCookies } from "~/sessions.server";
import { startSession } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";
import { describeError } from "~/db/errors.server";
import { log } from "~/services/platform/log.server";

/** The provider sends the browser back here with a code; remix-auth checks state and PKCE. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const provider = params.provider ?? "";
  if (!listSsoProviders().some((p) => p.id === provider)) throw new Response("Not found", { status: 404 });
  const authenticator = await getSsoAuthenticator();
  try {
    const profile = await authenticator.authenticate(provider, request);
    const user = await signInWithSso(await getDb(), profile);
    const redirectTo = await getCookies().ssoReturnCookie.parse(request.headers.get("Cookie"));
    return await startSession(request, user, typeof redirectTo === "string" ? redirectTo : "/");
  } catch (error) {
    if (error instanceof Response) throw error;
    log.error({ area: "sso", provider, err: describeError(error) }, "single sign-on failed");
    const message = isServiceError(error) ? error.message : "Single sign-on did not complete. Please try again.";
    return redirectWithToast("/auth/login", { type: "error", title: "Sign-in failed", message });
  }
}
