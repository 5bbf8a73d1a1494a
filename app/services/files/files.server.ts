import { randomUUID } from "node:crypto";
import { and, asc, count, eq, inArray, max, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { fileEvents, fileReports, files, jobs, users, type FileDomain, type FileExtension, type FileStatus } from "~/db/schema";
import { clock, type TenantContext, type TxContext } from "../platform/context.server";
import { LIST_LIMIT_DEFAULT, listSort, type SortOf } from "~/utils/cursor.server";
import { NotFoundError } from "../platform/errors.server";
import { CONTENT_TYPES } from "./file-types.server";
import { enqueueJob } from "../platform/jobs.server";
import { getStorage } from "./storage.server";

export const FILES_PAGE_SIZE = 10;
export const FILE_JOB = "file.process";

/** Where a new upload's bytes go: generated, never derived from the user's file name. */
export function newStorageKey(tenantId: string, ext: FileExtension) {
  return `tenants/${tenantId}/files/${randomUUID()}.${ext}`;
}

export type NewFile = { name: string; extension: FileExtension; size: number; domain: FileDomain; storageKey: string };

/**
 * Record a stored upload (status Uploaded, with its history entry) and queue its processing,
 * in one transaction. Returns how many older files share its name (both are kept).
 */
export async function createUploadedFile(ctx: TenantContext, input: NewFile) {
  const now = clock(ctx);
  return ctx.db.transaction(async (tx) => {
    const [{ same }] = await tx
      .select({ same: count() })
      .from(files)
      .where(and(eq(files.tenantId, ctx.tenantId), eq(files.name, input.name)));
    const [row] = await tx
      .insert(files)
      .values({
        tenantId: ctx.tenantId,
        uploadedBy: ctx.userId || null,
        name: input.name,
        extension: input.extension,
        contentType: CONTENT_TYPES[input.extension],
        size: input.size,
        domain: input.domain,
        storageKey: input.storageKey,
        status: "Uploaded",
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: files.id });
    await tx.insert(fileEvents).values({ tenantId: ctx.tenantId, fileId: row.id, status: "Uploaded", createdAt: now });
    const jobId = await enqueueJob(tx, { type: FILE_JOB, tenantId: ctx.tenantId, payload: { fileId: row.id }, maxAttempts: 3 });
    await tx
      .update(files)
      .set({ jobId })
      .where(and(eq(files.tenantId, ctx.tenantId), eq(files.id, row.id)));
    return { id: row.id, sameName: Number(same) };
  });
}

/**
 * Move a file to `to`, recording the transition with its time. Only from one of `from` (when
 * given) and never to the status it already has, so a retried job cannot record twice.
 * cross-tenant: called by the file job and by services that already hold the tenant's file row; the id is never user input.
 */
export async function transitionFile(
  db: DbOrTx,
  fileId: string,
  to: FileStatus,
  options: { from?: FileStatus[]; message?: string | null; now?: Date } = {},
) {
  const now = options.now ?? new Date();
  const conditions: SQL[] = [eq(files.id, fileId), sql`${files.status} <> ${to}`];
  if (options.from) conditions.push(inArray(files.status, options.from));
  const [row] = await db
    .update(files)
    .set({ status: to, updatedAt: now, failureReason: to === "Failed" ? (options.message ?? "Processing failed") : null })
    .where(and(...conditions))
    .returning({ tenantId: files.tenantId });
  if (!row) return false;
  await db.insert(fileEvents).values({ tenantId: row.tenantId, fileId, status: to, message: options.message ?? null, createdAt: now });
  return true;
}

/** The file list's orders: newest first unless asked; `newest` and `oldest` are the page's words for them. */
export const FILE_SORT = listSort({
  fields: { createdAt: { expr: files.createdAt, kind: "timestamp" }, name: { expr: files.name, kind: "text" } },
  then: [{ expr: files.id, kind: "uuid" }],
  default: "-createdAt",
  aliases: { newest: "-createdAt", oldest: "createdAt" },
});

export type FileListFilters = {
  view: "mine" | "all";
  status?: FileStatus;
  domain?: FileDomain;
  sort: SortOf<typeof FILE_SORT>;
  page: number;
  /** Keyset paging (the API): at most `limit` rows after `cursor`; `page` is then ignored. */
  limit?: number;
  cursor?: string;
};

/** The tenant's files (or the user's own: seed files/mine), filtered, sorted and paged on the server. */
export async function listFiles(ctx: TenantContext, filters: FileListFilters) {
  const conditions: SQL[] = [eq(files.tenantId, ctx.tenantId)];
  if (filters.view === "mine") conditions.push(eq(files.uploadedBy, ctx.userId));
  if (filters.status) conditions.push(eq(files.status, filters.status));
  if (filters.domain) conditions.push(eq(files.domain, filters.domain));
  const where = and(...conditions);
  const [{ total }] = await ctx.db.select({ total: count() }).from(files).where(where);
  const keyset = filters.limit !== undefined || filters.cursor !== undefined;
  const size = keyset ? (filters.limit ?? LIST_LIMIT_DEFAULT) : FILES_PAGE_SIZE;
  const after = FILE_SORT.after(filters.sort, filters.cursor);
  const found = await ctx.db
    .select({
      id: files.id,
      name: files.name,
      extension: files.extension,
      size: files.size,
      domain: files.domain,
      status: files.status,
      failureReason: files.failureReason,
      createdAt: files.createdAt,
      uploadedByName: users.name,
      cursorKey: FILE_SORT.key(filters.sort),
    })
    .from(files)
    .leftJoin(users, eq(users.id, files.uploadedBy))
    .where(and(...conditions, after))
    .orderBy(...FILE_SORT.orderBy(filters.sort))
    .limit(size + 1)
    .offset(keyset ? 0 : (filters.page - 1) * FILES_PAGE_SIZE);
  const { rows, nextCursor } = FILE_SORT.page(found, size, filters.sort);
  const names = [...new Set(rows.map((r) => r.name))];
  const duplicates = names.length
    ? await ctx.db
        .select({ name: files.name, copies: count(), newest: max(files.createdAt) })
        .from(files)
        .where(and(eq(files.tenantId, ctx.tenantId), inArray(files.name, names)))
        .groupBy(files.name)
    : [];
  const byName = new Map(duplicates.map((d) => [d.name, d]));
  return {
    total: Number(total),
    nextCursor,
    files: rows.map((r) => {
      const dup = byName.get(r.name);
      const copies = dup ? Number(dup.copies) : 1;
      return {
        ...r,
        duplicate: copies > 1 ? { copies, newest: dup!.newest?.getTime() === r.createdAt.getTime() } : null,
      };
    }),
  };
}

/** One file of the tenant with its history, job and report flag; 404 for anyone else's. */
export async function getFileDetail(ctx: TenantContext, fileId: string) {
  const file = await requireFile(ctx, fileId);
  const [history, job, report, uploader] = await Promise.all([
    ctx.db
      .select({ status: fileEvents.status, message: fileEvents.message, createdAt: fileEvents.createdAt })
      .from(fileEvents)
      .where(and(eq(fileEvents.fileId, file.id), eq(fileEvents.tenantId, ctx.tenantId)))
      .orderBy(asc(fileEvents.createdAt)),
    file.jobId
      ? ctx.db
          .select({
            status: jobs.status,
            attempts: jobs.attempts,
            maxAttempts: jobs.maxAttempts,
            lastError: jobs.lastError,
            runAt: jobs.runAt,
            progress: jobs.progress,
          })
          .from(jobs)
          .where(and(eq(jobs.id, file.jobId), eq(jobs.tenantId, ctx.tenantId)))
          .then((r) => r[0] ?? null)
      : Promise.resolve(null),
    ctx.db
      .select({ fileId: fileReports.fileId })
      .from(fileReports)
      .where(and(eq(fileReports.fileId, file.id), eq(fileReports.tenantId, ctx.tenantId)))
      .then((r) => r.length > 0),
    file.uploadedBy
      ? ctx.db
          .select({ name: users.name })
          .from(users)
          .where(and(eq(users.tenantId, ctx.tenantId), eq(users.id, file.uploadedBy)))
          .then((r) => r[0]?.name ?? null)
      : Promise.resolve(null),
  ]);
  return { file, history, job, hasReport: report, uploadedByName: uploader };
}

/** The file row of this tenant, or NotFoundError (another tenant's id looks like a missing one). */
export async function requireFile(ctx: Pick<TxContext, "db" | "tenantId">, fileId: string) {
  if (!isUuid(fileId)) throw new NotFoundError("File not found");
  const [file] = await ctx.db
    .select()
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.tenantId, ctx.tenantId)));
  if (!file) throw new NotFoundError("File not found");
  return file;
}

