import { normalizeHeader } from "./suggest";

// Column layouts of the known exports. A preset maps canonical fields to the vendor's headers;
// it applies when most of its headers are present in the source.

export type Preset = { id: string; label: string; fields: Record<string, string> };

export const PRESETS: Preset[] = [
  {
    id: "ezlynx",
    label: "EZLynx book-of-business export",
    fields: {
      customerKey: "Client Number",
      customerName: "Applicant Name",
      customerType: "Applicant Type",
      email: "Email",
      phone: "Phone",
      address1: "Address Line 1",
      address2: "Address Line 2",
      city: "City",
      state: "State",
      zip: "Zip Code",
      producer: "Producer",
      csr: "CSR",
      policyNumber: "Policy #",
      lineOfBusiness: "LOB",
      carrier: "Carrier",
      status: "Policy Status",
      inceptionDate: "Original Inception",
      effectiveDate: "Effective Date",
      expirationDate: "Exp Date",
      termMonths: "Term",
      premium: "Written Premium",
      priorPremium: "Prior Premium",
      renewalPremium: "Renewal Premium",
      riskState: "Risk State",
      claims3y: "Claims 3Y",
      lastModifiedAt: "Last Modified",
    },
  },
  {
    id: "appliedepic",
    label: "Applied Epic book-of-business report",
    fields: {
      customerKey: "Lookup Code",
      customerName: "Account Name",
      customerType: "Account Type",
      email: "Email Address",
      phone: "Phone Number",
      address1: "Address Line 1",
      address2: "Address Line 2",
      city: "City",
      state: "State/Province",
      zip: "Postal Code",
      producer: "Producer",
      csr: "Account Manager",
      policyNumber: "Policy Number",
      lineOfBusiness: "Line of Business",
      carrier: "Issuing Company",
      status: "Policy Status",
      inceptionDate: "Original Inception",
      effectiveDate: "Effective Date",
      expirationDate: "Expiration Date",
      premium: "Annualized Premium",
      priorPremium: "Prior Premium",
    },
  },
  {
    id: "qqcatalyst",
    label: "QQCatalyst policy export",
    fields: {
      customerKey: "Customer ID",
      customerName: "Customer Name",
      customerType: "Customer Type",
      email: "Email Address",
      phone: "Phone Number",
      address1: "Street Address",
      city: "City",
      state: "State",
      zip: "ZIP",
      producer: "Agent",
      csr: "CSR",
      policyNumber: "Policy No",
      lineOfBusiness: "Policy Type",
      carrier: "Writing Carrier",
      status: "Status",
      effectiveDate: "Effective",
      expirationDate: "Expiration",
      premium: "Premium",
      priorPremium: "Previous Premium",
    },
  },
  {
    id: "hawksoft",
    label: "HawkSoft client and policy export",
    fields: {
      customerKey: "Client #",
      firstName: "First Name",
      lastName: "Last Name",
      businessName: "Business Name",
      email: "Email",
      phone: "Phone",
      address1: "Address",
      city: "City",
      state: "State",
      zip: "Zip",
      producer: "Producer",
      csr: "CSR",
      policyNumber: "Policy #",
      lineOfBusiness: "Line",
      carrier: "Company",
      status: "Status",
      effectiveDate: "Eff Date",
      expirationDate: "Exp Date",
      termMonths: "Term",
      premium: "Written Premium",
      priorPremium: "Prior Premium",
    },
  },
  {
    id: "salesforce",
    label: "Salesforce InsurancePolicy",
    fields: {
      customerKey: "Customer_Number__c",
      customerName: "Customer_Name__c",
      email: "Customer_Email__c",
      phone: "Customer_Phone__c",
      state: "Billing_State__c",
      producer: "Producer__c",
      csr: "CSR__c",
      policyNumber: "Name",
      lineOfBusiness: "PolicyType",
      carrier: "Carrier__c",
      status: "Status",
      effectiveDate: "EffectiveDate",
      expirationDate: "ExpirationDate",
      premium: "GrossWrittenPremium",
      priorPremium: "Prior_Premium__c",
      lastModifiedAt: "LastModifiedDate",
    },
  },
];

export function getPreset(id: string | null | undefined) {
  return PRESETS.find((p) => p.id === id) ?? null;
}

/** A preset's field map restricted to the headers that exist (matched loosely on spelling). */
export function applyPreset(preset: Preset, headers: string[]) {
  const byNormal = new Map(headers.map((h) => [normalizeHeader(h), h]));
  const fields: Record<string, string> = {};
  for (const [key, header] of Object.entries(preset.fields)) {
    const found = byNormal.get(normalizeHeader(header));
    if (found) fields[key] = found;
  }
  return fields;
}

/** The preset whose headers the source matches best, when it matches at least 70 % of them. */
export function detectPreset(headers: string[]) {
  let best: { preset: Preset; share: number } | null = null;
  for (const preset of PRESETS) {
    const share = Object.keys(applyPreset(preset, headers)).length / Object.keys(preset.fields).length;
    if (share >= 0.7 && (!best || share > best.share)) best = { preset, share };
  }
  return best?.preset ?? null;
}
