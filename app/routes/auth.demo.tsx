import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getDb } from "~/db/client.server";
import { createDemoTenant } from "~/services/platform/demo-data.server";
import { startSession } from "~/utils/auth.server";
import { applyFormOnce } from "~/utils/forms.server";
import { toastHeader } from "~/utils/toast.server";

export async function loader() {
  throw redirect("/auth/login");
}

/** "Try the demo": a fresh demo agency for this visitor, signed in at once. */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  const db = await getDb();
  // A double click must not create two demo agencies: the second click signs into the first.
  const user = await applyFormOnce(request, formData, () => createDemoTenant(db));
  const toast = await toastHeader({ type: "success", title: "Welcome to the demo", message: "This sample agency is yours for 24 hours." });
  return startSession(request, user, "/", { "Set-Cookie": toast });
}
