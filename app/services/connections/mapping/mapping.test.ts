import { describe, expect, test } from "vitest";
import type { ConnectionMapping } from "~/db/schema/connections";
import { missingRequiredFields } from "./fields";
import { parseDate, parseMoney, parseState, splitPersonName } from "./parse";
import { applyPreset, detectPreset, getPreset, PRESETS } from "./presets";
import { nameSimilarity, suggestMapping } from "./suggest";
import { passesFilters, transformRow } from "./transform";
import { defaultExclusions, mapLineOfBusiness, mapStatus, suggestLineOfBusiness, suggestStatus, suggestValueMaps } from "./values";

describe("mapping suggestions by name similarity", () => {
  test("a generic export's headers map onto the canonical fields", () => {
    const headers = [
      "Client ID",
      "Insured Name",
      "E-mail Address",
      "Policy No.",
      "Line of Business",
      "Insurance Company",
      "Eff. Date",
      "Expiration",
      "Annual Premium",
      "Zip",
      "Agent",
    ];
    const fields = suggestMapping(headers);
    expect(fields).toMatchObject({
      customerKey: "Client ID",
      customerName: "Insured Name",
      email: "E-mail Address",
      policyNumber: "Policy No.",
      lineOfBusiness: "Line of Business",
      carrier: "Insurance Company",
      effectiveDate: "Eff. Date",
      expirationDate: "Expiration",
      premium: "Annual Premium",
      zip: "Zip",
      producer: "Agent",
    });
    expect(missingRequiredFields(fields)).toEqual([]);
  });

  test("each attribute is suggested for one field only, unrelated headers for none", () => {
    const fields = suggestMapping(["Premium", "Favourite colour", "Notes"]);
    expect(Object.values(fields)).toEqual(["Premium"]);
    expect(fields.premium).toBe("Premium");
  });

  test("similarity is symmetric-ish and bounded", () => {
    expect(nameSimilarity("Policy #", "policy number")).toBe(1);
    expect(nameSimilarity("EffectiveDate", "Effective Date")).toBe(1);
    expect(nameSimilarity("Premium", "Zip")).toBeLessThan(0.3);
  });

  test("required fields: a customer name may come from last name or business name", () => {
    expect(missingRequiredFields({})).toEqual([
      "customerName",
      "policyNumber",
      "lineOfBusiness",
      "carrier",
      "effectiveDate",
      "expirationDate",
      "premium",
    ]);
    expect(missingRequiredFields({ lastName: "Last" })).not.toContain("customerName");
  });
});

describe("presets", () => {
  test("every known export format is a preset", () => {
    expect(PRESETS.map((p) => p.id)).toEqual(expect.arrayContaining(["ezlynx", "appliedepic", "qqcatalyst", "hawksoft"]));
  });

  test.each(["ezlynx", "appliedepic", "qqcatalyst", "hawksoft"])("%s headers are detected and fully mapped", (id) => {
    const preset = getPreset(id)!;
    const headers = [...Object.values(preset.fields), "Some Extra Column"];
    expect(detectPreset(headers)?.id).toBe(id);
    const fields = applyPreset(preset, headers);
    expect(fields).toEqual(preset.fields);
    expect(missingRequiredFields(fields)).toEqual([]);
  });

  test("a preset matches headers loosely and leaves out columns the file lacks", () => {
    const fields = applyPreset(getPreset("ezlynx")!, ["client number", "POLICY #", "Written Premium"]);
    expect(fields).toEqual({ customerKey: "client number", policyNumber: "POLICY #", premium: "Written Premium" });
    expect(detectPreset(["client number", "POLICY #", "Written Premium"])).toBeNull();
  });
});

