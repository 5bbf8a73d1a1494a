import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getCookies } from "~/sessions.server";
import { safeRedirect } from "~/utils/redirect";

/** Switch the theme; stored in its own cookie, which sign-out keeps (seed §4). */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  const theme = formData.get("theme") === "dark" ? "dark" : "light";
  return redirect(safeRedirect(formData.get("redirectTo")), {
    headers: { "Set-Cookie": await getCookies().themeCookie.serialize(theme) },
  });
}
