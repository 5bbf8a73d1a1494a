import { describe, expect, test } from "vitest";
import { createTestTenant } from "../../../../tests/support/factories";
import { createReadyFileConnection } from "../connection-fixtures.server";
import { scanSource } from "../connection-scan.server";
import { connectorOf } from "../connections.server";
import { getLatestRun, rejectionsCsv, runImport, startImport } from "../imports.server";
import { createRowValidator, SourceKeyIndex } from "./validate";

const mapping = {
  object: "rows",
  preset: null,
  valueMaps: { lineOfBusiness: {}, status: {} },
  fields: {
    customerKey: "Client",
    customerName: "Name",
    policyNumber: "Policy",
    lineOfBusiness: "LOB",
    carrier: "Carrier",
    effectiveDate: "Eff",
    expirationDate: "Exp",
    premium: "Premium",
  },
};
const row = (rowNumber: number, values: Partial<Record<string, string>> = {}) => ({
  rowNumber,
  values: {
    Client: "1",
    Name: "Lee, Al",
    Policy: "P-1",
    LOB: "Homeowners",
    Carrier: "Openly",
    Eff: "2025-01-01",
    Exp: "2026-01-01",
    Premium: "100",
    ...values,
  },
});

describe("row validation (shared by the mapping preview and the import)", () => {
  test("a second row with the same customer, policy number and effective date is invalid, naming the first", () => {
    const validate = createRowValidator(mapping);
    expect(validate(row(2)).ok).toBe(true);
    expect(validate(row(3, { Eff: "2026-01-01", Exp: "2027-01-01" })).ok).toBe(true); // the renewal term
    expect(validate(row(4, { Client: "2" })).ok).toBe(true); // another customer's P-1
    expect(validate(row(5, { Premium: "120" }))).toEqual({
      ok: false,
      reasons: ["Duplicate of row 2 (same customer, policy number and effective date)"],
    });
    expect(validate(row(6, { Premium: "" }))).toEqual({ ok: false, reasons: ["Premium is missing"] });
  });

  test("the key index remembers the first row of 200 000 distinct keys and finds every repeat", () => {
    const index = new SourceKeyIndex();
    for (let i = 0; i < 200_000; i++) expect(index.remember(`C${i}|P${i % 977}|2025-01-01`, i + 2) === null || i).toBe(true);
    for (let i = 0; i < 200_000; i += 997) expect(index.remember(`C${i}|P${i % 977}|2025-01-01`, 999_999)).toBe(i + 2);
    expect(index.remember("C1|P1|2025-01-02", 7)).toBeNull();
  });

  test("the preview's valid and invalid counts are exactly what the import imports and rejects", async () => {
    const { ctx, db } = await createTestTenant();
    const connection = await createReadyFileConnection(ctx, { policies: 240, invalidRows: 4, duplicateRows: 3 });
    const scan = await scanSource(connectorOf(ctx, connection), connection.mapping);
    await runImport(db, await startImport(ctx, connection.id), { batchSize: 50 });
    const run = await getLatestRun(ctx, connection.id);
    expect(scan.scanned).toBe(240);
    expect(scan.invalid).toBe(7);
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 240, rowsRejected: scan.invalid, rowsImported: scan.valid });
    expect(scan.invalidRows.filter((r) => r.reasons[0].startsWith("Duplicate of row"))).toHaveLength(3);
    let csv = "";
    for await (const chunk of rejectionsCsv(ctx, run!.id)) csv += chunk;
    const rejectedRows = csv
      .trim()
      .split("\r\n")
      .slice(1)
      .map((line) => Number(line.split(",")[0]));
    expect(rejectedRows).toEqual(scan.invalidRows.map((r) => r.rowNumber));
  });
});
