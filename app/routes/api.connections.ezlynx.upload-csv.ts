import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiUploadEzlynxExport } from "~/services/connections/connections-api.server";
import { ServiceError } from "~/services/platform/errors.server";
import { FORM_TOKEN_FIELD, applyOnce } from "~/services/platform/idempotency.server";
import { getStorage } from "~/services/files/storage.server";
import { connectionIdField, jsonRoute, methodNotAllowed, parseInput, requireApiContext } from "~/utils/api.server";
import { readExportUpload } from "~/utils/export-upload.server";
import { problem } from "~/utils/problem.server";
import { singleLineText } from "~/utils/schemas";

const fields = z.object({
  connectionId: connectionIdField.optional(),
  name: singleLineText().min(1, "name cannot be blank.").max(100, "name is at most 100 characters.").optional(),
});

/**
 * Seed connections/ezlynx/upload-csv: multipart/form-data with the export in `file` (.csv or
 * .xlsx), and optionally `connectionId` (replace an EZLynx connection's export) or `name` (of a
 * new connection). All or nothing: when anything is refused, the uploaded bytes are deleted.
 * An `Idempotency-Key` header (16 to 200 characters) makes a retry of the same upload answer the
 * first outcome instead of creating a second connection; the retry's bytes are then discarded.
 */
export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  return jsonRoute(args, ["POST"], async () => {
    const ctx = await requireApiContext(request);
    if (!(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
      throw problem(415, "Send the export as multipart/form-data, in a field named file.");
    }
    const upload = await readExportUpload(request, ctx.tenantId);
    // Kept only when this request's upload became a connection's export.
    let used = false;
    try {
      if (upload.error || !upload.file) throw new ServiceError(upload.error ?? "Attach the export in a field named file.", 400, "file");
      const idempotencyKey = request.headers.get("Idempotency-Key");
      if (idempotencyKey !== null && (idempotencyKey.length < 16 || idempotencyKey.length > 200)) {
        throw new ServiceError("Idempotency-Key must be 16 to 200 characters.", 400);
      }
      const text = (name: string) => {
        const value = upload.formData.get(name);
        return typeof value === "string" && value !== "" ? value : undefined;
      };
      const input = parseInput(fields, { connectionId: text("connectionId"), name: text("name"), ...args.params });
      const file = upload.file;
      let applied = false;
      const apply = () => {
        applied = true;
        return apiUploadEzlynxExport(ctx, { connectionId: input.connectionId ?? null, name: input.name ?? null, file });
      };
      let data;
      if (idempotencyKey === null) {
        data = await apply();
      } else {
        // The tenant is part of the token: another agency's request with the same key is its own.
        const replayKey = new FormData();
        replayKey.set(FORM_TOKEN_FIELD, `${ctx.tenantId}:${idempotencyKey}`);
        replayKey.set("connectionId", input.connectionId ?? "");
        replayKey.set("name", input.name ?? "");
        replayKey.set("file", `${file.name}:${file.bytes}`);
        data = await applyOnce(ctx.db, { scope: "POST /api/connections/ezlynx/upload-csv", formData: replayKey }, apply);
      }
      // Answered from the first of two identical requests: these bytes are not used.
      used = applied;
      return { data };
    } finally {
      if (!used && upload.file)
        await getStorage()
          .delete(upload.file.key)
          .catch(() => {});
    }
  });
}

export const loader = methodNotAllowed;
