import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "../client.server";
import { queryRows } from "../rows.server";
import { sqlTextLiteral } from "./sql-literal.server";

const NASTY = [
  "plain",
  "",
  "it's",
  "''",
  "x'); drop table tenants; --",
  "back\\slash\\'",
  "E'\\x41'",
  "$1 $$ dollar $tag$",
  "line\nbreak\ttab",
  "Zoë 日本 🙂",
  "a|2026-01-31|2026",
];

describe("SQL text literals", () => {
  test("quote the value and double its single quotes, nothing else", () => {
    expect(sqlTextLiteral("abc")).toBe("'abc'");
    expect(sqlTextLiteral("it's")).toBe("'it''s'");
    expect(sqlTextLiteral("back\\slash")).toBe("'back\\slash'");
    expect(sqlTextLiteral("")).toBe("''");
  });

  test("refuse NUL, which no text value can hold", () => {
    expect(() => sqlTextLiteral("a\0b")).toThrow(/NUL/);
  });

  test("the database reads every literal back as exactly the value, as one literal", async () => {
    const db = await getDb();
    for (const value of NASTY) {
      // Built as text on purpose: this is what the function is for.
      const rows = await queryRows<{ v: string; n: number }>(db, sql.raw(`select ${sqlTextLiteral(value)}::text as v, 1 as n`));
      expect(rows).toEqual([{ v: value, n: 1 }]);
    }
  });
});
