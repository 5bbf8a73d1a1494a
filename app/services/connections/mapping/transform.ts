import { FILTER_DIMENSIONS, type ConnectionFilters, type ConnectionMapping, type FilterDimension } from "~/db/schema/connections";
import {
  cleanText,
  looksLikeBusiness,
  monthsBetween,
  parseDate,
  parseEmail,
  parseInteger,
  parseMoney,
  parsePhone,
  parseState,
  parseTerm,
  parseTimestamp,
  splitPersonName,
} from "./parse";
import { mapLineOfBusiness, mapStatus, type LineOfBusiness, type PolicyStatus } from "./values";

// One source row → one canonical customer + policy, or the reasons it cannot be imported.

export type SourceRow = { rowNumber: number; values: Record<string, string> };

export type CanonicalCustomer = {
  sourceKey: string;
  customerType: "personal" | "commercial";
  firstName: string | null;
  lastName: string | null;
  businessName: string | null;
  name: string;
  email: string | null;
  phone: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  producer: string | null;
  csr: string | null;
};

export type CanonicalPolicy = {
  sourceKey: string;
  policyNumber: string;
  lineOfBusiness: LineOfBusiness;
  lineOfBusinessRaw: string;
  carrierName: string;
  status: PolicyStatus;
  inceptionDate: string | null;
  effectiveDate: string;
  expirationDate: string;
  termMonths: number | null;
  premium: number;
  priorPremium: number | null;
  renewalPremium: number | null;
  riskState: string | null;
  producer: string | null;
  csr: string | null;
  claims3y: number | null;
  lastModifiedAt: string | null;
};

export type TransformResult = { ok: true; customer: CanonicalCustomer; policy: CanonicalPolicy } | { ok: false; reasons: string[] };

/** The offending value as the reason quotes it: "Premium is not a number: 'N/A'". */
const quote = (v: string) => `'${v.length > 40 ? `${v.slice(0, 40)}…` : v}'`;

