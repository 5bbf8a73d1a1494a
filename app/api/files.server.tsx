import { createReadableStreamFromReadable } from "@remix-run/node";
import { renderToStaticMarkup } from "react-dom/server";
import { z } from "zod";
import { EdaReportView, REPORT_CSS } from "~/components/eda-report";
import { getDomainConfig, saveDomainConfig } from "~/services/files/file-config.server";
import { signFileLink } from "~/services/files/file-links.server";
import { FILE_SORT, getFileReport, listFiles, openFileContent, requireFile } from "~/services/files/files.server";
import { NotFoundError } from "~/services/platform/errors.server";
import { listNotifications, markFileNotificationsRead, markNotificationRead } from "~/services/platform/notifications.server";
import { defineOperation } from "~/utils/api.server";
import { DomainConfigSchema, FILE_DOMAINS, FILE_STATUSES } from "~/utils/file-options";
import { problem } from "~/utils/problem.server";
import { receiveFileUpload } from "~/utils/upload.server";
import { singleLineText } from "~/utils/schemas";
import { cursorQuery, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from "~/utils/cursor.server";

// Seed §7 Files calls: the same services as /files, /files/:id, /files/config and the report page.

const tag = "Files";
const page = z.coerce
  .number({ error: "page must be a number." })
  .int("page must be a whole number.")
  .min(1, "page starts at 1.")
  .default(1);
const filters = {
  status: z.enum(FILE_STATUSES, { error: `status is one of ${FILE_STATUSES.join(", ")}.` }).optional(),
  domain: z.enum(FILE_DOMAINS, { error: `domain is one of ${FILE_DOMAINS.join(", ")}.` }).optional(),
  sort: FILE_SORT.query,
  page,
  ...cursorQuery,
};
const fileIdQuery = z.object({ fileId: z.string({ error: "fileId is required." }) });

export const filesUpload = defineOperation({
  idempotent: true,
  method: "POST",
  path: "/api/files",
  tag,
  summary: "Upload a file (multipart/form-data: file, domain); it is processed in the background",
  description: "Accepts .csv, .xls, .xlsx, .pdf, .doc and .docx up to UPLOAD_MAX_BYTES. Nothing is kept when refused.",
  from: "multipart",
  status: 201,
  response: z.object({ data: z.object({ fileId: z.string(), name: z.string(), renamed: z.boolean() }) }),
  run: async (ctx, _input, request) => {
    if (!(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
      throw problem(415, "Send the file as multipart/form-data, in a field named file.");
    }
    const outcome = await receiveFileUpload(request, ctx);
    if (!outcome.ok) {
      const detail = Object.values(outcome.fieldErrors).flat()[0] ?? "The upload was refused.";
      throw problem(outcome.status, detail, { errors: outcome.fieldErrors });
    }
    return { data: { fileId: outcome.fileId, name: outcome.name, renamed: outcome.renamed } };
  },
});

const list = (path: string, view: "mine" | "all", summary: string) =>
  defineOperation({
    method: "GET",
    path,
    tag,
    summary,
    input: z.object(filters),
    run: async (ctx, input) => ({ data: await listFiles(ctx, { view, ...input }) }),
  });

export const filesAll = list(
  "/api/files",
  "all",
  `The agency's files, filtered, sorted and paged: limit (default ${LIST_LIMIT_DEFAULT}, at most ${LIST_LIMIT_MAX}) and cursor (nextCursor of the previous page), or page (10 a page)`,
);
export const filesMine = list("/api/files/mine", "mine", "The files the caller uploaded");

export const filesByDomain = defineOperation({
  method: "GET",
  path: "/api/files/domain",
  tag,
  summary: "The agency's files of one domain (customers, policies, carriers, other)",
  input: z.object({ ...filters, domain: z.enum(FILE_DOMAINS, { error: `domain is one of ${FILE_DOMAINS.join(", ")}.` }) }),
  run: async (ctx, input) => ({ data: await listFiles(ctx, { view: "all", ...input }) }),
});

export const filesPublicUrl = defineOperation({
  method: "GET",
  path: "/api/files/get-public-url",
  tag,
  summary: "A signed public download URL that expires (PUBLIC_LINK_TTL_MINUTES)",
  description: "fileKey is the file's id; bucket is accepted for the original clients and ignored (storage is configured on the server).",
  input: z.object({ fileKey: z.string({ error: "fileKey is required." }), bucket: z.string().optional() }),
  response: z.object({ data: z.object({ url: z.string(), expiresAt: z.string() }) }),
  run: async (ctx, input, request) => {
    const file = await requireFile(ctx, input.fileKey);
    const link = signFileLink(file.id);
    return { data: { url: new URL(link.path, request.url).toString(), expiresAt: link.expiresAt.toISOString() } };
  },
});

export const filesConfigGet = defineOperation({
  method: "GET",
  path: "/api/files/config",
  tag,
  summary: "One domain's parse options",
  input: z.object({ domain: DomainConfigSchema.shape.domain }),
  run: async (ctx, input) => ({ data: await getDomainConfig(ctx.db, ctx.tenantId, input.domain) }),
});

export const filesConfigSave = defineOperation({
  method: "POST",
  path: "/api/files/config",
  tag,
  summary: "Save one domain's parse options ({ data: { domain, delimiter, headerRow, dateFormat, encoding } })",
  input: z.object({ data: DomainConfigSchema }, { error: "data is required." }),
  run: async (ctx, input) => {
    await saveDomainConfig(ctx, input.data);
    return { data: await getDomainConfig(ctx.db, ctx.tenantId, input.data.domain) };
  },
});

export const filesEdaReport = defineOperation({
  method: "GET",
  path: "/api/files/eda-report",
  tag,
  summary: "A tabular file's exploratory data analysis report, as JSON",
  input: fileIdQuery,
  run: async (ctx, input) => {
    const { file, report } = await getFileReport(ctx, input.fileId);
    return { data: { fileId: file.id, report } };
  },
});

export const filesGetEda = defineOperation({
  method: "GET",
  path: "/api/files/get-eda",
  tag,
  summary: "The same report as a stand-alone HTML page (the original client writes it into a new window)",
  input: fileIdQuery,
  produces: "text/html",
  run: async (ctx, input) => {
    const { report } = await getFileReport(ctx, input.fileId);
    const body = renderToStaticMarkup(<EdaReportView report={report} />);
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Report</title><style>${REPORT_CSS}</style></head><body>${body}</body></html>`;
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store" } });
  },
});

export const filesDownload = defineOperation({
  method: "GET",
  path: "/api/files/download",
  tag,
  summary: "Download a file (fileName: the file's id, as the list gives it)",
  input: z.object({ fileName: z.string({ error: "fileName is required." }) }),
  produces: "application/octet-stream",
  run: async (ctx, input) => {
    const file = await requireFile(ctx, input.fileName);
    const { stream, headers } = await openFileContent(file);
    return new Response(createReadableStreamFromReadable(stream), { headers });
  },
});

export const filesUserInformation = defineOperation({
  method: "GET",
  path: "/api/files/file-user-information",
  tag,
  summary: "The caller's unread notifications (files processed or failed, imports…), 20 a page",
  input: z.object({ page }),
  run: async (ctx, input) => {
    const { notifications, total } = await listNotifications(ctx, { filter: "unread", page: input.page });
    return { data: notifications, total };
  },
});

export const filesUpdateReadStatus = defineOperation({
  method: "PATCH",
  path: "/api/files/update-read-status",
  tag,
  summary: "Mark notifications read: one by id, or every unread one about a file (file_name)",
  input: z
    .object({ id: z.string().optional(), file_name: singleLineText().min(1).max(300).optional() })
    .refine((v) => v.id || v.file_name, { message: "Send id or file_name.", path: ["id"] }),
  run: async (ctx, input) => {
    if (input.id) {
      await markNotificationRead(ctx, input.id);
      return { data: { marked: 1 } };
    }
    const marked = await markFileNotificationsRead(ctx, input.file_name ?? "");
    if (marked === 0) throw new NotFoundError("No unread notification about this file.");
    return { data: { marked } };
  },
});
