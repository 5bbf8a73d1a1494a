import { formatDate } from "./format";

// The integration catalogue (PRODUCT.md "Integrations"). Shared by server and browser.

export type IntegrationKind = "ams" | "crm" | "file";

export type CredentialField = {
  name: string;
  label: string;
  /** Secret fields are sealed at rest and never rendered back into a form. */
  secret: boolean;
  required: boolean;
  placeholder?: string;
  defaultValue?: string;
};

export type Integration = {
  id: "ezlynx" | "appliedepic" | "qqcatalyst" | "hawksoft" | "salesforce" | "csv";
  name: string;
  kind: IntegrationKind;
  /** "file": the export is uploaded in step 1; "api": credentials for the vendor API. */
  source: "file" | "api";
  logo: string;
  description: string;
  /** Mapping preset applied when the source's headers match it. */
  preset: string | null;
  credentials: CredentialField[];
};

export const INTEGRATIONS: Integration[] = [
  {
    id: "ezlynx",
    name: "EZLynx",
    kind: "ams",
    source: "file",
    logo: "/integrations/ezlynx.svg",
    description: "Upload the EZLynx book-of-business export (CSV or Excel). A sample export is available.",
    preset: "ezlynx",
    credentials: [],
  },
  {
    id: "appliedepic",
    name: "Applied Epic",
    kind: "ams",
    source: "file",
    logo: "/integrations/appliedepic.svg",
    description: "Upload the Applied Epic book-of-business report (CSV or Excel).",
    preset: "appliedepic",
    credentials: [],
  },
  {
    id: "qqcatalyst",
    name: "QQCatalyst",
    kind: "ams",
    source: "file",
    logo: "/integrations/qqcatalyst.svg",
    description: "Upload a QQCatalyst policy export (CSV or Excel).",
    preset: "qqcatalyst",
    credentials: [],
  },
  {
    id: "hawksoft",
    name: "HawkSoft",
    kind: "ams",
    source: "file",
    logo: "/integrations/hawksoft.svg",
    description: "Upload a HawkSoft client and policy export (CSV or Excel).",
    preset: "hawksoft",
    credentials: [],
  },
  {
    id: "salesforce",
    name: "Salesforce",
    kind: "crm",
    source: "api",
    logo: "/integrations/salesforce.svg",
    description: "Connect your Salesforce org over its REST API (a connected app with a refresh token).",
    preset: "salesforce",
    credentials: [
      { name: "loginUrl", label: "Login URL", secret: false, required: true, defaultValue: "https://login.salesforce.com" },
      { name: "clientId", label: "Consumer key", secret: false, required: true },
      { name: "clientSecret", label: "Consumer secret", secret: true, required: true },
      { name: "refreshToken", label: "Refresh token", secret: true, required: true },
    ],
  },
  {
    id: "csv",
    name: "CSV / Excel export",
    kind: "file",
    source: "file",
    logo: "/integrations/csv.svg",
    description: "Any agency management system's export as CSV or Excel; map its columns in the next step.",
    preset: null,
    credentials: [],
  },
];

/** A new connection's name until the agency types its own: "EZLynx export, 25 Nov 2026" (`date` is yyyy-mm-dd). */
export function defaultConnectionName(integration: Pick<Integration, "name" | "source">, date: string) {
  if (integration.source !== "file") return integration.name;
  const base = /\bexport$/i.test(integration.name) ? integration.name : `${integration.name} export`;
  return `${base}, ${formatDate(date)}`;
}

export function getIntegration(id: string | null | undefined): Integration | null {
  return INTEGRATIONS.find((i) => i.id === id) ?? null;
}

export const KIND_LABELS: Record<IntegrationKind, string> = {
  ams: "Agency management system",
  crm: "CRM",
  file: "File export",
};

export const STATUS_LABELS = {
  not_connected: "Not connected",
  connected: "Connected",
  syncing: "Syncing",
  error: "Error",
  disconnected: "Disconnected",
} as const;
