import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getSsoAuthenticator, listSsoProviders } from "~/services/identity/sso.server";
import { getCookies } from "~/sessions.server";
import { safeRedirect } from "~/utils/redirect";

export async function loader() {
  throw redirect("/auth/login");
}

/** Start single sign-on: remix-auth redirects to the provider (state and PKCE in a cookie). */
export async function action({ request, params }: ActionFunctionArgs) {
  const provider = params.provider ?? "";
  if (!listSsoProviders().some((p) => p.id === provider)) throw new Response("Not found", { status: 404 });
  const formData = await request.clone().formData();
  const redirectTo = safeRedirect(formData.get("redirectTo"));
  const authenticator = await getSsoAuthenticator();
  try {
    await authenticator.authenticate(provider, request);
  } catch (thrown) {
    if (thrown instanceof Response) {
      // Remember where to land after the round trip.
      thrown.headers.append("Set-Cookie", await getCookies().ssoReturnCookie.serialize(redirectTo));
    }
    throw thrown;
  }
  throw redirect("/auth/login");
}
