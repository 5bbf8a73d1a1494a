import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { FileStatusPill } from "~/components/file-status";
import { FileUploadForm } from "~/components/file-upload-form";
import { Pagination } from "~/components/pagination";
import { Button } from "~/components/shell";
import { DOMAIN_LABELS, FILE_DOMAINS, FILE_STATUSES } from "~/utils/file-options";
import { getEnv } from "~/env.server";
import { FILES_PAGE_SIZE, listFiles } from "~/services/files/files.server";
import { ACTIVE_STATUSES } from "~/utils/file-status";
import { requireTenantContext } from "~/utils/auth.server";
import { formatBytes } from "~/utils/date-time";
import { pageCountFor, readPage } from "~/utils/pagination";
import { redirectWithToast } from "~/utils/toast.server";
import { receiveFileUpload, uploadToast } from "~/utils/upload.server";
import { cn } from "~/utils/cn";
import { formatDateTime } from "~/utils/format";

const FiltersSchema = z.object({
  view: z.enum(["mine", "all"]).catch("all"),
  status: z.enum(FILE_STATUSES).optional().catch(undefined),
  domain: z.enum(FILE_DOMAINS).optional().catch(undefined),
  sort: z.enum(["newest", "oldest"]).catch("newest"),
});

export const meta: MetaFunction = () => [{ title: "Files | Remarket" }];

export const handle = { description: "Uploaded exports and documents, with a data-quality report for each table." };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const url = new URL(request.url);
  const filters = FiltersSchema.parse(Object.fromEntries(url.searchParams));
  const page = readPage(url);
  const { files, total } = await listFiles(ctx, { ...filters, page });
  const timeZone = ctx.auth.tenant.timeZone;
  return {
    filters,
    page,
    pageCount: pageCountFor(total, FILES_PAGE_SIZE),
    total,
    maxBytes: getEnv().UPLOAD_MAX_BYTES,
    files: files.map((f) => ({
      id: f.id,
      name: f.name,
      extension: f.extension,
      size: formatBytes(f.size),
      domain: DOMAIN_LABELS[f.domain],
      status: f.status,
      uploadedBy: f.uploadedByName ?? "Former user",
      uploadedAt: formatDateTime(f.createdAt, timeZone),
      duplicate: f.duplicate,
    })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const outcome = await receiveFileUpload(request, ctx);
  if (!outcome.ok) return data({ fieldErrors: outcome.fieldErrors, fields: outcome.fields }, { status: outcome.status });
  return redirectWithToast("/files?view=mine", uploadToast(outcome));
}

export default function FilesPage() {
  const { files, filters, page, pageCount, total, maxBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const revalidator = useRevalidator();
  const active = files.some((f) => ACTIVE_STATUSES.includes(f.status));

  // With JavaScript the list follows processing by itself; without, a refresh shows it.
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, 1500);
    return () => clearInterval(timer);
  }, [active, revalidator]);

  const tab = (view: "all" | "mine") => {
    const next = new URLSearchParams(params);
    next.set("view", view);
    next.delete("page");
    return `?${next}`;
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 className="text-2xl font-bold">Files</h1>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Upload exports and documents; tabular files get a data-quality report.
          </p>
        </div>
        <Link to="/files/config" className="text-sm font-semibold text-brand-600 hover:underline">
          Parse settings per domain
        </Link>
      </div>

      <FileUploadForm
        domains={FILE_DOMAINS.map((d) => ({ value: d, label: DOMAIN_LABELS[d] }))}
        maxBytes={maxBytes}
        errors={actionData?.fieldErrors}
        defaultDomain={actionData?.fields?.domain}
      />

      <section className="space-y-3" aria-label="Uploaded files">
        <nav className="flex gap-2" aria-label="Whose files">
          {(["all", "mine"] as const).map((view) => (
            <Link
              key={view}
              to={tab(view)}
              aria-current={filters.view === view ? "page" : undefined}
              className={cn(
                "rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset ring-slate-300 dark:ring-slate-600",
                filters.view === view && "bg-brand-600 text-white ring-brand-600",
              )}
            >
              {view === "all" ? "All files" : "My files"}
            </Link>
          ))}
        </nav>
        <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Filter files">
          <input type="hidden" name="view" value={filters.view} />
          <FilterSelect name="status" label="Status" value={filters.status} options={FILE_STATUSES.map((s) => [s, s])} all="Any status" />
          <FilterSelect
            name="domain"
            label="Domain"
            value={filters.domain}
            options={FILE_DOMAINS.map((d) => [d, DOMAIN_LABELS[d]])}
            all="Any domain"
          />
          <FilterSelect
            name="sort"
            label="Sort"
            value={filters.sort}
            options={[
              ["newest", "Newest first"],
              ["oldest", "Oldest first"],
            ]}
          />
          <Button type="submit" variant="secondary">
            Apply
          </Button>
        </Form>

        {files.length === 0 ? (
          <p className="rounded-lg bg-white p-6 text-sm text-slate-600 ring-1 ring-slate-200 dark:bg-slate-900 dark:text-slate-300 dark:ring-slate-800">
            No files yet{filters.status || filters.domain ? " match these filters" : ""}.
          </p>
        ) : (
          <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
            <table className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800">
              <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 dark:bg-slate-800">
                <tr>
                  <th className="px-4 py-2">Name</th>
                  <th className="px-4 py-2">Type</th>
                  <th className="px-4 py-2 text-right">Size</th>
                  <th className="px-4 py-2">Domain</th>
                  <th className="px-4 py-2">Uploaded by</th>
                  <th className="px-4 py-2">Uploaded at</th>
                  <th className="px-4 py-2">Status</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {files.map((f) => (
                  <tr key={f.id} data-testid="file-row">
                    <td className="max-w-xs px-4 py-2">
                      <Link to={`/files/${f.id}`} className="break-words font-medium text-brand-700 hover:underline dark:text-brand-100">
                        {f.name}
                      </Link>
                      {f.duplicate ? (
                        <span className="ml-2 text-xs text-slate-500" data-testid="duplicate-note">
                          {f.duplicate.newest ? `newest of ${f.duplicate.copies} with this name` : "older copy"}
                        </span>
                      ) : null}
                    </td>
                    <td className="px-4 py-2">{f.extension.toUpperCase()}</td>
                    <td className="whitespace-nowrap px-4 py-2 text-right tabular-nums">{f.size}</td>
                    <td className="px-4 py-2">{f.domain}</td>
                    <td className="px-4 py-2">{f.uploadedBy}</td>
                    <td className="whitespace-nowrap px-4 py-2 tabular-nums">{f.uploadedAt}</td>
                    <td className="px-4 py-2">
                      <FileStatusPill status={f.status} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="text-xs text-slate-500">
          {total} file{total === 1 ? "" : "s"}
        </p>
        <Pagination page={page} pageCount={pageCount} />
      </section>
    </div>
  );
}

function FilterSelect({
  name,
  label,
  value,
  options,
  all,
}: {
  name: string;
  label: string;
  value?: string;
  options: [string, string][];
  all?: string;
}) {
  return (
    <label className="text-sm">
      <span className="block font-medium text-slate-700 dark:text-slate-200">{label}</span>
      <select
        name={name}
        defaultValue={value ?? ""}
        className="mt-1 rounded-md border-0 bg-white px-3 py-2 text-sm ring-1 ring-inset ring-slate-300 dark:bg-slate-900 dark:ring-slate-600"
      >
        {all ? <option value="">{all}</option> : null}
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
