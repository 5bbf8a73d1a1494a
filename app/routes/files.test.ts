import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { files, notifications, tenants, users } from "~/db/schema";
import { processFileJob } from "~/services/files/file-processing.server";
import { signFileLink } from "~/services/files/file-links.server";
import { FILE_JOB, getFileReport } from "~/services/files/files.server";
import { notify } from "~/services/platform/notifications.server";
import { getShellData } from "~/services/identity/shell.server";
import { getStorage } from "~/services/files/storage.server";
import { getAuth } from "~/utils/auth.server";
import { createTestTenant, sessionCookieFor, makeRequest, uniqueEmail } from "../../tests/support/factories";
import { unwrapData } from "../../tests/support/route-results";
import { action as configAction } from "./_app.files.config";
import { action as uploadAction, loader as listLoader } from "./_app.files._index";
import { action as linkAction, loader as detailLoader } from "./_app.files.$fileId";
import { action as notificationsAction, loader as notificationsLoader } from "./_app.notifications";
import { loader as downloadLoader } from "./files.$fileId.download";
import { loader as reportLoader } from "./_app.files.$fileId_.report";
import { loader as reportDownloadLoader } from "./files.$fileId.report.download";
import { loader as publicLoader } from "./public.files.$fileId";

// Opening the database costs seconds (PGlite): do it once, before the first test’s clock starts.
beforeAll(() => getDb());

type Args = Parameters<typeof detailLoader>[0];
const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: {} }) as unknown as Args;

async function signedIn(role: "admin" | "staff" = "admin") {
  const t = await createTestTenant({ role });
  return { ...t, cookie: await sessionCookieFor(t.user) };
}

function uploadRequest(cookie: string, name: string, content: string | Uint8Array<ArrayBuffer>, domain = "policies") {
  const form = new FormData();
  form.append("domain", domain);
  form.append("file", new File([content], name));
  return new Request("http://localhost/files?index", { method: "POST", body: form, headers: { Cookie: cookie } });
}

async function uploadAndProcess(who: Awaited<ReturnType<typeof signedIn>>, name = "book.csv", content = "Name,Premium\nAnn,100\n") {
  const response = (await uploadAction(args(uploadRequest(who.cookie, name, content)))) as Response;
  expect(response.status).toBe(302);
  const [row] = await who.db
    .select()
    .from(files)
    .where(and(eq(files.tenantId, who.tenant.id), eq(files.name, name)));
  await processFileJob(
    {
      id: "00000000-0000-0000-0000-000000000000",
      tenantId: who.tenant.id,
      type: FILE_JOB,
      payload: { fileId: row.id },
      attempts: 1,
      maxAttempts: 3,
    },
    { db: who.db, progress: async () => {}, signal: new AbortController().signal },
  );
  return row;
}

