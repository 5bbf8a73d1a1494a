import { data, type AppLoadContext } from "@remix-run/node";
import { getDb } from "~/db/client.server";
import { getShellData } from "~/services/identity/shell.server";
import { getCookies } from "~/sessions.server";
import { getAuth } from "~/utils/auth.server";
import { getTimeZone } from "~/utils/client-hints.server";
import { randomToken } from "~/utils/crypto.server";
import { readToast } from "~/utils/toast.server";

// The root loader's work, in one server module: in the browser build every `.server` module a
// route imports becomes an empty module, and one shared with other routes becomes a script request
// of its own. Imported from here, root's server code costs the first load nothing (issue 14).

/** The root's data: the signed-in user and tenant, the shell's counts, the flash toast, the theme. */
export async function rootData(request: Request, context: AppLoadContext) {
  const [auth, { toast, headers }, theme] = await Promise.all([
    getAuth(request, context),
    readToast(request),
    getCookies().themeCookie.parse(request.headers.get("Cookie")),
  ]);
  const shell = auth ? await getShellData(await getDb(), auth) : null;
  return data(
    {
      user: auth ? { id: auth.user.id, name: auth.user.name, email: auth.user.email, role: auth.user.role } : null,
      tenant: auth ? { id: auth.tenant.id, name: auth.tenant.name, timeZone: auth.tenant.timeZone } : null,
      // seed: custom:showDemo / custom:paid
      showDemo: auth?.tenant.isDemo ?? false,
      shell,
      // How long, not until when: the inactivity modal then works whatever the client's clock says.
      idleExpiresInMs: auth ? Math.max(0, auth.idleExpiresAt.getTime() - Date.now()) : null,
      toast,
      // Seed §2: the theme is Light at start; the switch is remembered in a cookie.
      theme: theme === "dark" ? ("dark" as const) : ("light" as const),
      timeZone: getTimeZone(request),
      formToken: randomToken(16),
      year: new Date().getFullYear(),
    },
    { headers: headers ?? undefined },
  );
}
