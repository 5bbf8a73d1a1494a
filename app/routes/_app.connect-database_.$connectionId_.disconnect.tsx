import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DisconnectForm } from "~/components/connection-bits";
import { disconnectConnection, getConnection } from "~/services/connections/connections.server";
import { requireAdmin } from "~/utils/auth.server";
import { applyFormOnce } from "~/utils/forms.server";
import { getIntegration } from "~/utils/integrations";
import { redirectWithToast } from "~/utils/toast.server";
import { orNotFound } from "~/utils/wizard.server";

export const meta: MetaFunction = () => [{ title: "Disconnect | Remarket" }];

// Seed connections/disconnect/{id} and disconnect/sub-connection/{id}. Without JavaScript this
// page is the confirmation; with it, the modal on the connections page posts here.

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = await requireAdmin(request, context);
  const connection = await orNotFound(getConnection(ctx, params.connectionId));
  const sub = new URL(request.url).searchParams.get("sub") === "1";
  if (sub && !connection.parentConnectionId) throw new Response("Not found", { status: 404 });
  return {
    id: connection.id,
    name: connection.name,
    integrationName: getIntegration(connection.integrationId)?.name ?? connection.integrationId,
    status: connection.status,
    sub,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const ctx = await requireAdmin(request, context);
  const connection = await orNotFound(getConnection(ctx, params.connectionId));
  const formData = await request.formData();
  const sub = new URL(request.url).searchParams.get("sub") === "1";
  return applyFormOnce(request, formData, async () => {
    await orNotFound(disconnectConnection(ctx, connection.id, { deleteData: formData.get("deleteData") === "on", subConnectionOnly: sub }));
    return redirectWithToast("/connect-database", {
      type: "success",
      title: "Disconnected",
      message:
        formData.get("deleteData") === "on"
          ? `${connection.name} is disconnected and its imported data deleted.`
          : `${connection.name} is disconnected. Imported data was kept.`,
    });
  });
}

export default function DisconnectPage() {
  const { id, name, integrationName, status, sub } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-lg space-y-4">
      <h1 className="text-2xl font-bold">
        Disconnect {name}
        {sub ? " (sub-connection)" : ""}?
      </h1>
      <p className="text-sm text-slate-500">{integrationName}</p>
      {status === "disconnected" ? (
        <p className="text-sm">This connection is already disconnected.</p>
      ) : (
        <DisconnectForm action={`/connect-database/${id}/disconnect${sub ? "?sub=1" : ""}`} sub={sub} />
      )}
      <Link to="/connect-database" className="text-sm font-semibold hover:underline">
        ← Back to connections
      </Link>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