describe("value mapping", () => {
  test("line-of-business codes and names", () => {
    expect(suggestLineOfBusiness("AUTOP")).toBe("PAUTO");
    expect(suggestLineOfBusiness("Personal Auto")).toBe("PAUTO");
    expect(suggestLineOfBusiness("HO-3")).toBe("HOME");
    expect(suggestLineOfBusiness("Homeowners HO3 Special Form")).toBe("HOME");
    expect(suggestLineOfBusiness("PUMBR")).toBe("UMBRP");
    expect(suggestLineOfBusiness("WCOMP")).toBe("WC");
    expect(suggestLineOfBusiness("AUTOB")).toBe("CAUTO");
    expect(suggestLineOfBusiness("Businessowners")).toBe("BOP");
    expect(suggestLineOfBusiness("Crop hail")).toBeNull();
  });

  test("status codes", () => {
    expect(suggestStatus("In Force")).toBe("active");
    expect(suggestStatus("CXL")).toBe("cancelled");
    expect(suggestStatus("Non-Renewed")).toBe("non_renewed");
    expect(suggestStatus("weird")).toBeNull();
  });

  test("the saved choice wins over the suggestion; unknown lines default to OTHER in the suggested map", () => {
    const maps = suggestValueMaps(["AUTOP", "Crop hail", ""], ["Active", "Zombie"]);
    expect(maps.lineOfBusiness).toEqual({ AUTOP: "PAUTO", "Crop hail": "OTHER" });
    expect(maps.status).toEqual({ Active: "active", Zombie: "active" });
    expect(mapLineOfBusiness("AUTOP", { AUTOP: "CAUTO" })).toBe("CAUTO");
    expect(mapLineOfBusiness("Crop hail", {})).toBeNull();
    expect(mapStatus("Zombie", { Zombie: "expired" })).toBe("expired");
  });
});

describe("parsing messy exports", () => {
  test("money", () => {
    expect(parseMoney("$1,234.50")).toEqual({ ok: true, value: 1234.5 });
    expect(parseMoney("1234.5")).toEqual({ ok: true, value: 1234.5 });
    expect(parseMoney("(12.00)")).toEqual({ ok: true, value: -12 });
    expect(parseMoney("N/A")).toEqual({ ok: true, value: null });
    expect(parseMoney(" ")).toEqual({ ok: true, value: null });
    expect(parseMoney("call office")).toEqual({ ok: false });
  });

  test("dates", () => {
    expect(parseDate("03/01/2025")).toEqual({ ok: true, value: "2025-03-01" });
    expect(parseDate("3/1/25")).toEqual({ ok: true, value: "2025-03-01" });
    expect(parseDate("2025-03-01")).toEqual({ ok: true, value: "2025-03-01" });
    expect(parseDate("2025-03-01T00:00:00Z")).toEqual({ ok: true, value: "2025-03-01" });
    expect(parseDate("Mar 1, 2025")).toEqual({ ok: true, value: "2025-03-01" });
    expect(parseDate("01-Mar-2025")).toEqual({ ok: true, value: "2025-03-01" });
    expect(parseDate("45717")).toEqual({ ok: true, value: "2025-03-01" });
    expect(parseDate("02/30/2025")).toEqual({ ok: false });
    expect(parseDate("13/45/2024")).toEqual({ ok: false });
    expect(parseDate("")).toEqual({ ok: true, value: null });
  });

  test("names and states", () => {
    expect(splitPersonName("Smith, John A.")).toEqual({ firstName: "John A.", lastName: "Smith" });
    expect(splitPersonName("Mary Jane Watson")).toEqual({ firstName: "Mary Jane", lastName: "Watson" });
    expect(parseState("tx")).toEqual({ ok: true, value: "TX" });
    expect(parseState("New York")).toEqual({ ok: true, value: "NY" });
    expect(parseState("Narnia")).toEqual({ ok: false });
  });
});

