import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { format } from "date-fns";
import { getDb } from "~/db/client.server";
import { listTenantsForStaff } from "~/services/tenants.server";
import { requireStaff } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Staff admin | Remarket" }];

/** Internal staff only (STAFF_EMAILS); everyone else gets a 404. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  const tenants = await listTenantsForStaff(await getDb());
  return { tenants: tenants.map((t) => ({ ...t, createdAt: format(t.createdAt, "dd MMM yyyy | HH:mm") })) };
}

export default function AdminPage() {
  const { tenants } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">Staff admin</h1>
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 text-slate-500">
          <tr>
            <th className="py-2">Agency</th>
            <th>Users</th>
            <th>Demo</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {tenants.map((t) => (
            <tr key={t.id} className="border-b border-slate-100 dark:border-slate-800">
              <td className="py-2">{t.name}</td>
              <td>{t.users}</td>
              <td>{t.isDemo ? "Yes" : "No"}</td>
              <td>{t.createdAt}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/error-page";
