import { unstable_parseMultipartFormData, type UploadHandlerPart } from "@remix-run/node";
import { Readable } from "node:stream";
import { z } from "zod";
import { FILE_DOMAINS, type FileExtension } from "~/db/schema";
import { getEnv } from "~/env.server";
import type { TenantContext } from "~/services/context.server";
import { ACCEPTED_TYPES_MESSAGE, SNIFF_BYTES, contentMismatch, extensionOf, sanitizeFileName } from "~/services/file-types.server";
import { createUploadedFile, newStorageKey } from "~/services/files.server";
import { FileTooLargeError, getStorage } from "~/services/storage.server";
import { formatBytes } from "~/utils/date-time";
import { applyFormOnce } from "./forms.server";

export const UploadFieldsSchema = z.object({
  domain: z.enum(FILE_DOMAINS, { error: "Choose what the file holds." }),
});

export type UploadOutcome =
  | { ok: true; fileId: string; name: string; renamed: boolean; sameName: number }
  | { ok: false; status: number; fieldErrors: Record<string, string[]>; fields: Record<string, string> };

type StoredPart = { name: string; extension: FileExtension; size: number; storageKey: string; renamed: boolean };

class UploadRejected extends Error {}

/**
 * Receive a multipart upload: the file part is streamed straight into storage (checked by
 * extension, by its first bytes, and against UPLOAD_MAX_BYTES), never held whole in memory.
 * User errors come back as field errors with nothing stored; the rest of a rejected body is
 * read and discarded so the browser still gets the answer.
 */
export async function receiveFileUpload(request: Request, ctx: TenantContext): Promise<UploadOutcome> {
  const maxBytes = getEnv().UPLOAD_MAX_BYTES;
  const tooLarge = `The file is larger than ${formatBytes(maxBytes)}.`;
  const length = Number(request.headers.get("Content-Length") ?? 0);
  // A declared body far over the limit is refused before a byte is read.
  if (length > maxBytes + 1024 * 1024) return { ok: false, status: 413, fieldErrors: { file: [tooLarge] }, fields: {} };

  const fields: Record<string, string> = {};
  let stored: StoredPart | null = null;
  let fileError: string | null = null;
  const storage = getStorage();

  const handler = async (part: UploadHandlerPart) => {
    const iterator = part.data[Symbol.asyncIterator]();
    const drain = async () => {
      while (!(await iterator.next()).done) {
        // discard
      }
    };
    if (part.filename === undefined) {
      fields[part.name] = await readText(iterator, 64 * 1024);
      return undefined;
    }
    if (part.name !== "file" || stored || fileError) {
      await drain();
      return undefined;
    }
    const name = sanitizeFileName(part.filename);
    const extension = extensionOf(name);
    if (!part.filename) fileError = "Choose a file to upload.";
    else if (!extension) fileError = ACCEPTED_TYPES_MESSAGE;
    if (fileError || !extension) {
      await drain();
      return undefined;
    }
    const storageKey = newStorageKey(ctx.tenantId, extension);
    try {
      const { bytes } = await storage.write(storageKey, Readable.from(sniffed(iterator, extension)), { maxBytes });
      if (bytes === 0) {
        await storage.delete(storageKey);
        fileError = "The file is empty.";
      } else {
        stored = { name, extension, size: bytes, storageKey, renamed: name !== part.filename };
      }
    } catch (error) {
      if (error instanceof UploadRejected) fileError = error.message;
      else if (error instanceof FileTooLargeError) fileError = tooLarge;
      else throw error;
      await drain();
    }
    return undefined;
  };

  try {
    await unstable_parseMultipartFormData(request, handler);
  } catch (error) {
    if (stored) await storage.delete((stored as StoredPart).storageKey).catch(() => {});
    if (error instanceof TypeError && /FormData/.test(error.message)) {
      return { ok: false, status: 400, fieldErrors: { file: ["Choose a file to upload."] }, fields };
    }
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

/** Hold back the first bytes until the content check passes; nothing is written before it. */
async function* sniffed(iterator: AsyncIterator<Uint8Array>, extension: FileExtension) {
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let checked = false;
  const check = () => {
    const problem = contentMismatch(extension, Buffer.concat(head));
    if (problem) throw new UploadRejected(problem);
    checked = true;
  };
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    if (checked) {
      yield next.value;
      continue;
    }
    head.push(next.value);
    headBytes += next.value.length;
    if (headBytes >= SNIFF_BYTES) {
      check();
      yield* head;
    }
  }
  if (!checked && headBytes > 0) {
    check();
    yield* head;
  }
}

async function readText(iterator: AsyncIterator<Uint8Array>, max: number) {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    total += next.value.length;
    if (total <= max) chunks.push(next.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The toast after an upload: renamed and duplicate names are called out. */
export function uploadToast(outcome: { name: string; renamed: boolean; sameName: number }) {
  const notes = [
    outcome.renamed ? `Saved as “${outcome.name}”.` : null,
    outcome.sameName > 0 ? `A file with this name already exists; both are kept and this one is the newer.` : null,
  ].filter(Boolean);
  return { type: "success" as const, title: "File uploaded", message: [`${outcome.name} is queued for processing.`, ...notes].join(" ") };
}
