import { Readable } from "node:stream";
import {
  unstable_composeUploadHandlers as composeUploadHandlers,
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  unstable_parseMultipartFormData as parseMultipartFormData,
} from "@remix-run/node";
import { uploadKeyFor, type UploadedFile } from "~/services/connections.server";
import { FileTooLargeError, getStorage } from "~/services/storage.server";

export const MAX_EXPORT_BYTES = 100 * 1024 * 1024;
const EXPORT_TYPES = /\.(csv|txt|tsv|xlsx)$/i;

export type ExportUpload = { formData: FormData; file: UploadedFile | null; error: string | null };

/**
 * Read the step-1 form. The export file streams straight into storage under a generated,
 * tenant-scoped key (never the user's file name); text fields stay in memory. Only the key
 * created here counts as the upload, so a crafted text field named "file" cannot point at
 * someone else's file.
 */
export async function readExportUpload(request: Request, tenantId: string): Promise<ExportUpload> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("multipart/form-data")) return { formData: await request.formData(), file: null, error: null };
  let file: UploadedFile | null = null;
  let error: string | null = null;
  const exportHandler = async (part: { name: string; filename?: string; data: AsyncIterable<Uint8Array> }) => {
    if (part.name !== "file" || part.filename === undefined) return undefined;
    if (!part.filename) {
      for await (const _chunk of part.data) void _chunk; // an empty file input
      return "";
    }
    if (!EXPORT_TYPES.test(part.filename)) {
      for await (const _chunk of part.data) void _chunk;
      error = part.filename.toLowerCase().endsWith(".xls")
        ? "Old Excel files (.xls) cannot be read: save the export as .xlsx or .csv."
        : "Upload the export as a .csv or .xlsx file.";
      return "";
    }
    const key = uploadKeyFor(tenantId, part.filename);
    try {
      const { bytes } = await getStorage().write(key, Readable.from(part.data), { maxBytes: MAX_EXPORT_BYTES });
      if (bytes === 0) {
        await getStorage().delete(key);
        error = "The file is empty.";
        return "";
      }
      file = { key, name: part.filename.slice(0, 200), bytes };
      return part.filename;
    } catch (e) {
      if (e instanceof FileTooLargeError) {
        error = `The file is larger than ${Math.round(MAX_EXPORT_BYTES / 1024 / 1024)} MB.`;
        return "";
      }
      throw e;
    }
  };
  const formData = await parseMultipartFormData(
    request,
    composeUploadHandlers(exportHandler, createMemoryUploadHandler({ maxPartSize: 1_000_000 })),
  );
  return { formData, file, error };
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
