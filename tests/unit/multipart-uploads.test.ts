import { randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { connections, files } from "~/db/schema";
import * as uploadCsv from "~/routes/api.connections.ezlynx.upload-csv";
import * as values from "~/routes/api.connections.salesforce.mapping.attribute.$attribute.values";
import * as mapping from "~/routes/api.connections.salesforce.mapping._index";
import * as attributes from "~/routes/api.connections.salesforce.mapping.object.$object.attributes";
import * as objects from "~/routes/api.connections.salesforce.mapping.objects";
import { action as pageUpload } from "~/routes/_app.files._index";
import { action as xhrUpload } from "~/routes/resources.files.upload";
import { saveConnectionSettings, uploadKeyFor } from "~/services/connections/connections.server";
import { sampleExportText } from "~/services/connections/sample-export.server";
import { getStorage } from "~/services/files/storage.server";
import { bearerFor, createTestTenant, sessionCookieFor } from "../support/factories";

// Issue 12 §3: file names with "=" made Remix's multipart parser throw (500); a malformed body
// must be a 400 with nothing stored; "quoted" names came out as %22; the EZLynx upload API gave
// a 500 without a boundary, and kept garbage named .xlsx that later broke three mapping routes.

type Fn = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<unknown>;

async function answer(fn: Fn, request: Request, params: Record<string, string> = {}) {
  let response: Response;
  try {
    const result = await fn({ request, params, context: {} });
    response = result instanceof Response ? result : Response.json(result);
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, location: response.headers.get("Location"), json };
}

const BOUNDARY = "----remarket-test-boundary";

/** A multipart body written by hand, so a test controls every byte of the part headers. */
function rawMultipart(parts: { name: string; filename?: string; body: string | Buffer }[], { close = true } = {}) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? "" : `; filename="${part.filename}"`}`;
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${part.filename === undefined ? "" : "Content-Type: text/csv\r\n"}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(part.body) ? part.body : Buffer.from(part.body));
    chunks.push(Buffer.from("\r\n"));
  }
  if (close) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

let me: Awaited<ReturnType<typeof createTestTenant>> & { cookie: string };
beforeAll(async () => {
  const t = await createTestTenant();
  me = { ...t, cookie: await sessionCookieFor(t.user) };
});

function xhrRequest(body: BodyInit, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
  return new Request("http://localhost/resources/files/upload", {
    method: "POST",
    body,
    headers: { Cookie: me.cookie, "Content-Type": contentType },
  });
}

async function fileNamed(name: string) {
  const rows = await me.db.select({ name: files.name, storageKey: files.storageKey }).from(files).where(eq(files.tenantId, me.tenant.id));
  return rows.find((r) => r.name === name) ?? null;
}

/** Every object under the tenant's upload folder, finished or not (a refused upload leaves none). */
async function storedUnder(prefix: string) {
  const root = path.dirname(getStorage().localPath(`${prefix}/probe`)!);
  return readdir(root).catch(() => [] as string[]);
}

describe("file upload: names the old parser could not read", () => {
  test.each(["x=y.csv", "<img src=x onerror=alert(1)>.csv", "a; b=c.csv", "Prämien 2025 – Übersicht.csv"])(
    "%s is stored under its own name",
    async (name) => {
      const body = rawMultipart([
        { name: "domain", body: "policies" },
        { name: "file", filename: name, body: "a,b\n1,2\n" },
      ]);
      const result = await answer(xhrUpload as Fn, xhrRequest(body));
      expect(result.status).toBe(200);
      expect(result.json).toMatchObject({ ok: true });
      expect(await fileNamed(name)).not.toBeNull();
    },
  );

  test("a name with a double quote (sent by browsers as %22) is shown with the quote", async () => {
    const form = new FormData();
    form.append("domain", "policies");
    form.append("file", new File(["a,b\n1,2\n"], 'the "best" book.csv'));
    const result = await answer(
      pageUpload as Fn,
      new Request("http://localhost/files?index", { method: "POST", body: form, headers: { Cookie: me.cookie } }),
    );
    expect(result.status).toBe(302);
    expect(await fileNamed('the "best" book.csv')).not.toBeNull();
    expect(await fileNamed("the %22best%22 book.csv")).toBeNull();
  });
});

describe("file upload: a malformed body is a 400 with nothing stored", () => {
  test("a body cut off before its closing boundary", async () => {
    const before = await storedUnder(`tenants/${me.tenant.id}/files`);
    const body = rawMultipart(
      [
        { name: "domain", body: "policies" },
        { name: "file", filename: "cut-off.csv", body: "a,b\n".repeat(10_000) },
      ],
      { close: false },
    );
    const result = await answer(xhrUpload as Fn, xhrRequest(body.subarray(0, body.length - 10)));
    expect(result.status).toBe(400);
    expect(result.json).toMatchObject({ ok: false, fieldErrors: { file: [expect.stringMatching(/could not be read/)] } });
    expect(await fileNamed("cut-off.csv")).toBeNull();
    expect(await storedUnder(`tenants/${me.tenant.id}/files`)).toEqual(before);
  });

  test("a part header without a name, and a multipart type without a boundary", async () => {
    const broken = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; filename="x.csv"\r\n\r\na,b\r\n--${BOUNDARY}--\r\n`);
    expect((await answer(xhrUpload as Fn, xhrRequest(broken))).status).toBe(400);
    const noBoundary = await answer(
      xhrUpload as Fn,
      xhrRequest(rawMultipart([{ name: "domain", body: "policies" }]), "multipart/form-data"),
    );
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.json).toMatchObject({ ok: false, fieldErrors: { file: [expect.stringMatching(/could not be read/)] } });
  });
});