describe("validation reasons", () => {
  const mapping: ConnectionMapping = {
    object: "rows",
    fields: {
      customerKey: "Client",
      customerName: "Name",
      policyNumber: "Policy",
      lineOfBusiness: "LOB",
      carrier: "Carrier",
      status: "Status",
      effectiveDate: "Eff",
      expirationDate: "Exp",
      premium: "Premium",
      state: "State",
    },
    valueMaps: { lineOfBusiness: { AUTOP: "PAUTO", XYZ: "" }, status: {} },
  };
  const row = (values: Record<string, string>) => ({
    rowNumber: 7,
    values: {
      Client: "C1",
      Name: "Smith, Jane",
      Policy: "P-1",
      LOB: "AUTOP",
      Carrier: "Safeco",
      Status: "Active",
      Eff: "01/15/2025",
      Exp: "2026-01-15",
      Premium: "$1,200.00",
      State: "Texas",
      ...values,
    },
  });

  test("a good row becomes a customer and a policy keyed by customer + number + effective date", () => {
    const result = transformRow(row({}), mapping);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.customer).toMatchObject({
      sourceKey: "C1",
      name: "Jane Smith",
      firstName: "Jane",
      lastName: "Smith",
      state: "TX",
      customerType: "personal",
    });
    expect(result.policy).toMatchObject({
      sourceKey: "C1|P-1|2025-01-15",
      lineOfBusiness: "PAUTO",
      premium: 1200,
      termMonths: 12,
      status: "active",
    });
  });

  test("every problem of a row is listed", () => {
    const result = transformRow(
      row({
        Name: "",
        Policy: " ",
        LOB: "XYZ",
        Carrier: "N/A",
        Eff: "13/45/2024",
        Exp: "",
        Premium: "call office",
        State: "Narnia",
        Status: "Zombie",
      }),
      mapping,
    );
    expect(result).toEqual({
      ok: false,
      reasons: [
        "Customer name is missing",
        "Policy number is missing",
        "Line of business is not mapped: 'XYZ'",
        "Carrier is missing",
        "Status is not mapped: 'Zombie'",
        "Effective date is not a date: '13/45/2024'",
        "Expiration date is missing",
        "Premium is not a number: 'call office'",
        "State is not a US state: 'Narnia'",
      ],
    });
  });

  test("expiration must come after the effective date; a blank premium is missing, an 'N/A' one is not a number", () => {
    const result = transformRow(row({ Exp: "01/01/2025", Premium: "" }), mapping);
    expect(result).toEqual({ ok: false, reasons: ["Expiration date is not after the effective date", "Premium is missing"] });
    expect(transformRow(row({ Premium: "N/A" }), mapping)).toEqual({ ok: false, reasons: ["Premium is not a number: 'N/A'"] });
    expect(transformRow(row({ Premium: "6,480" }), mapping)).toMatchObject({ ok: true, policy: { premium: 6480 } });
  });

  test("businesses keep their name", () => {
    const result = transformRow(row({ Name: "Summit Roofing Inc" }), mapping);
    expect(result.ok && result.customer).toMatchObject({
      customerType: "commercial",
      name: "Summit Roofing Inc",
      businessName: "Summit Roofing Inc",
    });
  });

  test("filters leave out unticked values only", () => {
    const result = transformRow(row({}), mapping);
    if (!result.ok) throw new Error("expected a valid row");
    const none = { linesOfBusiness: [], states: [], carriers: [], statuses: [] };
    expect(passesFilters(result.customer, result.policy, { excluded: none })).toBe(true);
    expect(passesFilters(result.customer, result.policy, { excluded: { ...none, carriers: ["Safeco"] } })).toBe(false);
    expect(passesFilters(result.customer, result.policy, { excluded: { ...none, states: ["CA"] } })).toBe(true);
  });
});

describe("the filter options' default", () => {
  test("leaves out the statuses no longer in force that the source has, and nothing else", () => {
    const found = (...values: string[]) => values.map((value) => ({ value, count: 1 }));
    expect(
      defaultExclusions({
        linesOfBusiness: found("HOME", "PAUTO"),
        states: found("PA"),
        carriers: found("Erie"),
        statuses: found("active", "cancelled", "expired", "non_renewed", "quoted", "renewed"),
      }),
    ).toEqual({ linesOfBusiness: [], states: [], carriers: [], statuses: ["cancelled", "expired", "non_renewed"] });
    expect(defaultExclusions({ linesOfBusiness: [], states: [], carriers: [], statuses: found("active") }).statuses).toEqual([]);
  });
});
