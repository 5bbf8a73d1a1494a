import { afterAll, describe, expect, test } from "vitest";
import { loader as api } from "~/routes/api.$";
import { UNKNOWN_PATH } from "~/utils/problem.server";
import { bearerFor, createTestTenant } from "../support/factories";

// Seed §7 lists 81 calls. Each row: the seed's call, the method Remarket serves it with (the seed
// shows no method for its "Paths"), and the path asked for. A call is served when the API answers
// it as one of its operations (any answer but the unknown-path 404 or a 405); the five calls that
// make no sense here answer their documented 410 with a reason.

const ID = "00000000-0000-4000-8000-000000000000";
type Row = { seed: string; method: string; path: string; gone?: true };

const SECTION_7: Row[] = [
  // Files
  { seed: "POST /files", method: "POST", path: "/api/files" },
  { seed: "GET /files/mine", method: "GET", path: "/api/files/mine" },
  { seed: "GET /files", method: "GET", path: "/api/files" },
  { seed: "GET /files/get-public-url", method: "GET", path: `/api/files/get-public-url?fileKey=${ID}&bucket=b` },
  { seed: "POST /files/config", method: "POST", path: "/api/files/config" },
  { seed: "GET /files/config", method: "GET", path: "/api/files/config?domain=policies" },
  { seed: "GET /files/domain", method: "GET", path: "/api/files/domain?domain=policies" },
  { seed: "GET /files/eda-report", method: "GET", path: `/api/files/eda-report?fileId=${ID}` },
  { seed: "GET /files/file-user-information", method: "GET", path: "/api/files/file-user-information" },
  { seed: "PATCH /files/update-read-status", method: "PATCH", path: "/api/files/update-read-status" },
  { seed: "GET /files/get-eda", method: "GET", path: `/api/files/get-eda?fileId=${ID}` },
  { seed: "Storage update-yml (path not shown)", method: "POST", path: "/api/storage/update-yml", gone: true },
  // Auth and users
  { seed: "POST users/after-signup", method: "POST", path: "/api/users/after-signup" },
  { seed: "POST auth/demo-user", method: "POST", path: "/api/auth/demo-user" },
  { seed: "POST /user/create", method: "POST", path: "/api/user/create", gone: true },
  { seed: "PATCH /user/{id}", method: "PATCH", path: `/api/user/${ID}` },
  { seed: "POST auth/signup", method: "POST", path: "/api/auth/signup" },
  { seed: "POST auth/confirm-signup", method: "POST", path: "/api/auth/confirm-signup" },
  { seed: "POST auth/login", method: "POST", path: "/api/auth/login" },
  { seed: "POST auth/logout", method: "POST", path: "/api/auth/logout" },
  { seed: "POST auth/verify-token", method: "POST", path: "/api/auth/verify-token" },
  { seed: "POST auth/verify-firebase-token", method: "POST", path: "/api/auth/verify-firebase-token", gone: true },
  { seed: "GET auth/user", method: "GET", path: "/api/auth/user" },
  { seed: "POST /api/getFirebaseCreds", method: "POST", path: "/api/getFirebaseCreds", gone: true },
  { seed: "POST tenants/create-and-assign", method: "POST", path: "/api/tenants/create-and-assign", gone: true },
  // Billing
  { seed: "GET /billing-subscription/monthly-usage", method: "GET", path: "/api/billing-subscription/monthly-usage?month=1&year=2026" },
  { seed: "GET /billing-subscription/remarket-usage", method: "GET", path: "/api/billing-subscription/remarket-usage" },
  { seed: "POST /stripe/create-stripe-customer", method: "POST", path: "/api/stripe/create-stripe-customer" },
  { seed: "GET /stripe/get-payment-customer-id", method: "GET", path: "/api/stripe/get-payment-customer-id?email=a@example.test" },
  { seed: "GET /stripe/grace-period-status", method: "GET", path: "/api/stripe/grace-period-status" },
  { seed: "POST /stripe/billing-portal-session", method: "POST", path: "/api/stripe/billing-portal-session?customer_id=cus_x" },
  // Paths (methods not shown in the seed)
  { seed: "/mappings/save-config", method: "POST", path: "/api/mappings/save-config" },
  { seed: "/connections/etl-filter-values", method: "GET", path: `/api/connections/etl-filter-values?connectionId=${ID}` },
  { seed: "/connections/state/save", method: "POST", path: "/api/connections/state/save" },
  { seed: "/connections/state/get", method: "GET", path: `/api/connections/state/get?connectionId=${ID}` },
  { seed: "/notifications", method: "GET", path: "/api/notifications" },
  { seed: "/notifications/create/group", method: "POST", path: "/api/notifications/create/group" },
  { seed: "/notifications/durationByConnectionId", method: "GET", path: `/api/notifications/durationByConnectionId?connectionId=${ID}` },
  { seed: "/deeplinks/{id}/verify", method: "GET", path: "/api/deeplinks/not-a-link/verify" },
  { seed: "/connections/status/{id}", method: "GET", path: `/api/connections/status/${ID}` },
  { seed: "/integrations/ezlynx/sample-csv", method: "GET", path: "/api/integrations/ezlynx/sample-csv?rows=10" },
  { seed: "connections/ezlynx/upload-csv", method: "POST", path: "/api/connections/ezlynx/upload-csv" },
  { seed: "connections/start-etl/{id}", method: "POST", path: `/api/connections/start-etl/${ID}` },
  { seed: "connections/salesforce/mapping", method: "GET", path: `/api/connections/salesforce/mapping?connectionId=${ID}` },
  { seed: "connections/salesforce/mapping/objects", method: "GET", path: `/api/connections/salesforce/mapping/objects?connectionId=${ID}` },
  {
    seed: "connections/salesforce/mapping/object/{object}/attributes",
    method: "GET",
    path: `/api/connections/salesforce/mapping/object/Account/attributes?connectionId=${ID}`,
  },
  {
    seed: "connections/salesforce/mapping/attribute/{attribute}/values",
    method: "GET",
    path: `/api/connections/salesforce/mapping/attribute/State/values?connectionId=${ID}`,
  },
  { seed: "/files/download", method: "GET", path: `/api/files/download?fileName=${ID}` },
  { seed: "/connections/disconnect/{id}", method: "POST", path: `/api/connections/disconnect/${ID}` },
  { seed: "/connections/disconnect/sub-connection/{id}", method: "POST", path: `/api/connections/disconnect/sub-connection/${ID}` },
  { seed: "/forecast-summary/tenant", method: "GET", path: "/api/forecast-summary/tenant" },
  { seed: "/forecast-preferences/tenant", method: "GET", path: "/api/forecast-preferences/tenant" },
  { seed: "/forecast-preferences", method: "GET", path: "/api/forecast-preferences" },
  { seed: "/forecast-preferences/{forecast_object_id}", method: "GET", path: "/api/forecast-preferences/HOME" },
  { seed: "/customers/all", method: "GET", path: "/api/customers/all" },
  { seed: "/customers/counts", method: "GET", path: "/api/customers/counts" },
  { seed: "/customers/{id}", method: "GET", path: `/api/customers/${ID}` },
  { seed: "/customers/{id}/audit-details/", method: "GET", path: `/api/customers/${ID}/audit-details/` },
  { seed: "/customers/recentMarketed/", method: "GET", path: "/api/customers/recentMarketed/" },
  { seed: "/qoutes/", method: "GET", path: "/api/qoutes/" },
  { seed: "/qoutes/customer/", method: "GET", path: `/api/qoutes/customer/?customerId=${ID}` },
  { seed: "/qoutes/policy/", method: "GET", path: `/api/qoutes/policy/?policyId=${ID}` },
  { seed: "/qoutes/policy/create-update", method: "POST", path: "/api/qoutes/policy/create-update" },
  { seed: "/qoutes/id/selection/", method: "POST", path: `/api/qoutes/${ID}/selection/` },
  { seed: "/policies/remarket", method: "POST", path: "/api/policies/remarket" },
  { seed: "/carriers", method: "GET", path: "/api/carriers" },
  { seed: "/carriers/tenant/list", method: "GET", path: "/api/carriers/tenant/list" },
  { seed: "/carriers/tenant/add-carrier", method: "POST", path: "/api/carriers/tenant/add-carrier" },
  { seed: "/carriers/tenant-carrier", method: "GET", path: `/api/carriers/tenant-carrier?id=${ID}` },
  { seed: "/carriers/tenant/invalid-creds", method: "GET", path: "/api/carriers/tenant/invalid-creds" },
  { seed: "/carriers/lob/states", method: "GET", path: "/api/carriers/lob/states?line=HOME" },
  { seed: "/carriers/lob/list", method: "GET", path: "/api/carriers/lob/list" },
  { seed: "/carriers/list-by-policy/", method: "GET", path: `/api/carriers/list-by-policy/?policyId=${ID}` },
  { seed: "/carriers/tenant-carrier-by-carrier/", method: "GET", path: `/api/carriers/tenant-carrier-by-carrier/?carrierId=${ID}` },
  { seed: "/carriers/tenant/assign-numbers", method: "POST", path: "/api/carriers/tenant/assign-numbers" },
  {
    seed: "/connections/appliedepic/employee-accounts",
    method: "GET",
    path: `/api/connections/appliedepic/employee-accounts?connectionId=${ID}`,
  },
  {
    seed: "connections/qqcatalyst/employee-accounts",
    method: "GET",
    path: `/api/connections/qqcatalyst/employee-accounts?connectionId=${ID}`,
  },
  { seed: "/connections/appliedepic/activity-code", method: "GET", path: `/api/connections/appliedepic/activity-code?connectionId=${ID}` },
  { seed: "/connections/appliedepic/work-group", method: "GET", path: `/api/connections/appliedepic/work-group?connectionId=${ID}` },
  { seed: "/v2/connections/organization", method: "GET", path: "/api/v2/connections/organization" },
  { seed: "/v2/connections", method: "GET", path: "/api/v2/connections" },
];

