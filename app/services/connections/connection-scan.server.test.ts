import { Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { createTestTenant } from "../../../tests/support/factories";
import { getStorage } from "../files/storage.server";
import { createReadyFileConnection } from "./connection-fixtures.server";
import { scanSource } from "./connection-scan.server";
import { connectorOf, uploadKeyFor } from "./connections.server";
import type { Connector } from "./connectors/types";

const HEADER =
  "Client Number,Applicant Name,Applicant Type,Email,Phone,Address Line 1,Address Line 2,City,State,Zip Code,Producer,CSR,Policy #,LOB,Carrier,Policy Status,Original Inception,Effective Date,Exp Date,Term,Written Premium,Prior Premium,Renewal Premium,Risk State,Claims 3Y,Last Modified";
const row = (client: string, name: string, email: string, address: string, policy: string, status = "Active", expires = "01/01/2027") =>
  `${client},"${name}",Personal,${email},,${address},,Erie,PA,16501,Alex Rivera,Casey Nguyen,${policy},HOME,Erie,${status},01/01/2020,01/01/2026,${expires},12,"$1,000.00",900,,PA,0,2025-05-23T01:00:00Z`;

async function scanOf(lines: string[], options: Parameters<typeof scanSource>[2] = {}) {
  const { ctx } = await createTestTenant();
  const key = uploadKeyFor(ctx.tenantId, "export.csv");
  const { bytes } = await getStorage().write(key, Readable.from([[HEADER, ...lines].join("\r\n")]));
  const connection = await createReadyFileConnection(ctx, { file: { key, name: "export.csv", bytes } });
  return scanSource(connectorOf(ctx, connection), connection.mapping, options);
}

describe("the mapping preview", () => {
  test("lists customer numbers whose rows disagree on the insured, with values and row numbers", async () => {
    const scan = await scanOf([
      row("1001", "Smith, John", "john@example.com", "12 Oak Street", "HO1"),
      row("1001", "John Smith", "JOHN@example.com", "12 Oak St", "AU1"),
      row("1002", "Lee, Ann", "ann@example.com", "1 Elm St", "HO2"),
      row("1002", "Lee, Bo", "bo@example.com", "1 Elm St", "AU2"),
    ]);
    expect(scan.valid).toBe(4);
    expect(scan.identityConflictCount).toBe(1);
    expect(scan.identityConflicts).toEqual([
      {
        key: "1002",
        fields: ["name", "email"],
        values: { name: ["Ann Lee", "Bo Lee"], email: ["ann@example.com", "bo@example.com"] },
        rows: [4, 5],
      },
    ]);
  });

  test("warns of Active policies whose expiry has passed (counted and listed by row, not rejected); other statuses and later expiries pass", async () => {
    const scan = await scanOf(
      [
        row("2001", "Ann Lee", "ann@example.com", "1 Elm St", "P1", "Active", "03/01/2026"),
        row("2002", "Bo Lee", "bo@example.com", "2 Elm St", "P2", "Active", "11/25/2026"),
        row("2003", "Cy Lee", "cy@example.com", "3 Elm St", "P3", "Cancelled", "03/01/2026"),
        row("2004", "Di Lee", "di@example.com", "4 Elm St", "P4", "Active", "11/24/2026"),
      ],
      { today: "2026-11-25" },
    );
    expect(scan.valid).toBe(4);
    expect(scan.expiredActive).toEqual({ count: 2, rows: [2, 5] });
  });
});

describe("scanning a stored export again", () => {
  function countingConnector(contentKey?: string) {
    const reads = { count: 0 };
    const connector: Connector = {
      contentKey,
      listObjects: async () => [{ name: "rows", label: "export.csv" }],
      listAttributes: async () => [],
      listValues: async () => [],
      testCredentials: async () => ({ ok: true, message: "" }),
      async *readRecords() {
        reads.count++;
        yield [{ rowNumber: 2, values: { "Policy #": "HO1" } }];
      },
    };
    return { reads, connector };
  }
  const mapping = { object: "rows", fields: { policyNumber: "Policy #" }, valueMaps: { lineOfBusiness: {}, status: {} } };

  test("reads it once for one mapping and day, and again for another mapping or day", async () => {
    const { reads, connector } = countingConnector(`tenants/t/connections/${crypto.randomUUID()}.csv`);
    const first = await scanSource(connector, mapping, { today: "2026-11-26" });
    expect(await scanSource(connector, mapping, { today: "2026-11-26" })).toBe(first);
    expect(reads.count).toBe(1);
    await scanSource(connector, { ...mapping, identityRule: "per-name" }, { today: "2026-11-26" });
    await scanSource(connector, mapping, { today: "2026-11-27" });
    expect(reads.count).toBe(3);
  });

  test("a live source (no content key) is read on every scan", async () => {
    const { reads, connector } = countingConnector();
    await scanSource(connector, mapping);
    await scanSource(connector, mapping);
    expect(reads.count).toBe(2);
  });
});
