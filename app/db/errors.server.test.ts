import { sql } from "drizzle-orm";
import { afterEach, describe, expect, test, vi } from "vitest";
import { handleError } from "~/entry.server";
import { asServiceError } from "~/services/platform/errors.server";
import { log } from "~/services/platform/log.server";
import { jsonRoute } from "~/utils/api.server";
import { getDb } from "./client.server";
import { describeError, isDataException, isDatabaseUnavailable, sqlStateOf } from "./errors.server";

// Issue 12 §3: a NUL from a query string made PostgreSQL fail the statement, which landed in the
// log whole, with the user's values. A data exception is a 400, and logs carry no SQL or values.

const SECRET = "secret-customer-value";

async function refused(value: string, type: "text" | "uuid" | "jsonb") {
  const db = await getDb();
  const query = type === "text" ? sql`select ${value}::text` : type === "uuid" ? sql`select ${value}::uuid` : sql`select ${value}::jsonb`;
  try {
    await db.execute(query);
  } catch (error) {
    return error;
  }
  throw new Error("the database took the value");
}

afterEach(() => vi.restoreAllMocks());

describe("database data exceptions", () => {
  test.each([
    ["a NUL in text", `${SECRET}\u0000`, "text"],
    ["text where a uuid goes", `${SECRET}-not-a-uuid`, "uuid"],
    ["a NUL escape in JSON", JSON.stringify({ note: `${SECRET}\u0000` }), "jsonb"],
  ] as const)("%s: a data exception, described without the statement or the value", async (_what, value, type) => {
    const error = await refused(value, type);
    expect(sqlStateOf(error)).toMatch(/^22/);
    expect(isDataException(error)).toBe(true);
    const described = String(describeError(error));
    expect(described).toMatch(/^DatabaseError SQLSTATE 22[0-9A-Z]{3}.*statement and values withheld/);
    expect(described).not.toContain(SECRET);
    expect(described).not.toMatch(/select|params/i);
  });

  test("the request error log carries neither the statement nor the values", async () => {
    const error = await refused(`${SECRET}\u0000`, "text");
    const logged = vi.spyOn(log, "error").mockImplementation(() => {});
    handleError(error, { request: new Request("http://localhost/customers?q=x"), context: { requestId: "r-1" } } as never);
    const output = logged.mock.calls
      .flat()
      .map((part) => JSON.stringify(part, (_key, value: unknown) => (value instanceof Error ? `${value.message}\n${value.stack}` : value)))
      .join("\n");
    expect(output).toContain("SQLSTATE 22021");
    expect(output).not.toContain(SECRET);
    expect(output).not.toMatch(/Failed query|params:/);
  });

  test("caused by input, it is answered with a 400, not a 500", async () => {
    const error = await refused(`${SECRET}\u0000`, "text");
    vi.spyOn(log, "warn").mockImplementation(() => {});
    expect(asServiceError(error)).toMatchObject({ status: 400 });
    const response = await jsonRoute({ request: new Request("http://localhost/api/customers/all") }, ["GET"], async () => {
      throw error;
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("Content-Type")).toBe("application/problem+json");
    expect(JSON.stringify(await response.json())).not.toContain(SECRET);
  });

  test("other errors are not dressed up as input errors", () => {
    expect(asServiceError(new Error("boom"))).toBeNull();
    expect(describeError(new Error("boom"))).toBeInstanceOf(Error);
  });
});

describe("the database out of reach", () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  test.each([
    ["a refused connection", refused],
    ["both addresses refused (AggregateError)", Object.assign(new AggregateError([refused, refused], ""), { code: "ECONNREFUSED" })],
    ["under Drizzle's wrapper", Object.assign(new Error("Failed query: select 1"), { cause: refused })],
    [
      "PostgreSQL shutting down (57P01)",
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
    ],
    ["PostgreSQL starting up (57P03)", Object.assign(new Error("the database system is starting up"), { code: "57P03" })],
    ["a connection exception (08006)", Object.assign(new Error("connection failure"), { code: "08006" })],
    ["node-postgres's dropped connection", new Error("Connection terminated unexpectedly")],
    ["the pool's connect time-out", new Error("timeout exceeded when trying to connect")],
  ])("%s is unavailability", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  test.each([
    ["a data exception", Object.assign(new Error("invalid byte sequence"), { code: "22021" })],
    ["a unique violation", Object.assign(new Error("duplicate key"), { code: "23505" })],
    ["a programming error", new TypeError("Cannot read properties of undefined")],
    ["not an error", "ECONNREFUSED"],
  ])("%s is not", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  test("services answer it as a 503 to retry, not a 500", () => {
    const answer = asServiceError(Object.assign(new Error("Failed query"), { cause: refused }));
    expect(answer?.status).toBe(503);
    expect(answer?.message).toBe("Remarket cannot reach its database at the moment. Please try again in a minute.");
  });
});
