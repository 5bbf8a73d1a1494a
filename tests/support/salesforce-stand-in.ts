import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// A stand-in for the Salesforce REST API at the HTTP boundary (STYLE.md: vendors are stood in
// for at the HTTP boundary only). It speaks the documented shapes: the OAuth2 token endpoint
// (refresh_token grant), /sobjects, /sobjects/{name}/describe, /query with nextRecordsUrl
// paging, and POST /sobjects/Task. Knobs let tests expire tokens, fail calls and slow answers.

export type StandInRecord = Record<string, string | number | null>;

export type SalesforceStandIn = {
  url: string;
  /** Requests seen, in order (method, path, the bearer token used). */
  requests: { method: string; path: string; token: string | null }[];
  tokenRequests: number;
  /** Invalidate every token handed out so far (the next API call gets a 401). */
  expireTokens(): void;
  /** Refuse refreshes (invalid_grant), or hand out tokens the API then refuses. */
  refuseRefresh: boolean;
  issueBadTokens: boolean;
  /** Answer the next `count` API calls (not token calls) with `status`. */
  failNext(status: number, count?: number): void;
  /** Delay every API answer (time-out tests). */
  delayMs: number;
  /** Delay the token endpoint (queueing tests). */
  tokenDelayMs: number;
  /** Hold token answers until the returned function is called (queueing tests, no timing races). */
  holdTokens(): () => void;
  /** Tasks created, each with the CreatedDate the stand-in gave it. */
  tasks: Record<string, unknown>[];
  /** Create the next `n` tasks, then drop the connection instead of answering (a lost response). */
  loseTaskResponses: number;
  close(): Promise<void>;
};

const FIELDS = [
  ["Id", "Record ID", "id"],
  ["Name", "Policy Number", "string"],
  ["PolicyType", "Policy Type", "picklist"],
  ["Status", "Status", "picklist"],
  ["EffectiveDate", "Effective Date", "date"],
  ["ExpirationDate", "Expiration Date", "date"],
  ["GrossWrittenPremium", "Gross Written Premium", "currency"],
  ["Prior_Premium__c", "Prior Premium", "currency"],
  ["Carrier__c", "Carrier", "string"],
  ["Customer_Number__c", "Customer Number", "string"],
  ["Customer_Name__c", "Customer Name", "string"],
  ["Customer_Email__c", "Customer Email", "email"],
  ["Customer_Phone__c", "Customer Phone", "phone"],
  ["Billing_State__c", "Billing State", "string"],
  ["Producer__c", "Producer", "string"],
  ["CSR__c", "CSR", "string"],
  ["LastModifiedDate", "Last Modified Date", "datetime"],
] as const;

export function standInPolicies(count: number): StandInRecord[] {
  const lobs = ["Auto", "Homeowners", "Umbrella", "Commercial Auto"];
  return Array.from({ length: count }, (_, i) => ({
    Id: `0YT${String(i).padStart(12, "0")}`,
    Name: `SF-${1000 + i}`,
    PolicyType: lobs[i % lobs.length],
    Status: i % 10 === 0 ? "Cancelled" : "In Force",
    EffectiveDate: `2025-0${1 + (i % 9)}-15`,
    ExpirationDate: `2026-0${1 + (i % 9)}-15`,
    GrossWrittenPremium: 900 + i * 3.5,
    Prior_Premium__c: 850 + i * 3,
    Carrier__c: ["Travelers", "Safeco", "Progressive"][i % 3],
    Customer_Number__c: `A-${Math.floor(i / 2)}`,
    Customer_Name__c: `Customer ${Math.floor(i / 2)}`,
    Customer_Email__c: `c${Math.floor(i / 2)}@example.com`,
    Customer_Phone__c: "512-555-0100",
    Billing_State__c: "TX",
    Producer__c: "Pat Producer",
    CSR__c: "Sam Service",
    LastModifiedDate: "2025-05-01T10:00:00.000+0000",
  }));
}

// The one WHERE clause the stand-in answers: the write-back's look-up of a task an attempt wrote.
const TASK_LOOKUP =
  /^SELECT Id FROM Task WHERE Subject = '((?:[^'\\]|\\.)*)' AND ActivityDate = (\d{4}-\d{2}-\d{2}) AND CreatedDate >= (\S+) ORDER BY CreatedDate LIMIT 1$/;
const SOQL_UNESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };
const unescapeSoql = (literal: string) => literal.replace(/\\(.)/g, (_, c: string) => SOQL_UNESCAPES[c] ?? c);

