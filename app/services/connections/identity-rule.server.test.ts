import { Readable } from "node:stream";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { auditEvents, connections, customers, policies } from "~/db/schema";
import { createTestTenant } from "../../../tests/support/factories";
import { getStorage } from "../files/storage.server";
import { createReadyFileConnection } from "./connection-fixtures.server";
import { uploadKeyFor } from "./connections.server";
import { runImport, startImport } from "./imports.server";

// Issue 15 "Identity": the connection chooses what rows sharing a customer number but naming different
// insureds become, and a re-import that moves a policy says so in both customers' audit trails.

const HEADER =
  "Client Number,Applicant Name,Applicant Type,Email,Phone,Address Line 1,Address Line 2,City,State,Zip Code,Producer,CSR,Policy #,LOB,Carrier,Policy Status,Original Inception,Effective Date,Exp Date,Term,Written Premium,Prior Premium,Renewal Premium,Risk State,Claims 3Y,Last Modified";
const row = (client: string, name: string, email: string, policy: string, modified: string) =>
  `${client},"${name}",Personal,${email},,1 Elm St,,Erie,PA,16501,Alex Rivera,Casey Nguyen,${policy},HOME,Erie,Active,01/01/2020,01/01/2026,01/01/2027,12,"$1,000.00",900,,PA,0,${modified}`;

const EXPORT = [
  HEADER,
  // One person, twice: the newer row's e-mail is the customer's.
  row("1001", "Smith, John", "john@old.example", "HO1", "2025-06-01T00:00:00Z"),
  row("1001", "John Smith", "john@new.example", "AU1", "2025-07-01T00:00:00Z"),
  // Two people under one number; Bo's row is older, and (batches of two) comes in the next batch.
  row("1002", "Lee, Ann", "ann@example.com", "HO2", "2025-05-01T00:00:00Z"),
  row("1002", "Lee, Bo", "bo@example.com", "AU2", "2025-04-01T00:00:00Z"),
].join("\r\n");

describe("the identity rule", () => {
  test("newest: one customer per number with its newest row's details; per-name: one per insured, moved policies audited on both sides", async () => {
    const { ctx, db, tenant } = await createTestTenant();
    const key = uploadKeyFor(ctx.tenantId, "identities.csv");
    const { bytes } = await getStorage().write(key, Readable.from([EXPORT]));
    const connection = await createReadyFileConnection(ctx, { file: { key, name: "identities.csv", bytes } });
    const book = async () => {
      const rows = await db
        .select({ id: customers.id, key: customers.sourceKey, name: customers.name, email: customers.email, policy: policies.policyNumber })
        .from(policies)
        .innerJoin(customers, eq(customers.id, policies.customerId))
        .where(eq(policies.tenantId, tenant.id))
        .orderBy(asc(policies.policyNumber));
      return rows;
    };

    await runImport(db, await startImport(ctx, connection.id), { batchSize: 2 });
    const newest = await book();
    expect(newest.map((r) => [r.policy, r.key, r.name, r.email])).toEqual([
      ["AU1", "1001", "John Smith", "john@new.example"],
      ["AU2", "1002", "Ann Lee", "ann@example.com"],
      ["HO1", "1001", "John Smith", "john@new.example"],
      ["HO2", "1002", "Ann Lee", "ann@example.com"],
    ]);

    await db
      .update(connections)
      .set({ mapping: { ...connection.mapping, identityRule: "per-name" } })
      .where(eq(connections.id, connection.id));
    await runImport(db, await startImport(ctx, connection.id), { batchSize: 2 });
    const perName = await book();
    // Ann keeps the customer the number already had; Bo becomes a customer of his own; John is one person.
    expect(perName.map((r) => [r.policy, r.name, r.email])).toEqual([
      ["AU1", "John Smith", "john@new.example"],
      ["AU2", "Bo Lee", "bo@example.com"],
      ["HO1", "John Smith", "john@new.example"],
      ["HO2", "Ann Lee", "ann@example.com"],
    ]);
    const ann = perName.find((r) => r.policy === "HO2")!;
    const bo = perName.find((r) => r.policy === "AU2")!;
    expect(ann.id).toBe(newest.find((r) => r.policy === "HO2")!.id);
    expect(bo.id).not.toBe(ann.id);
    expect(perName.find((r) => r.policy === "HO1")!.id).toBe(newest.find((r) => r.policy === "HO1")!.id);

    const trail = await db
      .select({ action: auditEvents.action, subject: auditEvents.subjectId, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, tenant.id), eq(auditEvents.subjectType, "customer")));
    expect(trail).toHaveLength(2);
    expect(trail).toEqual(
      expect.arrayContaining([
        { action: "policy.moved_out", subject: ann.id, details: expect.objectContaining({ policyNumber: "AU2", toCustomerId: bo.id }) },
        { action: "policy.moved_in", subject: bo.id, details: expect.objectContaining({ policyNumber: "AU2", fromCustomerId: ann.id }) },
      ]),
    );

    // Importing again changes nothing and records nothing more.
    await runImport(db, await startImport(ctx, connection.id), { batchSize: 2 });
    expect(await book()).toEqual(perName);
    expect(
      await db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(and(eq(auditEvents.tenantId, tenant.id), eq(auditEvents.subjectType, "customer"))),
    ).toHaveLength(2);
  });
});
