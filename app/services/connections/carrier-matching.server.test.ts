import { Readable } from "node:stream";
import { asc, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { policies } from "~/db/schema";
import { createTestTenant } from "../../../tests/support/factories";
import { getStorage } from "../files/storage.server";
import { listTenantCarriers } from "./carriers.server";
import { createReadyFileConnection } from "./connection-fixtures.server";
import { uploadKeyFor } from "./connections.server";
import { runImport, startImport } from "./imports.server";

const HEADER =
  "Client Number,Applicant Name,Applicant Type,Email,Phone,Address Line 1,Address Line 2,City,State,Zip Code,Producer,CSR,Policy #,LOB,Carrier,Policy Status,Original Inception,Effective Date,Exp Date,Term,Written Premium,Prior Premium,Renewal Premium,Risk State,Claims 3Y,Last Modified";
const row = (n: number, carrier: string) =>
  `${100 + n},"Doe, Jan ${n}",Personal,jan${n}@example.com,,1 Main St,,Erie,PA,16501,Alex Rivera,Casey Nguyen,HO${n},HOME,"${carrier}",Active,01/01/2020,01/01/2026,01/01/2027,12,"$1,000.00",900,,PA,0,2025-05-23T01:00:00Z`;

async function importCarriers(names: string[]) {
  const { ctx, db, tenant } = await createTestTenant();
  const csv = [HEADER, ...names.map((name, i) => row(i + 1, name))].join("\r\n") + "\r\n";
  const key = uploadKeyFor(ctx.tenantId, "carriers.csv");
  const { bytes } = await getStorage().write(key, Readable.from([csv]));
  const connection = await createReadyFileConnection(ctx, { integrationId: "ezlynx", file: { key, name: "carriers.csv", bytes } });
  await runImport(db, await startImport(ctx, connection.id), { batchSize: 2 });
  const rows = await db
    .select({ number: policies.policyNumber, carrierId: policies.carrierId, name: policies.carrierName, raw: policies.carrierNameRaw })
    .from(policies)
    .where(eq(policies.tenantId, tenant.id))
    .orderBy(asc(policies.policyNumber));
  return { ctx, rows };
}

describe("carrier matching on import", () => {
  test("spellings of a catalogue carrier become that carrier; unmatched names become one agency carrier each", async () => {
    const { ctx, rows } = await importCarriers([
      "Erie",
      "ERIE INS CO",
      "Erie Insurance",
      "Auto-Owners",
      "Bob's Mutual Insurance Co",
      "Bobs Mutual",
      "State Farm Mutual Automobile Insurance Co",
    ]);
    expect(rows.map((r) => [r.raw, r.name])).toEqual([
      ["Erie", "Erie Insurance"],
      ["ERIE INS CO", "Erie Insurance"],
      ["Erie Insurance", "Erie Insurance"],
      ["Auto-Owners", "Auto-Owners Insurance"],
      ["Bob's Mutual Insurance Co", "Bob's Mutual Insurance Co"],
      ["Bobs Mutual", "Bob's Mutual Insurance Co"],
      ["State Farm Mutual Automobile Insurance Co", "State Farm"],
    ]);
    // Batches of two: the same carrier is found again across batches, never duplicated.
    expect(new Set(rows.slice(0, 3).map((r) => r.carrierId)).size).toBe(1);
    expect(rows[4].carrierId).toBe(rows[5].carrierId);
    expect(rows.every((r) => r.carrierId)).toBe(true);
    const own = (await listTenantCarriers(ctx)).map((c) => c.name);
    expect(own).toEqual(["Bob's Mutual Insurance Co", "State Farm"]);
  });

  test("another agency's own carriers are not offered as matches", async () => {
    await importCarriers(["Zeta Farmers Mutual of Ohio"]);
    const { ctx, rows } = await importCarriers(["Zeta Farmers Mutual of Ohio Insurance"]);
    expect(rows[0].name).toBe("Zeta Farmers Mutual of Ohio Insurance");
    expect((await listTenantCarriers(ctx)).map((c) => c.name)).toEqual(["Zeta Farmers Mutual of Ohio Insurance"]);
  });
});