export async function startSalesforceStandIn(
  options: { records?: StandInRecord[]; pageSize?: number; refreshToken?: string } = {},
): Promise<SalesforceStandIn> {
  const records = options.records ?? standInPolicies(5);
  const pageSize = options.pageSize ?? 2000;
  const validRefresh = options.refreshToken ?? "good-refresh-token";
  const valid = new Set<string>();
  let tokenCounter = 0;
  let failures: { status: number; count: number } | null = null;
  let tokenGate: Promise<void> | null = null;
  const cursors = new Map<string, { rows: StandInRecord[]; fields: string[]; offset: number }>();

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const readBody = async (req: IncomingMessage) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    return text;
  };

  function page(cursorId: string, res: ServerResponse) {
    const cursor = cursors.get(cursorId)!;
    const slice = cursor.rows.slice(cursor.offset, cursor.offset + pageSize);
    cursor.offset += slice.length;
    const done = cursor.offset >= cursor.rows.length;
    send(res, 200, {
      totalSize: cursor.rows.length,
      done,
      ...(done ? {} : { nextRecordsUrl: `/services/data/v60.0/query/${cursorId}-${cursor.offset}` }),
      records: slice.map((r) => ({
        attributes: { type: "InsurancePolicy" },
        ...Object.fromEntries(cursor.fields.map((f) => [f, r[f] ?? null])),
      })),
    });
  }

  const state: SalesforceStandIn = {
    url: "",
    requests: [],
    tokenRequests: 0,
    refuseRefresh: false,
    issueBadTokens: false,
    delayMs: 0,
    tokenDelayMs: 0,
    tasks: [],
    loseTaskResponses: 0,
    expireTokens: () => valid.clear(),
    holdTokens: () => {
      let release: () => void = () => {};
      tokenGate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        tokenGate = null;
        release();
      };
    },
    failNext: (status, count = 1) => {
      failures = { status, count };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    if (req.method === "POST" && url.pathname === "/services/oauth2/token") {
      state.tokenRequests++;
      const form = new URLSearchParams(await readBody(req));
      if (state.tokenDelayMs) await wait(state.tokenDelayMs);
      if (tokenGate) await tokenGate;
      if (state.refuseRefresh || form.get("grant_type") !== "refresh_token" || form.get("refresh_token") !== validRefresh) {
        return send(res, 400, { error: "invalid_grant", error_description: "expired access/refresh token" });
      }
      const token = `token-${++tokenCounter}`;
      if (!state.issueBadTokens) valid.add(token);
      return send(res, 200, { access_token: token, instance_url: state.url, token_type: "Bearer", issued_at: String(Date.now()) });
    }

    const token = req.headers.authorization?.replace(/^Bearer /, "") ?? null;
    state.requests.push({ method: req.method ?? "GET", path: url.pathname + url.search, token });
    if (state.delayMs) await wait(state.delayMs);
    if (!token || !valid.has(token)) return send(res, 401, [{ message: "Session expired or invalid", errorCode: "INVALID_SESSION_ID" }]);
    if (failures && failures.count > 0) {
      failures.count--;
      return send(res, failures.status, [{ message: "An unexpected error occurred", errorCode: "UNKNOWN_EXCEPTION" }]);
    }

    const base = "/services/data/v60.0";
    if (url.pathname === `${base}/sobjects` && req.method === "GET") {
      return send(res, 200, {
        sobjects: [
          { name: "Account", label: "Account", queryable: true },
          { name: "InsurancePolicy", label: "Insurance Policy", queryable: true },
          { name: "Task", label: "Task", queryable: true },
          { name: "User", label: "User", queryable: true },
        ],
      });
    }
    const describe = url.pathname.match(/^\/services\/data\/v60\.0\/sobjects\/(\w+)\/describe$/);
    if (describe) {
      if (describe[1] === "Task") {
        return send(res, 200, {
          fields: [
            { name: "Subject", label: "Subject", type: "string" },
            {
              name: "Type",
              label: "Type",
              type: "picklist",
              picklistValues: [
                { value: "Call", label: "Call", active: true },
                { value: "Renewal Review", label: "Renewal Review", active: true },
              ],
            },
          ],
        });
      }
      if (describe[1] !== "InsurancePolicy") return send(res, 404, [{ errorCode: "NOT_FOUND" }]);
      return send(res, 200, { fields: FIELDS.map(([name, label, type]) => ({ name, label, type })) });
    }
    if (url.pathname === `${base}/query`) {
      const q = url.searchParams.get("q") ?? "";
      const taskLookup = q.match(TASK_LOOKUP);
      if (taskLookup) {
        const [, subject, activityDate, since] = taskLookup;
        const found = state.tasks.filter(
          (t) =>
            t.Subject === unescapeSoql(subject) &&
            t.ActivityDate === activityDate &&
            String(t.CreatedDate) >= new Date(since).toISOString(),
        );
        return send(res, 200, {
          totalSize: found.length,
          done: true,
          records: found.slice(0, 1).map((t) => ({ attributes: { type: "Task" }, Id: t.Id })),
        });
      }
      const m = q.match(/^SELECT (.+?) FROM (\w+)(?: WHERE .+?)?(?: ORDER BY \w+)?(?: LIMIT (\d+))?$/i);
      if (!m) return send(res, 400, [{ errorCode: "MALFORMED_QUERY", message: q }]);
      const fields = m[1].split(",").map((f) => f.trim());
      const rows =
        m[2] === "User"
          ? [
              { Id: "005A", Name: "Pat Producer", Email: "pat@agency.test" },
              { Id: "005B", Name: "Sam Service", Email: "sam@agency.test" },
            ]
          : records.slice(0, m[3] ? Number(m[3]) : undefined);
      const id = `01g${cursors.size}`;
      cursors.set(id, { rows, fields, offset: 0 });
      return page(id, res);
    }
    const more = url.pathname.match(/^\/services\/data\/v60\.0\/query\/(01g\d+)-(\d+)$/);
    if (more && cursors.has(more[1])) return page(more[1], res);
    if (url.pathname === `${base}/sobjects/Task` && req.method === "POST") {
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      const id = `00T${state.tasks.length + 1}`;
      state.tasks.push({ ...body, Id: id, CreatedDate: new Date().toISOString() });
      if (state.loseTaskResponses > 0) {
        state.loseTaskResponses--;
        return req.socket.destroy();
      }
      return send(res, 201, { id, success: true, errors: [] });
    }
    send(res, 404, [{ errorCode: "NOT_FOUND", message: url.pathname }]);
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