async function status(promise: Promise<unknown>) {
  try {
    const result = await promise;
    return result instanceof Response ? result.status : ((result as { init?: { status?: number } })?.init?.status ?? 200);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

describe("upload (no-JavaScript form action)", () => {
  test("a CSV is stored and queued, then listed as mine", async () => {
    const me = await signedIn();
    const response = (await uploadAction(args(uploadRequest(me.cookie, "renewals.csv", "a,b\n1,2\n")))) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/files?view=mine");
    const [row] = await me.db.select().from(files).where(eq(files.tenantId, me.tenant.id));
    expect(row).toMatchObject({ name: "renewals.csv", extension: "csv", size: 8, status: "Uploaded", domain: "policies" });
    expect(await getStorage().size(row.storageKey)).toBe(8);
    const list = await listLoader(args(makeRequest("/files?view=mine", { cookie: me.cookie })));
    expect(list.files.map((f) => f.name)).toEqual(["renewals.csv"]);
    expect(list.files[0].uploadedAt).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4} \| \d{2}:\d{2}$/);
  });

  test.each([
    ["notes.txt", "hello", "Only .csv, .xls, .xlsx, .pdf, .doc and .docx files can be uploaded."],
    ["fake.xlsx", "just text", "The content does not match .xlsx: it looks like something other than an Office document."],
    ["image.csv", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), "The content does not match .csv: it looks like a PNG image."],
    ["empty.csv", "", "The file is empty."],
  ])("%s is refused with a message and nothing stored", async (name, content, message) => {
    const me = await signedIn();
    const result = await uploadAction(args(uploadRequest(me.cookie, name, content)));
    const body = result as unknown as {
      data: { fieldErrors: Record<string, string[]>; fields: Record<string, string> };
      init: { status: number };
    };
    expect(body.init.status).toBe(400);
    expect(body.data.fieldErrors.file).toEqual([message]);
    expect(body.data.fields.domain).toBe("policies");
    expect(await me.db.select().from(files).where(eq(files.tenantId, me.tenant.id))).toHaveLength(0);
  });

  test("a missing domain is a field error", async () => {
    const me = await signedIn();
    const result = (await uploadAction(args(uploadRequest(me.cookie, "a.csv", "a\n1\n", "planets")))) as unknown as {
      data: { fieldErrors: Record<string, string[]> };
    };
    expect(result.data.fieldErrors.domain).toEqual(["Choose what the file holds."]);
    expect(await me.db.select().from(files).where(eq(files.tenantId, me.tenant.id))).toHaveLength(0);
  });

  test("control characters are removed from the name; the bytes live under a generated key", async () => {
    const me = await signedIn();
    const response = (await uploadAction(args(uploadRequest(me.cookie, "ren\tew\u202eals.csv", "a\n1\n")))) as Response;
    expect(response.status).toBe(302);
    const [row] = await me.db.select().from(files).where(eq(files.tenantId, me.tenant.id));
    expect(row.name).toBe("renewals.csv");
    expect(row.storageKey).toMatch(new RegExp(`^tenants/${me.tenant.id}/files/[0-9a-f-]{36}\\.csv$`));
  });

  test("a name with a C0 control other than tab cannot travel in a part header: a 400 that says so, nothing stored", async () => {
    const me = await signedIn();
    const { status, data } = unwrapData<{ fieldErrors?: Record<string, string[]> }>(
      await uploadAction(args(uploadRequest(me.cookie, "ren\u0007ewals.csv", "a\n1\n"))),
    );
    expect(status).toBe(400);
    expect(data.fieldErrors?.file?.[0]).toMatch(/could not be read .*rename the file/);
    expect(await me.db.select().from(files).where(eq(files.tenantId, me.tenant.id))).toEqual([]);
  });

  test("a duplicate name keeps both and marks the newer", async () => {
    const me = await signedIn();
    await uploadAction(args(uploadRequest(me.cookie, "same.csv", "a\n1\n")));
    await new Promise((r) => setTimeout(r, 5));
    await uploadAction(args(uploadRequest(me.cookie, "same.csv", "a\n2\n")));
    const list = await listLoader(args(makeRequest("/files", { cookie: me.cookie })));
    expect(list.files.map((f) => f.duplicate)).toEqual([
      { copies: 2, newest: true },
      { copies: 2, newest: false },
    ]);
  });
});

