// The canonical import row (DOMAIN.md) that every source attribute is mapped onto.

export type CanonicalField = {
  key: string;
  label: string;
  group: "customer" | "policy" | "people";
  required?: boolean;
  /** Header spellings seen in real exports; suggestions compare against these. */
  synonyms: string[];
};

export const CANONICAL_FIELDS: CanonicalField[] = [
  {
    key: "customerKey",
    label: "Customer number",
    group: "customer",
    synonyms: [
      "client number",
      "client id",
      "customer id",
      "customer number",
      "lookup code",
      "account number",
      "client #",
      "client no",
      "account id",
      "client code",
    ],
  },
  {
    key: "customerName",
    label: "Customer name",
    group: "customer",
    required: true,
    synonyms: ["customer name", "client name", "applicant name", "insured name", "named insured", "account name", "insured", "name"],
  },
  { key: "firstName", label: "First name", group: "customer", synonyms: ["first name", "firstname", "insured first name", "given name"] },
  {
    key: "lastName",
    label: "Last name",
    group: "customer",
    synonyms: ["last name", "lastname", "surname", "insured last name", "family name"],
  },
  { key: "businessName", label: "Business name", group: "customer", synonyms: ["business name", "company name", "dba", "organization"] },
  {
    key: "customerType",
    label: "Customer type",
    group: "customer",
    synonyms: ["customer type", "client type", "applicant type", "account type", "type of client", "personal commercial"],
  },
  { key: "email", label: "E-mail", group: "customer", synonyms: ["email", "e-mail", "email address", "primary email"] },
  {
    key: "phone",
    label: "Phone",
    group: "customer",
    synonyms: ["phone", "phone number", "primary phone", "home phone", "mobile", "telephone"],
  },
  {
    key: "address1",
    label: "Address",
    group: "customer",
    synonyms: ["address", "address line 1", "address 1", "street", "street address", "mailing address", "address1"],
  },
  { key: "address2", label: "Address line 2", group: "customer", synonyms: ["address line 2", "address 2", "address2", "suite", "apt"] },
  { key: "city", label: "City", group: "customer", synonyms: ["city", "mailing city", "town"] },
  { key: "state", label: "State", group: "customer", synonyms: ["state", "mailing state", "state province", "st", "billing state"] },
  { key: "zip", label: "ZIP code", group: "customer", synonyms: ["zip", "zip code", "postal code", "zipcode", "postcode", "mailing zip"] },
  {
    key: "producer",
    label: "Producer",
    group: "people",
    synonyms: ["producer", "agent", "producer name", "writing agent", "agent name", "sales rep"],
  },
  {
    key: "csr",
    label: "CSR / account manager",
    group: "people",
    synonyms: ["csr", "account manager", "service rep", "customer service rep", "account rep", "csr name"],
  },
  {
    key: "policyNumber",
    label: "Policy number",
    group: "policy",
    required: true,
    synonyms: ["policy number", "policy #", "policy no", "policy num", "policy id", "pol number", "policy"],
  },
  {
    key: "lineOfBusiness",
    label: "Line of business",
    group: "policy",
    required: true,
    synonyms: ["line of business", "lob", "line", "policy type", "coverage type", "product", "line of coverage"],
  },
  {
    key: "carrier",
    label: "Carrier",
    group: "policy",
    required: true,
    synonyms: [
      "carrier",
      "company",
      "insurance company",
      "issuing company",
      "writing carrier",
      "insurer",
      "carrier name",
      "writing company",
    ],
  },
  { key: "status", label: "Policy status", group: "policy", synonyms: ["status", "policy status", "pol status", "state of policy"] },
  {
    key: "inceptionDate",
    label: "Inception date",
    group: "policy",
    synonyms: ["inception date", "original inception", "first written", "original effective date", "inception"],
  },
  {
    key: "effectiveDate",
    label: "Effective date",
    group: "policy",
    required: true,
    synonyms: ["effective date", "eff date", "effective", "policy effective date", "term effective", "start date"],
  },
  {
    key: "expirationDate",
    label: "Expiration date",
    group: "policy",
    required: true,
    synonyms: [
      "expiration date",
      "exp date",
      "expiration",
      "expiry date",
      "policy expiration date",
      "term expiration",
      "renewal date",
      "end date",
    ],
  },
  { key: "termMonths", label: "Term (months)", group: "policy", synonyms: ["term", "term months", "policy term", "term length"] },
  {
    key: "premium",
    label: "Premium",
    group: "policy",
    required: true,
    synonyms: [
      "premium",
      "written premium",
      "annual premium",
      "annualized premium",
      "current premium",
      "total premium",
      "gross written premium",
      "policy premium",
    ],
  },
  {
    key: "priorPremium",
    label: "Prior premium",
    group: "policy",
    synonyms: ["prior premium", "previous premium", "expiring premium", "last term premium"],
  },
  {
    key: "renewalPremium",
    label: "Renewal premium",
    group: "policy",
    synonyms: ["renewal premium", "renewing premium", "offered premium", "new premium"],
  },
  { key: "riskState", label: "Risk state", group: "policy", synonyms: ["risk state", "rating state", "policy state", "garaging state"] },
  {
    key: "claims3y",
    label: "Claims (3 years)",
    group: "policy",
    synonyms: ["claims 3y", "claims 3 years", "claims", "claim count", "losses 3 years"],
  },
  {
    key: "lastModifiedAt",
    label: "Last modified",
    group: "policy",
    synonyms: ["last modified", "modified date", "last updated", "updated at", "last modified date", "date modified"],
  },
];

export const REQUIRED_FIELDS = CANONICAL_FIELDS.filter((f) => f.required).map((f) => f.key);

export function fieldLabel(key: string) {
  return CANONICAL_FIELDS.find((f) => f.key === key)?.label ?? key;
}

/**
 * Required mappings that are missing. A customer name may come from one column, from
 * first + last name, or from a business name.
 */
export function missingRequiredFields(fields: Record<string, string | undefined>) {
  const has = (k: string) => Boolean(fields[k]);
  return REQUIRED_FIELDS.filter((key) => {
    if (key === "customerName") return !has("customerName") && !has("lastName") && !has("businessName");
    return !has(key);
  });
}
