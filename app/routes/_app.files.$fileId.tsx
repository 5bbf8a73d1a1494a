import { data, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { FileStatusPill } from "~/components/file-status";
import { PostForm, Button, Notice } from "~/components/shell";
import { getEnv } from "~/env.server";
import { isServiceError } from "~/services/platform/errors.server";
import { signFileLink } from "~/services/files/file-links.server";
import { getFileDetail, requireFile } from "~/services/files/files.server";
import { ACTIVE_STATUSES } from "~/utils/file-status";
import { requireTenantContext } from "~/utils/auth.server";
import { formatBytes } from "~/utils/date-time";
import { formatCount, formatDateTime } from "~/utils/format";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.file.name ?? "File"} | Remarket` }];

async function load(request: Request, context: AppLoadContext, fileId: string) {
  const ctx = await requireTenantContext(request, context);
  try {
    return { ctx, detail: await getFileDetail(ctx, fileId) };
  } catch (error) {
    if (isServiceError(error) && error.status === 404) throw new Response("File not found", { status: 404 });
    throw error;
  }
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { ctx, detail } = await load(request, context, params.fileId ?? "");
  const tz = ctx.auth.tenant.timeZone;
  const { file, job } = detail;
  return {
    file: {
      id: file.id,
      name: file.name,
      extension: file.extension,
      contentType: file.contentType,
      size: formatBytes(file.size),
      domain: file.domain,
      status: file.status,
      failureReason: file.failureReason,
      metadata: file.metadata,
      uploadedAt: formatDateTime(file.createdAt, tz),
      uploadedBy: detail.uploadedByName ?? "Former user",
    },
    history: detail.history.map((h) => ({
      status: h.status,
      message: h.message,
      at: formatDateTime(h.createdAt, tz),
      iso: h.createdAt.toISOString(),
    })),
    job: job
      ? {
          status: job.status,
          attempts: job.attempts,
          maxAttempts: job.maxAttempts,
          lastError: job.lastError,
          nextRun: job.status === "queued" && job.attempts > 0 ? formatDateTime(job.runAt, tz) : null,
          rows: typeof job.progress?.rows === "number" ? job.progress.rows : null,
        }
      : null,
    hasReport: detail.hasReport,
    linkMinutes: getEnv().PUBLIC_LINK_TTL_MINUTES,
  };
}

/** "Copy public link" (seed files/get-public-url): a signed URL that expires. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  try {
    await requireFile(ctx, params.fileId ?? "");
  } catch (error) {
    if (isServiceError(error) && error.status === 404) throw new Response("File not found", { status: 404 });
    throw error;
  }
  const link = signFileLink(params.fileId!);
  return data({ publicUrl: `${getEnv().appUrl}${link.path}`, expiresAt: formatDateTime(link.expiresAt, ctx.auth.tenant.timeZone) });
}

export default function FileDetailPage() {
  const { file, history, job, hasReport, linkMinutes } = useLoaderData<typeof loader>();
  const link = useActionData<typeof action>();
  const revalidator = useRevalidator();
  const active = ACTIVE_STATUSES.includes(file.status);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 1500);
    return () => clearInterval(timer);
  }, [active, revalidator]);

  return (
    <div className="space-y-6">
      <div>
        <Link to="/files" className="text-sm text-brand-600 hover:underline">
          ← Files
        </Link>
        <h1 className="mt-1 flex flex-wrap items-center gap-3 break-all text-2xl font-bold" data-testid="file-name">
          {file.name} <FileStatusPill status={file.status} />
        </h1>
      </div>
      {file.status === "Failed" ? (
        <Notice tone="error">
          <strong>Processing failed:</strong> <span data-testid="failure-reason">{file.failureReason}</span>
        </Notice>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <a
          href={`/files/${file.id}/download`}
          className="rounded-md bg-brand-600 px-3.5 py-2 text-sm font-semibold text-white hover:bg-brand-700"
          download
        >
          Download
        </a>
        {hasReport ? (
          <>
            <a
              href={`/files/${file.id}/report`}
              target="_blank"
              rel="noopener"
              className="rounded-md px-3.5 py-2 text-sm font-semibold ring-1 ring-inset ring-slate-300 hover:bg-slate-50 dark:ring-slate-600"
            >
              Open report
            </a>
            <a
              href={`/files/${file.id}/report/download`}
              className="rounded-md px-3.5 py-2 text-sm font-semibold ring-1 ring-inset ring-slate-300 hover:bg-slate-50 dark:ring-slate-600"
            >
              Download report (HTML)
            </a>
          </>
        ) : null}
        <PostForm>
          <Button type="submit" variant="secondary">
            Copy public link
          </Button>
        </PostForm>
      </div>
      {link ? <PublicLink url={link.publicUrl} expiresAt={link.expiresAt} minutes={linkMinutes} /> : null}

      <div className="grid gap-6 md:grid-cols-2">
        <section className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
          <h2 className="mb-3 font-semibold">Details</h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-500">Type</dt>
            <dd>
              .{file.extension} <span className="text-slate-500">({file.contentType})</span>
            </dd>
            <dt className="text-slate-500">Size</dt>
            <dd>{file.size}</dd>
            <dt className="text-slate-500">Domain</dt>
            <dd className="capitalize">{file.domain}</dd>
            <dt className="text-slate-500">Uploaded by</dt>
            <dd>{file.uploadedBy}</dd>
            <dt className="text-slate-500">Uploaded at</dt>
            <dd>{file.uploadedAt}</dd>
            {file.metadata?.version ? (
              <>
                <dt className="text-slate-500">Version</dt>
                <dd>{file.metadata.version}</dd>
              </>
            ) : null}
            {file.metadata && "pages" in file.metadata ? (
              <>
                <dt className="text-slate-500">Pages</dt>
                <dd data-testid="file-pages">{file.metadata.pages ?? "not recorded in the file"}</dd>
              </>
            ) : null}
            {file.metadata?.words ? (
              <>
                <dt className="text-slate-500">Words</dt>
                <dd>{file.metadata.words}</dd>
              </>
            ) : null}
            {file.metadata?.title ? (
              <>
                <dt className="text-slate-500">Title</dt>
                <dd>{file.metadata.title}</dd>
              </>
            ) : null}
            {file.metadata?.author ? (
              <>
                <dt className="text-slate-500">Author</dt>
                <dd>{file.metadata.author}</dd>
              </>
            ) : null}
          </dl>
          {job ? (
            <p className="mt-4 text-xs text-slate-500" data-testid="job-status">
              Processing job: {job.status}, attempt {job.attempts} of {job.maxAttempts}
              {job.rows !== null && active ? `, ${formatCount(job.rows, "row")} read` : ""}
              {job.nextRun ? `, next try ${job.nextRun}` : ""}
              {job.lastError && job.status !== "succeeded" ? ` (last error: ${job.lastError})` : ""}
            </p>
          ) : null}
        </section>
        <section className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
          <h2 className="mb-3 font-semibold">Status history</h2>
          <ol className="space-y-2 text-sm" data-testid="status-history">
            {history.map((h) => (
              <li key={`${h.status}-${h.iso}`} className="flex flex-wrap items-center gap-2">
                <FileStatusPill status={h.status} />
                <time dateTime={h.iso} className="tabular-nums text-slate-600 dark:text-slate-300">
                  {h.at}
                </time>
                {h.message ? <span className="text-slate-500">{h.message}</span> : null}
              </li>
            ))}
          </ol>
        </section>
      </div>
    </div>
  );
}

function PublicLink({ url, expiresAt, minutes }: { url: string; expiresAt: string; minutes: number }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-1 rounded-md bg-slate-50 p-3 text-sm ring-1 ring-slate-200 dark:bg-slate-800 dark:ring-slate-700">
      <label htmlFor="public-link" className="font-medium">
        Public link (anyone with it can download the file for {minutes} minutes, until {expiresAt})
      </label>
      <div className="flex gap-2">
        <input
          id="public-link"
          readOnly
          value={url}
          className="w-full rounded-md bg-white px-2 py-1 font-mono text-xs ring-1 ring-slate-300 dark:bg-slate-900"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button
          type="button"
          variant="secondary"
          onClick={() =>
            navigator.clipboard?.writeText(url).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