/** The EDA report of a tenant's file, or NotFoundError. */
export async function getFileReport(ctx: TenantContext, fileId: string) {
  const file = await requireFile(ctx, fileId);
  const [row] = await ctx.db
    .select({ report: fileReports.report, createdAt: fileReports.createdAt })
    .from(fileReports)
    .where(and(eq(fileReports.fileId, file.id), eq(fileReports.tenantId, ctx.tenantId)));
  if (!row) throw new NotFoundError("This file has no report (yet)");
  return { file, report: row.report };
}

/** Bytes and headers for downloading a file (a tenant's, or any file behind a verified public link). */
export async function openFileContent(file: { storageKey: string; name: string; extension: FileExtension; size: number }) {
  const stream = await getStorage().read(file.storageKey);
  return {
    stream,
    headers: {
      "Content-Type": CONTENT_TYPES[file.extension],
      "Content-Length": String(file.size),
      "Content-Disposition": contentDisposition(file.name),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  };
}

/**
 * Any tenant's file by id, for a public link whose signature was already verified.
 * cross-tenant: the link's signature, verified by the caller, names the file; a public link has no tenant session.
 */
export async function getFileForPublicLink(db: DbOrTx, fileId: string) {
  if (!isUuid(fileId)) return null;
  const [file] = await db
    .select({ storageKey: files.storageKey, name: files.name, extension: files.extension, size: files.size })
    .from(files)
    .where(eq(files.id, fileId));
  return file ?? null;
}

/** `attachment` with an ASCII fallback and the exact name in RFC 5987 form. */
export function contentDisposition(name: string) {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function isUuid(value: string) {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