describe("tenant isolation", () => {
  test("another tenant's file is 404 for detail, report, download and the link action", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const file = await uploadAndProcess(owner);
    const params = { fileId: file.id };
    // The owner gets everything…
    expect(await status(detailLoader(args(makeRequest(`/files/${file.id}`, { cookie: owner.cookie }), params)))).toBe(200);
    expect(await status(reportLoader(args(makeRequest(`/files/${file.id}/report`, { cookie: owner.cookie }), params)))).toBe(200);
    const download = (await downloadLoader(args(makeRequest(`/files/${file.id}/download`, { cookie: owner.cookie }), params))) as Response;
    expect(download.headers.get("Content-Disposition")).toBe(`attachment; filename="book.csv"; filename*=UTF-8''book.csv`);
    expect(download.headers.get("Content-Type")).toBe("text/csv");
    expect(await download.text()).toBe("Name,Premium\nAnn,100\n");
    const html = (await reportDownloadLoader(
      args(makeRequest(`/files/${file.id}/report/download`, { cookie: owner.cookie }), params),
    )) as Response;
    expect(html.headers.get("Content-Disposition")).toMatch(/^attachment;/);
    const text = await html.text();
    expect(text).toContain("<style>");
    expect(text).toContain("<svg");
    expect(text).not.toContain("<script");
    // …the other tenant gets 404 for each.
    for (const loader of [detailLoader, reportLoader, downloadLoader, reportDownloadLoader]) {
      expect(await status(loader(args(makeRequest(`/files/${file.id}`, { cookie: other.cookie }), params)))).toBe(404);
    }
    expect(await status(linkAction(args(makeRequest(`/files/${file.id}`, { cookie: other.cookie, form: {} }), params)))).toBe(404);
    expect(await status(detailLoader(args(makeRequest(`/files/not-a-uuid`, { cookie: owner.cookie }), { fileId: "not-a-uuid" })))).toBe(
      404,
    );
  });

  test("public links: valid without a session; altered id, tampered or expired signature refused", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const file = await uploadAndProcess(owner);
    const otherFile = await uploadAndProcess(other, "theirs.csv");
    const { path } = signFileLink(file.id);
    const ok = (await publicLoader(args(makeRequest(path), { fileId: file.id }))) as Response;
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Content-Disposition")).toMatch(/^attachment; filename="book.csv"/);
    const query = path.split("?")[1];
    const altered = (await publicLoader(args(makeRequest(`/public/files/${otherFile.id}?${query}`), { fileId: otherFile.id }))) as Response;
    expect(altered.status).toBe(403);
    const tampered = (await publicLoader(args(makeRequest(`${path}x`), { fileId: file.id }))) as Response;
    expect(tampered.status).toBe(403);
    const old = signFileLink(file.id, new Date(Date.now() - 60 * 60_000)).path;
    const expired = (await publicLoader(args(makeRequest(old), { fileId: file.id }))) as Response;
    expect(expired.status).toBe(410);
  });
});

describe("notifications", () => {
  test("processing notifies the uploader; the bell counts it; mark as read; 404 for others", async () => {
    const me = await signedIn();
    await uploadAndProcess(me);
    const auth = await getAuth(makeRequest("/", { cookie: me.cookie }), {});
    expect(auth).not.toBeNull();
    const page = await notificationsLoader(args(makeRequest("/notifications", { cookie: me.cookie })));
    expect(page.groups).toHaveLength(1);
    expect(page.groups[0].label).toBe("Today");
    const card = page.groups[0].items[0];
    expect(card).toMatchObject({ fileName: "book.csv", read: false });
    expect(card.createdAt).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4} \| \d{2}:\d{2}$/);
    expect((await getShellData(me.db, auth!)).unreadNotifications).toBe(1);

    // Another tenant, and another user of the same tenant (private notification): 404.
    const stranger = await signedIn();
    const [colleague] = await me.db
      .insert(users)
      .values({ tenantId: me.tenant.id, email: uniqueEmail(), name: "Colleague", role: "staff", emailVerifiedAt: new Date() })
      .returning({ id: users.id, tenantId: users.tenantId });
    const colleagueCookie = await sessionCookieFor(colleague);
    for (const cookie of [stranger.cookie, colleagueCookie]) {
      const result = (await notificationsAction(
        args(makeRequest("/notifications", { cookie, form: { intent: "read", id: card.id, via: "fetcher" } })),
      )) as unknown as { init: { status: number } };
      expect(result.init.status).toBe(404);
    }
    // The fetcher path answers ok; the plain form redirects back.
    const ok = (await notificationsAction(
      args(makeRequest("/notifications", { cookie: me.cookie, form: { intent: "read", id: card.id, via: "fetcher" } })),
    )) as unknown as { data: { ok: boolean } };
    expect(ok.data.ok).toBe(true);
    const unread = await notificationsLoader(args(makeRequest("/notifications", { cookie: me.cookie })));
    expect(unread.groups).toHaveLength(0);
    const read = await notificationsLoader(args(makeRequest("/notifications?filter=read", { cookie: me.cookie })));
    expect(read.groups[0].items[0]).toMatchObject({ id: card.id, read: true });
  });

  test("a tenant-wide notification is visible to colleagues; mark all as read redirects back", async () => {
    const me = await signedIn();
    await notify(me.db, { tenantId: me.tenant.id, kind: "import.done", title: "Import finished", fileName: "export.csv" });
    await notify(me.db, { tenantId: me.tenant.id, userId: me.user.id, kind: "file.ready", title: "File ready", fileName: "mine.csv" });
    const response = (await notificationsAction(
      args(makeRequest("/notifications", { cookie: me.cookie, form: { intent: "read-all", redirectTo: "/notifications?page=1" } })),
    )) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/notifications?page=1");
    const rows = await me.db.select({ readAt: notifications.readAt }).from(notifications).where(eq(notifications.tenantId, me.tenant.id));
    expect(rows.every((r) => r.readAt !== null)).toBe(true);
    const plain = (await notificationsAction(
      args(makeRequest("/notifications", { cookie: me.cookie, form: { intent: "read", id: "00000000-0000-0000-0000-000000000000" } })),
    )) as unknown as {
      init: { status: number };
    };
    expect(plain.init.status).toBe(404);
  });
});

