import { describe, expect, test } from "vitest";
import { loader as api } from "~/routes/api.$";
import { loader as download } from "~/routes/integrations.ezlynx.sample-csv";
import { bearerFor, createTestTenant, makeRequest, sessionCookieFor } from "../support/factories";

// The generated sample export is for trying the import: its terms are built around today, so a
// fresh agency importing it has renewals coming due (a fixed day would leave them all past).

/** The cells of a CSV line (quoted cells may hold commas). */
function cells(line: string) {
  const out: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === "," && !quoted) {
      out.push(cell);
      cell = "";
    } else cell += c;
  }
  return [...out, cell];
}

/** Days from today to each row's expiration date (MM/DD/YYYY or YYYY-MM-DD). */
function daysToExpiry(csv: string) {
  const [header, ...rows] = csv
    .replace(/^\uFEFF/, "")
    .split("\r\n")
    .filter(Boolean)
    .map(cells);
  const column = header.indexOf("Exp Date");
  expect(column).toBeGreaterThanOrEqual(0);
  const today = Date.parse(new Date().toISOString().slice(0, 10));
  return rows
    .map((row) => row[column])
    .map((d) => (/^\d\d\/\d\d\/\d{4}$/.test(d) ? `${d.slice(6)}-${d.slice(0, 2)}-${d.slice(3, 5)}` : d))
    .filter((d) => /^\d{4}-\d\d-\d\d$/.test(d))
    .map((d) => (Date.parse(d) - today) / 86_400_000);
}

describe("the sample EZLynx export", () => {
  test("GET /api/integrations/ezlynx/sample-csv and the page's download: terms around today, renewals coming due", async () => {
    const t = await createTestTenant();
    const fromApi = await api({
      request: new Request("http://localhost/api/integrations/ezlynx/sample-csv?rows=200", {
        headers: { Authorization: await bearerFor(t.user) },
      }),
      params: {},
      context: {},
    });
    const fromPage = await download({
      request: makeRequest("/integrations/ezlynx/sample-csv?rows=200", { cookie: await sessionCookieFor(t.user) }),
      params: {},
      context: {},
    });
    for (const response of [fromApi, fromPage]) {
      expect(response.status).toBe(200);
      const days = daysToExpiry(await response.text());
      expect(days.length).toBeGreaterThan(150);
      // Within the next 90 days (the default act-before window): some, and none already long past.
      expect(days.filter((d) => d >= 0 && d <= 90).length).toBeGreaterThan(10);
      expect(Math.min(...days)).toBeGreaterThan(-400);
    }
  });
});
