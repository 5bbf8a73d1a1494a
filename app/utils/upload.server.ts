import { Readable } from "node:stream";
import { z } from "zod";
import { FILE_DOMAINS, type FileExtension } from "~/db/schema";
import { getEnv } from "~/env.server";
import type { TenantContext } from "~/services/platform/context.server";
import {
  ACCEPTED_TYPES_MESSAGE,
  ContentMismatchError,
  checkedContent,
  extensionOf,
  sanitizeFileName,
} from "~/services/files/file-types.server";
import { createUploadedFile, newStorageKey } from "~/services/files/files.server";
import { FileTooLargeError, getStorage } from "~/services/files/storage.server";
import { formatBytes } from "~/utils/date-time";
import { applyFormOnce } from "./forms.server";
import { MULTIPART_OVERHEAD_BYTES } from "./http-limits.server";
import { BodyTooLargeError, MalformedMultipartError, readMultipart, type FilePart } from "./multipart.server";

export const UploadFieldsSchema = z.object({
  domain: z.enum(FILE_DOMAINS, { error: "Choose what the file holds." }),
});

export type UploadOutcome =
  | { ok: true; fileId: string; name: string; renamed: boolean; sameName: number }
  | { ok: false; status: number; fieldErrors: Record<string, string[]>; fields: Record<string, string> };

type StoredPart = { name: string; extension: FileExtension; size: number; storageKey: string; renamed: boolean };

/**
 * Receive a multipart upload: the file part is streamed straight into storage (checked by
 * extension, by its first bytes, and against UPLOAD_MAX_BYTES), never held whole in memory.
 * User errors, a malformed body included, come back as field errors with nothing stored; the rest
 * of a rejected file part is read and discarded so the browser still gets the answer.
 */
export async function receiveFileUpload(request: Request, ctx: TenantContext): Promise<UploadOutcome> {
  const maxBytes = getEnv().UPLOAD_MAX_BYTES;
  const tooLarge = `The file is larger than ${formatBytes(maxBytes)}.`;
  const length = Number(request.headers.get("Content-Length") ?? 0);
  // A declared body far over the limit is refused before a byte is read.
  if (length > maxBytes + MULTIPART_OVERHEAD_BYTES) return { ok: false, status: 413, fieldErrors: { file: [tooLarge] }, fields: {} };

  const fields: Record<string, string> = {};
  let stored: StoredPart | null = null;
  let fileError: string | null = null;
  const storage = getStorage();

  const onFile = async (part: FilePart) => {
    const iterator = part.data[Symbol.asyncIterator]();
    const drain = async () => {
      while (!(await iterator.next()).done) {
        // discard
      }
    };
    if (part.field !== "file" || stored || fileError) return drain();
    const name = sanitizeFileName(part.fileName);
    const extension = extensionOf(name);
    if (!part.fileName) fileError = "Choose a file to upload.";
    else if (!extension) fileError = ACCEPTED_TYPES_MESSAGE;
    if (fileError || !extension) return drain();
    const storageKey = newStorageKey(ctx.tenantId, extension);
    try {
      const { bytes } = await storage.write(storageKey, Readable.from(checkedContent(iterator, extension)), { maxBytes });
      if (bytes === 0) {
        await storage.delete(storageKey);
        fileError = "The file is empty.";
      } else {
        stored = { name, extension, size: bytes, storageKey, renamed: name !== part.fileName };
      }
    } catch (error) {
      if (error instanceof ContentMismatchError) fileError = error.message;
      else if (error instanceof FileTooLargeError) fileError = tooLarge;
      else throw error;
      await drain();
    }
  };

  try {
    await readMultipart(
      request,
      { onField: (name, value) => void (fields[name] = value), onFile },
      { maxBodyBytes: maxBytes + MULTIPART_OVERHEAD_BYTES },
    );
  } catch (error) {
    if (stored) await storage.delete((stored as StoredPart).storageKey).catch(() => {});
    if (error instanceof MalformedMultipartError) return { ok: false, status: 400, fieldErrors: { file: [error.message] }, fields };
    if (error instanceof BodyTooLargeError) return { ok: false, status: 413, fieldErrors: { file: [tooLarge] }, fields };
    throw error;
  }

  const parsed = UploadFieldsSchema.safeParse(fields);
  const fieldErrors: Record<string, string[]> = {};
  if (!parsed.success) for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] = [issue.message];
  if (fileError) fieldErrors.file = [fileError];
  else if (!stored) fieldErrors.file = ["Choose a file to upload."];
  const file = stored as StoredPart | null;
  if (Object.keys(fieldErrors).length > 0 || !file || !parsed.success) {
    if (file) await storage.delete(file.storageKey);
    return { ok: false, status: 400, fieldErrors, fields };
  }

  // A double submit of the same form (same one-time token, same file) records one file.
  const identity = new FormData();
  for (const [key, value] of Object.entries(fields)) identity.append(key, value);
  identity.append("file", `${file.name}:${file.size}`);
  let created = false;
  const result = await applyFormOnce(request, identity, async () => {
    created = true;
    const row = await createUploadedFile(ctx, { ...file, domain: parsed.data.domain });
    return { fileId: row.id, sameName: row.sameName };
  });
  if (!created) await storage.delete(file.storageKey);
  return { ok: true, fileId: result.fileId, name: file.name, renamed: file.renamed, sameName: result.sameName };
}

/** The toast after an upload: renamed and duplicate names are called out. */
export function uploadToast(outcome: { name: string; renamed: boolean; sameName: number }) {
  const notes = [
    outcome.renamed ? `Saved as “${outcome.name}”.` : null,
    outcome.sameName > 0 ? `A file with this name already exists; both are kept and this one is the newer.` : null,
  ].filter(Boolean);
  return { type: "success" as const, title: "File uploaded", message: [`${outcome.name} is queued for processing.`, ...notes].join(" ") };
}