describe("/api/connections/ezlynx/upload-csv", () => {
  let auth: string;
  let tenantId: string;
  beforeAll(async () => {
    const t = await createTestTenant();
    auth = await bearerFor(t.user);
    tenantId = t.tenant.id;
  });
  const apiUpload = (body: BodyInit, contentType = `multipart/form-data; boundary=${BOUNDARY}`) =>
    answer(
      uploadCsv.action as Fn,
      new Request("http://localhost/api/connections/ezlynx/upload-csv", {
        method: "POST",
        body,
        headers: { Authorization: auth, "Content-Type": contentType },
      }),
    );

  test("multipart/form-data without a boundary is a 400 JSON answer, not a 500", async () => {
    const result = await apiUpload("x", "multipart/form-data");
    expect(result.status).toBe(400);
    expect(result.json).toMatchObject({ status: 400, errors: { file: [expect.stringMatching(/could not be read/)] } });
  });

  test("garbage bytes named .xlsx are refused at upload, and nothing is kept", async () => {
    const before = await storedUnder(`tenants/${tenantId}/connections`);
    const result = await apiUpload(rawMultipart([{ name: "file", filename: "junk.xlsx", body: randomBytes(5000) }]));
    expect(result.status).toBe(400);
    expect(result.json).toMatchObject({ status: 400, errors: { file: [expect.stringMatching(/does not match \.xlsx/)] } });
    expect(await storedUnder(`tenants/${tenantId}/connections`)).toEqual(before);
    const kept = await me.db.select({ id: connections.id }).from(connections).where(eq(connections.tenantId, tenantId));
    expect(kept).toEqual([]);
  });

  test("a CSV whose name holds = and ; is accepted", async () => {
    const csv = await sampleExportText({ policies: 3 });
    const result = await apiUpload(rawMultipart([{ name: "file", filename: "book=2025; final.csv", body: csv }]));
    expect(result.status).toBe(200);
    expect(result.json).toMatchObject({ data: { file: { name: "book=2025; final.csv" } } });
  });

  test("an export that cannot be read makes the mapping routes answer a clear JSON error, not a 500", async () => {
    // An unreadable workbook stored before uploads were checked (or damaged since).
    const t = await createTestTenant();
    const key = uploadKeyFor(t.tenant.id, "damaged.xlsx");
    const bytes = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(4000)]);
    await getStorage().write(key, Readable.from([bytes]));
    const connection = await saveConnectionSettings(t.ctx, null, {
      integrationId: "ezlynx",
      name: "Damaged",
      credentials: {},
      file: { key, name: "damaged.xlsx", bytes: bytes.length },
    });
    const bearer = await bearerFor(t.user);
    const get = (fn: unknown, url: string, params: Record<string, string> = {}) =>
      answer((fn as { loader: Fn }).loader, new Request(`http://localhost${url}`, { headers: { Authorization: bearer } }), params);
    const q = `connectionId=${connection.id}`;
    for (const result of [
      await get(objects, `/api/connections/salesforce/mapping/objects?${q}`),
      await get(attributes, `/api/connections/salesforce/mapping/object/Sheet1/attributes?${q}`, { object: "Sheet1" }),
      await get(values, `/api/connections/salesforce/mapping/attribute/Name/values?${q}&object=Sheet1`, { attribute: "Name" }),
      await get(mapping, `/api/connections/salesforce/mapping?${q}`),
    ]) {
      expect(result.status).toBeGreaterThanOrEqual(400);
      expect(result.status).not.toBe(500);
      expect(String(result.json.detail)).toMatch(/could not be read/);
    }
  });
});
