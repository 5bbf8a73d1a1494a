import { Readable } from "node:stream";
import { uploadKeyFor, type UploadedFile } from "~/services/connections/connections.server";
import { ContentMismatchError, checkedContent } from "~/services/files/file-types.server";
import { FileTooLargeError, getStorage } from "~/services/files/storage.server";
import { BodyTooLargeError, MalformedMultipartError, readMultipart, type FilePart } from "./multipart.server";
import { MULTIPART_OVERHEAD_BYTES } from "./http-limits.server";

export const MAX_EXPORT_BYTES = 100 * 1024 * 1024;
const EXPORT_TYPES = /\.(csv|txt|tsv|xlsx)$/i;
const TOO_LARGE = `The file is larger than ${Math.round(MAX_EXPORT_BYTES / 1024 / 1024)} MB.`;

export type ExportUpload = { formData: FormData; file: UploadedFile | null; error: string | null; status: 400 | 413 };

/**
 * Read the step-1 form. The export file streams straight into storage under a generated,
 * tenant-scoped key (never the user's file name), once its first bytes match its type (a .xlsx
 * must be a zip, a .csv text); text fields stay in memory. Only the key created here counts as the
 * upload, so a crafted text field named "file" cannot point at someone else's file. A malformed
 * body is an error like any other (nothing kept), never a 500.
 */
export async function readExportUpload(request: Request, tenantId: string): Promise<ExportUpload> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data"))
    return { formData: await request.formData(), file: null, error: null, status: 400 };
  const formData = new FormData();
  let file: UploadedFile | null = null;
  let error: string | null = null;
  let status: 400 | 413 = 400;

  const onFile = async (part: FilePart) => {
    const iterator = part.data[Symbol.asyncIterator]();
    const drain = async () => {
      while (!(await iterator.next()).done) {
        // discard
      }
    };
    if (part.field !== "file" || file || error) return drain();
    if (!part.fileName) return drain(); // an empty file input
    if (!EXPORT_TYPES.test(part.fileName)) {
      error = part.fileName.toLowerCase().endsWith(".xls")
        ? "Old Excel files (.xls) cannot be read: save the export as .xlsx or .csv."
        : "Upload the export as a .csv or .xlsx file.";
      return drain();
    }
    const key = uploadKeyFor(tenantId, part.fileName);
    const kind = part.fileName.toLowerCase().endsWith(".xlsx") ? "xlsx" : "csv";
    try {
      const { bytes } = await getStorage().write(key, Readable.from(checkedContent(iterator, kind)), { maxBytes: MAX_EXPORT_BYTES });
      if (bytes === 0) {
        await getStorage().delete(key);
        error = "The file is empty.";
        return;
      }
      file = { key, name: part.fileName.slice(0, 200), bytes };
      formData.set("file", part.fileName);
    } catch (e) {
      if (e instanceof FileTooLargeError) {
        error = TOO_LARGE;
        status = 413;
      } else if (e instanceof ContentMismatchError) error = e.message;
      else throw e;
      await drain();
    }
  };

  try {
    await readMultipart(
      request,
      { onField: (name, value) => formData.append(name, value), onFile },
      { maxBodyBytes: MAX_EXPORT_BYTES + MULTIPART_OVERHEAD_BYTES, maxFieldBytes: 1_000_000 },
    );
  } catch (e) {
    const stored = file as UploadedFile | null;
    if (stored)
      await getStorage()
        .delete(stored.key)
        .catch(() => {});
    if (e instanceof MalformedMultipartError) return { formData, file: null, error: e.message, status: 400 };
    if (e instanceof BodyTooLargeError) return { formData, file: null, error: TOO_LARGE, status: 413 };
    throw e;
  }
  return { formData, file, error, status };
}

/** A file uploaded by an earlier submit of the same form (kept in hidden fields), if it is the tenant's. */
export async function previousUpload(formData: FormData, tenantId: string): Promise<UploadedFile | null> {
  const key = formData.get("uploadedKey");
  const name = formData.get("uploadedName");
  if (typeof key !== "string" || typeof name !== "string" || !key.startsWith(`tenants/${tenantId}/connections/`)) return null;
  if (!/^[A-Za-z0-9/_.-]+$/.test(key) || key.includes("..")) return null;
  const bytes = await getStorage().size(key);
  return bytes === null ? null : { key, name: name.slice(0, 200), bytes };
}