const served: string[] = [];

async function call(row: Row, auth: string) {
  const body = row.method === "GET" ? undefined : "{}";
  const request = new Request(`http://localhost${row.path}`, {
    method: row.method,
    headers: { Authorization: auth, ...(body ? { "Content-Type": "application/json", "Content-Length": "2" } : {}) },
    body,
  });
  const response = await api({ request, params: {}, context: {} });
  const text = await response.text();
  return { status: response.status, type: response.headers.get("Content-Type") ?? "", text };
}

describe("seed §7: every call of the original product is served under /api", () => {
  test("the table lists all 81 calls, each once", () => {
    expect(SECTION_7).toHaveLength(81);
    expect(new Set(SECTION_7.map((r) => r.seed)).size).toBe(81);
  });

  test.each(SECTION_7)("$seed → $method $path", async (row) => {
    const { user } = await createTestTenant();
    const answer = await call(row, await bearerFor(user));
    if (row.gone) {
      expect(answer.status).toBe(410);
      expect(answer.type).toBe("application/problem+json");
      expect(JSON.parse(answer.text).detail.length).toBeGreaterThan(20);
    } else {
      expect(answer.status, answer.text).not.toBe(405);
      expect(answer.status, answer.text).not.toBe(410);
      expect(answer.status, answer.text).toBeLessThan(500);
      if (answer.status === 404) expect(JSON.parse(answer.text).type).not.toBe(UNKNOWN_PATH);
    }
    served.push(row.seed);
  });

  afterAll(() => {
    console.log(
      `seed §7: ${served.length} of ${SECTION_7.length} calls served (${SECTION_7.filter((r) => r.gone).length} of them a documented 410)`,
    );
  });
});
