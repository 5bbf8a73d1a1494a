import type { DbOrTx } from "~/db/client.server";
import { auditEvents } from "~/db/schema";

export type AuditInput = {
  tenantId: string | null;
  actorUserId?: string | null;
  actorEmail?: string | null;
  action: string;
  subjectType?: string;
  subjectId?: string;
  details?: Record<string, unknown>;
};

/** Append one audit event; call inside the transaction of the change it records. */
export async function recordAudit(db: DbOrTx, event: AuditInput, now = new Date()) {
  await db.insert(auditEvents).values({ ...event, createdAt: now });
}
