import type { SourceRow } from "~/services/connections/mapping/transform";
import { createApiClient, type ApiClientOptions, ApiError, InvalidCredentialsError } from "./api-client.server";
import { topValues } from "./file.server";
import { ConnectorError, type Connector } from "./types";

// Salesforce over its REST API: OAuth2 refresh-token grant, sObject describe, SOQL queries
// paged with nextRecordsUrl. All calls go through the seed §8 client (api-client.server.ts).

export const SALESFORCE_API_VERSION = "v60.0";

export type SalesforceCredentials = { loginUrl: string; clientId: string; clientSecret: string; refreshToken: string };

type Describe = { fields: { name: string; label: string; type: string }[] };
type QueryPage = { totalSize: number; done: boolean; nextRecordsUrl?: string; records: Record<string, unknown>[] };

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;

function identifier(name: string) {
  if (!IDENTIFIER.test(name)) throw new ConnectorError(`Not a Salesforce field or object name: ${name}`);
  return name;
}

const SOQL_ESCAPES: Record<string, string> = {
  "\\": "\\\\",
  "'": "\\'",
  '"': '\\"',
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

/** A SOQL string literal: Salesforce's escapes for backslash, quotes and control characters. */
export function soqlString(value: string) {
  return `'${value.replace(/[\\'"\n\r\t\b\f]/g, (c) => SOQL_ESCAPES[c])}'`;
}

/** A Salesforce value as export text (nested objects flattened by their Name, when present). */
function text(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return text((value as Record<string, unknown>).Name ?? "");
  return String(value);
}

export function createSalesforceConnector(
  credentials: SalesforceCredentials,
  options: Omit<ApiClientOptions, "refreshToken"> & { fetch?: typeof fetch },
): Connector {
  const doFetch = options.fetch ?? fetch;
  const base = `/services/data/${SALESFORCE_API_VERSION}`;

  const client = createApiClient({
    ...options,
    async refreshToken() {
      const response = await doFetch(`${credentials.loginUrl.replace(/\/$/, "")}/services/oauth2/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          client_id: credentials.clientId,
          client_secret: credentials.clientSecret,
          refresh_token: credentials.refreshToken,
        }),
      });
      const body = (await response.json().catch(() => ({}))) as { access_token?: string; instance_url?: string; error?: string };
      if (!response.ok || !body.access_token || !body.instance_url) {
        throw new Error(body.error ?? `token endpoint answered ${response.status}`);
      }
      return { accessToken: body.access_token, baseUrl: body.instance_url.replace(/\/$/, "") };
    },
  });

  const soql = (query: string) => `${base}/query?${new URLSearchParams({ q: query })}`;

  async function describe(object: string) {
    return client.request<Describe>(`${base}/sobjects/${identifier(object)}/describe`);
  }

  async function* query(q: string): AsyncIterable<Record<string, unknown>[]> {
    let page = await client.request<QueryPage>(soql(q));
    yield page.records;
    while (!page.done && page.nextRecordsUrl) {
      page = await client.request<QueryPage>(page.nextRecordsUrl);
      yield page.records;
    }
  }

  return {
    async listObjects() {
      const body = await client.request<{ sobjects: { name: string; label: string; queryable: boolean }[] }>(`${base}/sobjects`);
      return body.sobjects.filter((o) => o.queryable).map((o) => ({ name: o.name, label: o.label }));
    },

    async listAttributes(object) {
      return (await describe(object)).fields.map((f) => ({ name: f.name, label: f.label, type: f.type }));
    },

    async listValues(object, attribute, limit = 200) {
      const counts = new Map<string, number>();
      for await (const records of query(`SELECT ${identifier(attribute)} FROM ${identifier(object)} LIMIT 2000`)) {
        for (const r of records) {
          const v = text(r[attribute]).trim();
          counts.set(v, (counts.get(v) ?? 0) + 1);
        }
      }
      return topValues(counts, limit);
    },

    async *readRecords(object, options = {}) {
      const fields = options.attributes?.length
        ? [...new Set(["Id", ...options.attributes])]
        : (await describe(object)).fields.map((f) => f.name);
      let rowNumber = 0;
      // ORDER BY Id keeps the order stable, so a restarted import can skip what it committed.
      for await (const records of query(`SELECT ${fields.map(identifier).join(", ")} FROM ${identifier(object)} ORDER BY Id`)) {
        if (options.signal?.aborted) throw new ConnectorError("Import stopped");
        const page: SourceRow[] = records.map((r) => {
          const values: Record<string, string> = {};
          for (const f of fields) values[f] = text(r[f]);
          return { rowNumber: ++rowNumber, values };
        });
        if (page.length > 0) yield page;
      }
    },

    async testCredentials() {
      try {
        const objects = await this.listObjects();
        return { ok: true, message: `Connected to Salesforce: ${objects.length} objects available.` };
      } catch (error) {
        if (error instanceof InvalidCredentialsError) return { ok: false, message: "Salesforce refused these credentials." };
        if (error instanceof ApiError) return { ok: false, message: `Salesforce answered ${error.status}.` };
        return { ok: false, message: `Could not reach Salesforce: ${error instanceof Error ? error.message : String(error)}` };
      }
    },

    async listEmployeeAccounts() {
      const people = [];
      for await (const records of query("SELECT Id, Name, Email FROM User WHERE IsActive = true ORDER BY Name")) {
        for (const r of records)
          people.push({ sourceKey: `sf:${text(r.Id)}`, name: text(r.Name), email: text(r.Email) || null, role: "user" });
      }
      return people;
    },

    async listActivityCodes() {
      const fields = (await describe("Task")).fields as (Describe["fields"][number] & {
        picklistValues?: { value: string; label: string; active: boolean }[];
      })[];
      const type = fields.find((f) => f.name === "Type");
      return (type?.picklistValues ?? []).filter((p) => p.active).map((p) => ({ code: p.value, label: p.label }));
    },

    async findWrittenTask(task, createdSince) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(task.dueDate)) throw new ConnectorError(`Not a date: ${task.dueDate}`);
      const since = createdSince.toISOString().replace(/\.\d{3}Z$/, "Z");
      const q = `SELECT Id FROM Task WHERE Subject = ${soqlString(task.subject)} AND ActivityDate = ${task.dueDate} AND CreatedDate >= ${since} ORDER BY CreatedDate LIMIT 1`;
      for await (const records of query(q)) {
        const id = text(records[0]?.Id);
        if (id) return { id };
      }
      return null;
    },
    async writeTask(task) {
      const body = await client.request<{ id: string; success: boolean }>(`${base}/sobjects/Task`, {
        method: "POST",
        body: {
          Subject: task.subject,
          ActivityDate: task.dueDate,
          Description: task.description,
          ...(task.assigneeSourceKey?.startsWith("sf:") ? { OwnerId: task.assigneeSourceKey.slice(3) } : {}),
          ...(task.activityCode ? { Type: task.activityCode } : {}),
        },
      });
      return { id: body.id };
    },
  };
}
