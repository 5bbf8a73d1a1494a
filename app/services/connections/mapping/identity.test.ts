import { describe, expect, test } from "vitest";
import { createIdentityConflictDetector, identityDifferences } from "./identity";
import type { CanonicalCustomer } from "./transform";

const person = (name: string, email: string | null = null, address1: string | null = null, zip: string | null = null) => ({
  name,
  email,
  address1,
  city: null,
  zip,
});

describe("identity conflicts", () => {
  // Same person: the rows may share one customer record.
  test.each([
    [person("Smith, John"), person("John Smith")],
    [person("JOHN  SMITH"), person("john smith")],
    [person("Smith, John A."), person("John Smith")],
    [person("O'Brien, Mary"), person("Mary OBrien")],
    [person("José Núñez"), person("Jose Nunez")],
    [person("Jane Doe", "Jane.Doe@Example.com"), person("Jane Doe", "jane.doe@example.com")],
    [person("Jane Doe", "jane@example.com"), person("Jane Doe", null)],
    [person("Jane Doe", null, "12 Oak Street", "30303"), person("Jane Doe", null, "12 OAK ST.", "30303-1234")],
    [person("Jane Doe", null, "400 North Main Avenue", "10001"), person("Doe, Jane", null, "400 N Main Ave", "10001")],
    [person("Summit Roofing Inc"), person("SUMMIT ROOFING, INC.")],
  ])("%o and %o are the same insured", (a, b) => {
    expect(identityDifferences(a, b)).toEqual([]);
  });

  // Different people under one key: must be listed, never merged silently.
  test.each([
    [person("John Smith"), person("Jane Smith"), ["name"]],
    [person("Smith, John"), person("John Smithe"), ["name"]],
    [person("Mary Clark"), person("Mary Clark-Jones"), ["name"]],
    [person("Jane Doe", "jane@example.com"), person("Jane Doe", "jdoe@work.com"), ["email"]],
    [person("Jane Doe", null, "12 Oak St", "30303"), person("Jane Doe", null, "14 Oak St", "30303"), ["address"]],
    [person("Jane Doe", null, "12 Oak St", "30303"), person("Jane Doe", null, "12 Oak St", "30305"), ["address"]],
    [
      person("Jane Doe", "jane@example.com", "1 Elm St", "10001"),
      person("Bob Roe", "bob@example.com", "9 Pine Rd", "10002"),
      ["name", "email", "address"],
    ],
  ])("%o and %o differ", (a, b, fields) => {
    expect(identityDifferences(a, b)).toEqual(fields);
  });

  test("the detector lists each conflicting key with its values and row numbers", () => {
    const detector = createIdentityConflictDetector();
    const row = (key: string, name: string, email: string | null) =>
      ({ sourceKey: key, name, email, address1: null, city: null, zip: null }) as CanonicalCustomer;
    detector.add(2, row("1001", "Smith, John", "john@example.com"));
    detector.add(3, row("1001", "John Smith", null));
    detector.add(4, row("1002", "Ann Lee", "ann@example.com"));
    detector.add(5, row("1002", "Bo Lee", "bo@example.com"));
    detector.add(6, row("1002", "Lee, Ann", "ann@example.com"));
    expect(detector.conflicts()).toEqual([
      {
        key: "1002",
        fields: ["name", "email"],
        values: { name: ["Ann Lee", "Bo Lee"], email: ["ann@example.com", "bo@example.com"] },
        rows: [4, 5, 6],
      },
    ]);
  });
});
