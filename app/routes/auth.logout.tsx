import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form } from "@remix-run/react";
import { Button } from "~/components/shell";
import { getDb } from "~/db/client.server";
import { revokeAllSessions } from "~/services/identity/login-sessions.server";
import { endSession, getAuth } from "~/utils/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!(await getAuth(request, context))) throw redirect("/auth/login");
  return null;
}

/** Sign out this browser, or every browser with intent=everywhere. The theme cookie stays. */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const auth = await getAuth(request, context);
  if (auth && formData.get("intent") === "everywhere") await revokeAllSessions(await getDb(), auth.user.id);
  const headers = await endSession(request, context);
  return redirect("/auth/login", { headers });
}

// A GET of /auth/logout (seed route) asks first, so a link or prefetch cannot sign anyone out.
export default function LogoutPage() {
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Sign out?</h1>
      <Form method="post" className="flex gap-3">
        <Button type="submit">Sign out</Button>
        <Button type="submit" name="intent" value="everywhere" variant="secondary">
          Sign out everywhere
        </Button>
      </Form>
    </div>
  );
}
