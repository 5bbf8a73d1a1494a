import { Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { createTestTenant } from "../../../tests/support/factories";
import { getStorage } from "../files/storage.server";
import { createReadyFileConnection } from "./connection-fixtures.server";
import { scanSource } from "./connection-scan.server";
import { connectorOf, uploadKeyFor } from "./connections.server";

const HEADER =
  "Client Number,Applicant Name,Applicant Type,Email,Phone,Address Line 1,Address Line 2,City,State,Zip Code,Producer,CSR,Policy #,LOB,Carrier,Policy Status,Original Inception,Effective Date,Exp Date,Term,Written Premium,Prior Premium,Renewal Premium,Risk State,Claims 3Y,Last Modified";
const row = (client: string, name: string, email: string, address: string, policy: string) =>
  `${client},"${name}",Personal,${email},,${address},,Erie,PA,16501,Alex Rivera,Casey Nguyen,${policy},HOME,Erie,Active,01/01/2020,01/01/2026,01/01/2027,12,"$1,000.00",900,,PA,0,2025-05-23T01:00:00Z`;

describe("the mapping preview", () => {
  test("lists customer numbers whose rows disagree on the insured, with values and row numbers", async () => {
    const { ctx } = await createTestTenant();
    const csv = [
      HEADER,
      row("1001", "Smith, John", "john@example.com", "12 Oak Street", "HO1"),
      row("1001", "John Smith", "JOHN@example.com", "12 Oak St", "AU1"),
      row("1002", "Lee, Ann", "ann@example.com", "1 Elm St", "HO2"),
      row("1002", "Lee, Bo", "bo@example.com", "1 Elm St", "AU2"),
    ].join("\r\n");
    const key = uploadKeyFor(ctx.tenantId, "conflicts.csv");
    const { bytes } = await getStorage().write(key, Readable.from([csv]));
    const connection = await createReadyFileConnection(ctx, { file: { key, name: "conflicts.csv", bytes } });
    const scan = await scanSource(connectorOf(ctx, connection), connection.mapping);
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
});