describe("per-domain parse settings", () => {
  test("admins save; staff are refused; processing uses the domain's settings", async () => {
    const admin = await signedIn();
    const saved = (await configAction(
      args(
        makeRequest("/files/config", {
          cookie: admin.cookie,
          form: { domain: "policies", delimiter: "|", headerRow: "2", dateFormat: "dd/MM/yyyy", encoding: "auto" },
        }),
      ),
    )) as Response;
    expect(saved.status).toBe(302);
    const file = await uploadAndProcess(admin, "piped.csv", "exported by AMS\nName|Start\nAnn|03/05/2024\n");
    const { report } = await getFileReport({ ...admin.ctx }, file.id);
    expect(report.delimiter).toBe("|");
    expect(report.sheets[0].profiles.map((p) => p.name)).toEqual(["Name", "Start"]);
    expect(report.sheets[0].profiles[1].dates).toEqual({ min: "2024-05-03", max: "2024-05-03" });

    const staff = await createTestTenant({ role: "staff" });
    const staffCookie = await sessionCookieFor(staff.user);
    const refused = (await configAction(
      args(
        makeRequest("/files/config", {
          cookie: staffCookie,
          form: { domain: "policies", delimiter: ",", headerRow: "1", dateFormat: "auto", encoding: "auto" },
        }),
      ),
    )) as unknown as { init: { status: number } };
    expect(refused.init.status).toBe(403);
    const invalid = (await configAction(
      args(
        makeRequest("/files/config", {
          cookie: admin.cookie,
          form: { domain: "policies", delimiter: ",", headerRow: "-1", dateFormat: "auto", encoding: "auto" },
        }),
      ),
    )) as unknown as { init: { status: number } };
    expect(invalid.init.status).toBe(400);
  });
});

describe("times", () => {
  test("files and notifications show times in the agency's zone, not the browser's", async () => {
    const me = await signedIn();
    await me.db.update(tenants).set({ timeZone: "Asia/Tokyo" }).where(eq(tenants.id, me.tenant.id));
    const file = await uploadAndProcess(me);
    // 12:00 UTC is 21:00 in Tokyo and 04:00 in Los Angeles, where this browser says it is.
    const instant = new Date("2026-03-01T12:00:00Z");
    await me.db.update(files).set({ createdAt: instant }).where(eq(files.id, file.id));
    await me.db.update(notifications).set({ createdAt: instant }).where(eq(notifications.tenantId, me.tenant.id));
    const cookie = `${me.cookie}; tz=America/Los_Angeles`;

    const list = await listLoader(args(makeRequest("/files", { cookie })));
    expect(list.files[0].uploadedAt).toBe("01 Mar 2026 | 21:00");
    const detail = await detailLoader(args(makeRequest(`/files/${file.id}`, { cookie }), { fileId: file.id }));
    expect(detail.file.uploadedAt).toBe("01 Mar 2026 | 21:00");
    const page = await notificationsLoader(args(makeRequest("/notifications", { cookie })));
    expect(page.groups[0].items[0].createdAt).toBe("01 Mar 2026 | 21:00");
  });
});
