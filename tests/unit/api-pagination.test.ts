import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { files } from "~/db/schema";
import { loader as api } from "~/routes/api.$";
import { LIST_LIMIT_MAX } from "~/utils/cursor.server";
import { bearerFor, createTestTenant } from "../support/factories";

// Lists page with `limit` + an opaque `cursor`; `nextCursor` is null on the last page, and rows
// inserted while a caller walks the list neither repeat nor shift the pages it has not read.

async function get(auth: string, path: string) {
  const response = await api({
    request: new Request(`http://localhost${path}`, { headers: { Authorization: auth } }),
    params: {},
    context: {},
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads the operation's own JSON
  return { status: response.status, json: (await response.json()) as any };
}

describe("GET /api/files with limit and cursor", () => {
  test("walks every file once, newest first, stable under inserts; bad cursors and limits are 400s", async () => {
    const t = await createTestTenant();
    const auth = await bearerFor(t.user);
    const base = Date.parse("2026-01-01T00:00:00Z");
    const add = (n: number, at: number) =>
      t.db.insert(files).values({
        tenantId: t.tenant.id,
        uploadedBy: t.user.id,
        name: `file-${n}.csv`,
        extension: "csv",
        contentType: "text/csv",
        size: 1,
        storageKey: `test/${randomUUID()}`,
        // Two files share each millisecond: the id orders them.
        createdAt: new Date(at),
      });
    for (let n = 0; n < 7; n++) await add(n, base + Math.floor(n / 2) * 1000);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await get(auth, `/api/files?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      expect(page.json.data.total).toBeGreaterThanOrEqual(7);
      seen.push(...page.json.data.files.map((f: { name: string }) => f.name));
      cursor = page.json.data.nextCursor;
      // A newer file arriving mid-walk lands before the cursor: it does not shift the rest.
      if (pages === 0) await add(99, base + 60_000);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect(seen.slice(0, 1)).toEqual(["file-6.csv"]);

    const oldest = await get(auth, "/api/files?limit=2&sort=oldest");
    expect(oldest.json.data.files.map((f: { name: string }) => f.name).sort()).toEqual(["file-0.csv", "file-1.csv"]);

    expect((await get(auth, "/api/files?cursor=not-a-cursor")).status).toBe(400);
    expect((await get(auth, `/api/files?limit=${LIST_LIMIT_MAX + 1}`)).status).toBe(400);
    // Without limit or cursor the page numbers of the original spec still answer, with nextCursor too.
    const legacy = await get(auth, "/api/files?page=1");
    expect(legacy.json.data.files).toHaveLength(8);
    expect(legacy.json.data).toHaveProperty("nextCursor", null);
  });
});