/** Apply the mapping and value maps to one row and validate it. */
export function transformRow(row: SourceRow, mapping: ConnectionMapping): TransformResult {
  const get = (field: string) => {
    const attribute = mapping.fields[field];
    return attribute ? (row.values[attribute] ?? "") : "";
  };
  const reasons: string[] = [];

  // Customer name: one column ("Last, First" or a business), or first + last, or a business name.
  const typeText = cleanText(get("customerType"))?.toLowerCase() ?? "";
  let businessName = cleanText(get("businessName"));
  let firstName = cleanText(get("firstName"));
  let lastName = cleanText(get("lastName"));
  const fullName = cleanText(get("customerName"));
  const commercial = /^(c|com|commercial|business|org|organization|company)$/.test(typeText);
  if (fullName) {
    if (commercial || looksLikeBusiness(fullName)) businessName ??= fullName;
    else if (!firstName && !lastName) ({ firstName, lastName } = splitPersonName(fullName));
  }
  const customerType = commercial || (businessName && !firstName && !lastName) ? "commercial" : "personal";
  const name =
    customerType === "commercial" && businessName ? businessName : [firstName, lastName].filter(Boolean).join(" ") || businessName || "";
  if (!name) reasons.push("Customer name is missing");

  const policyNumber = cleanText(get("policyNumber"));
  if (!policyNumber) reasons.push("Policy number is missing");

  const lobRaw = cleanText(get("lineOfBusiness"));
  let lineOfBusiness: LineOfBusiness | null = null;
  if (!lobRaw) reasons.push("Line of business is missing");
  else {
    lineOfBusiness = mapLineOfBusiness(lobRaw, mapping.valueMaps.lineOfBusiness);
    if (!lineOfBusiness) reasons.push(`Line of business is not mapped: ${quote(lobRaw)}`);
  }

  const carrierName = cleanText(get("carrier"));
  if (!carrierName) reasons.push("Carrier is missing");

  const statusRaw = cleanText(get("status"));
  let status: PolicyStatus | null = "active";
  if (statusRaw) {
    status = mapStatus(statusRaw, mapping.valueMaps.status);
    if (!status) reasons.push(`Status is not mapped: ${quote(statusRaw)}`);
  }

  const date = (field: string, label: string, required: boolean) => {
    const raw = get(field);
    const parsed = parseDate(raw);
    if (!parsed.ok) reasons.push(`${label} is not a date: ${quote(raw.trim())}`);
    else if (required && !parsed.value) reasons.push(`${label} is missing`);
    return parsed.ok ? parsed.value : null;
  };
  const effectiveDate = date("effectiveDate", "Effective date", true);
  const expirationDate = date("expirationDate", "Expiration date", true);
  const inceptionDate = date("inceptionDate", "Inception date", false);
  if (effectiveDate && expirationDate && expirationDate <= effectiveDate) {
    reasons.push("Expiration date is not after the effective date");
  }

  const money = (field: string, label: string, required: boolean) => {
    const raw = get(field);
    const parsed = parseMoney(raw);
    if (!parsed.ok) reasons.push(`${label} is not a number: ${quote(raw.trim())}`);
    // A required amount written "N/A" is a value that is not a number, not a missing one.
    else if (required && parsed.value === null)
      reasons.push(raw.trim() ? `${label} is not a number: ${quote(raw.trim())}` : `${label} is missing`);
    else if (parsed.value !== null && parsed.value < 0) reasons.push(`${label} is negative`);
    return parsed.ok ? parsed.value : null;
  };
  const premium = money("premium", "Premium", true);
  const priorPremium = money("priorPremium", "Prior premium", false);
  const renewalPremium = money("renewalPremium", "Renewal premium", false);

  const stateParsed = parseState(get("state"));
  if (!stateParsed.ok) reasons.push(`State is not a US state: ${quote(get("state").trim())}`);
  const riskParsed = parseState(get("riskState"));
  if (!riskParsed.ok) reasons.push(`Risk state is not a US state: ${quote(get("riskState").trim())}`);

  const claims = parseInteger(get("claims3y"));

  if (reasons.length > 0) return { ok: false, reasons };

  const zip = cleanText(get("zip"));
  const email = parseEmail(get("email"));
  const customerKey =
    cleanText(get("customerKey")) ??
    // No client number in the export: the name plus ZIP (or e-mail) identifies the household.
    `name:${name.toLowerCase()}|${zip ?? email ?? ""}`;
  const producer = cleanText(get("producer"));
  const csr = cleanText(get("csr"));

  return {
    ok: true,
    customer: {
      sourceKey: customerKey,
      customerType,
      firstName,
      lastName,
      businessName,
      name,
      email,
      phone: parsePhone(get("phone")),
      address1: cleanText(get("address1")),
      address2: cleanText(get("address2")),
      city: cleanText(get("city")),
      state: stateParsed.ok ? stateParsed.value : null,
      zip,
      producer,
      csr,
    },
    policy: {
      sourceKey: `${customerKey}|${policyNumber}|${effectiveDate}`,
      policyNumber: policyNumber!,
      lineOfBusiness: lineOfBusiness!,
      lineOfBusinessRaw: lobRaw!,
      carrierName: carrierName!,
      status: status!,
      inceptionDate,
      effectiveDate: effectiveDate!,
      expirationDate: expirationDate!,
      termMonths: parseTerm(get("termMonths")) ?? monthsBetween(effectiveDate!, expirationDate!),
      premium: premium!,
      priorPremium,
      renewalPremium,
      riskState: (riskParsed.ok ? riskParsed.value : null) ?? (stateParsed.ok ? stateParsed.value : null),
      producer,
      csr,
      claims3y: claims.ok ? claims.value : null,
      lastModifiedAt: parseTimestamp(get("lastModifiedAt")),
    },
  };
}

export const BLANK_FILTER_VALUE = "(blank)";

/** The value of each filter dimension for a valid row. */
export function filterValues(customer: CanonicalCustomer, policy: CanonicalPolicy): Record<FilterDimension, string> {
  return {
    linesOfBusiness: policy.lineOfBusiness,
    states: customer.state ?? BLANK_FILTER_VALUE,
    carriers: policy.carrierName,
    statuses: policy.status,
  };
}

/** Whether a valid row passes the filter options (only unticked values are left out). */
export function passesFilters(customer: CanonicalCustomer, policy: CanonicalPolicy, filters: ConnectionFilters | null) {
  if (!filters) return true;
  const values = filterValues(customer, policy);
  return FILTER_DIMENSIONS.every((d) => !filters.excluded[d]?.includes(values[d]));
}
