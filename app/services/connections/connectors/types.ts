import type { SourceRow } from "~/services/connections/mapping/transform";

// One interface for every source (PRODUCT.md "Integrations"): list objects → list an object's
// attributes → list an attribute's distinct values → read records, plus a credentials test and
// optional task write-back.

export type SourceObject = { name: string; label: string };
export type SourceAttribute = { name: string; label: string; type?: string };
export type SourceValue = { value: string; count: number };

export type EmployeeAccountInput = { sourceKey: string; name: string; email: string | null; role: string | null };
export type TaskOption = { code: string; label: string };

export type TaskWriteBack = {
  subject: string;
  dueDate: string;
  description: string;
  assigneeSourceKey: string | null;
  activityCode: string | null;
  workGroup: string | null;
};

export type TestResult = { ok: boolean; message: string };

export interface Connector {
  /**
   * Names the source's content when it can never change (an uploaded export, stored once under a
   * fresh key), so what is read from it may be kept; absent for a live system.
   */
  readonly contentKey?: string;
  listObjects(): Promise<SourceObject[]>;
  listAttributes(object: string): Promise<SourceAttribute[]>;
  /** Distinct values of one attribute with counts, most frequent first. */
  listValues(object: string, attribute: string, limit?: number): Promise<SourceValue[]>;
  /** Records in pages, in a stable order (a restarted import skips what it committed). */
  readRecords(object: string, options?: { pageSize?: number; attributes?: string[]; signal?: AbortSignal }): AsyncIterable<SourceRow[]>;
  testCredentials(): Promise<TestResult>;
  /** People the AMS/CRM assigns work to (seed appliedepic/qqcatalyst employee-accounts). */
  listEmployeeAccounts?(): Promise<EmployeeAccountInput[]>;
  listActivityCodes?(): Promise<TaskOption[]>;
  listWorkGroups?(): Promise<TaskOption[]>;
  writeTask?(task: TaskWriteBack): Promise<{ id: string }>;
  /**
   * The task an earlier attempt wrote, when its answer was lost (a crash, a time-out, a dropped
   * connection): the same subject and due date, created since `createdSince`. Null when none.
   */
  findWrittenTask?(task: Pick<TaskWriteBack, "subject" | "dueDate">, createdSince: Date): Promise<{ id: string } | null>;
}

export class ConnectorError extends Error {}

/** The uploaded export itself cannot be read (not a workbook, cut off): the user's to replace, not a vendor outage. */
export class UnreadableExportError extends ConnectorError {}
