import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiUploadEzlynxExport } from "~/services/connections-api.server";
import { FORM_TOKEN_FIELD, applyOnce } from "~/services/idempotency.server";
import { getStorage } from "~/services/storage.server";
import { requireApiContext } from "~/utils/api.server";
import { answerConnectionsApi, connectionIdField, methodNotAllowed } from "~/utils/connections-api.server";
import { readExportUpload } from "~/utils/export-upload.server";
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
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  const ctx = await requireApiContext(request);
  if (!(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    return Response.json({ error: "Send the export as multipart/form-data, in a field named file." }, { status: 415 });
  }
  const upload = await readExportUpload(request, ctx.tenantId);
  const discard = () => (upload.file ? getStorage().delete(upload.file.key).catch(() => {}) : Promise.resolve());
  if (upload.error || !upload.file) {
    await discard();
    const message = upload.error ?? "Attach the export in a field named file.";
    return Response.json({ error: "Invalid request", fieldErrors: { file: [message] } }, { status: upload.error ? upload.status : 400 });
  }
  const text = (name: string) => {
    const value = upload.formData.get(name);
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const idempotencyKey = request.headers.get("Idempotency-Key");
  if (idempotencyKey !== null && (idempotencyKey.length < 16 || idempotencyKey.length > 200)) {
    await discard();
    return Response.json({ error: "Idempotency-Key must be 16 to 200 characters." }, { status: 400 });
  }
  const file = upload.file;
  let applied = false;
  const response = await answerConnectionsApi(ctx, { connectionId: text("connectionId"), name: text("name"), ...params }, {
    schema: fields,
    run: async (apiCtx, input) => {
      const apply = () => {
        applied = true;
        return apiUploadEzlynxExport(apiCtx, { connectionId: input.connectionId ?? null, name: input.name ?? null, file });
      };
      if (idempotencyKey === null) return apply();
      // The tenant is part of the token: another agency's request with the same key is its own.
      const replayKey = new FormData();
      replayKey.set(FORM_TOKEN_FIELD, `${apiCtx.tenantId}:${idempotencyKey}`);
      replayKey.set("connectionId", input.connectionId ?? "");
      replayKey.set("name", input.name ?? "");
      replayKey.set("file", `${file.name}:${file.bytes}`);
      return applyOnce(apiCtx.db, { scope: "POST /api/connections/ezlynx/upload-csv", formData: replayKey }, apply);
    },
  }).catch(async (thrown: unknown) => {
    await discard();
    throw thrown;
  });
  // Refused, or answered from the first of two identical requests: these bytes are not used.
  if (!response.ok || !applied) await discard();
  return response;
}

export const loader = methodNotAllowed;
