import { OUTCOME_LABELS } from "./renewals";

// The audit trail in words, shared by the customer page's trail and the dashboard's recent
// activity (no server-only imports here: the customer page renders it in the browser too).

/** What each recorded action was, as a short phrase; a policy number or name follows it. */
export const AUDIT_LABELS: Record<string, string> = {
  "policy.remarketed": "Re-marketed",
  "policy.remarket_undone": "Re-market undone",
  "quote.created": "Quote added",
  "quote.updated": "Quote edited",
  "quote.selected": "Quote selected",
  "remarket.lost": "Closed as lost",
  "remarket.incumbent_offer": "Incumbent's renewal offer recorded",
  "renewal.dismissed": "Dismissed from the worklist",
  "renewal.snoozed": "Snoozed",
  "task.done": "Task done",
  "task.open": "Task reopened",
  "policy.moved_out": "An import moved to another customer (the connection's identity rule): policy",
  "policy.moved_in": "An import moved here from another customer (the connection's identity rule): policy",
  "carrier.added": "Carrier added:",
  "carrier.removed": "Carrier removed:",
  "carrier.credentials_saved": "Carrier portal sign-in saved:",
  "carrier.merged": "Carriers merged",
  "connection.created": "Connection created",
  "connection.updated": "Connection updated",
  "connection.disconnected": "Connection disconnected",
  "team.invited": "Invited to the team:",
  "team.joined": "Joined the team",
  "team.removed": "Removed from the team:",
  "user.signed_up": "Signed up",
  "user.renamed": "Name changed to",
  "user.password_changed": "Password changed",
  "user.password_reset": "Password reset",
  "user.sso_linked": "Single sign-on linked:",
  "billing.plan_changed": "Plan changed to",
  "staff.quota_changed": "Yearly re-marketing quota changed by Remarket support to",
  "staff.trial_extended": "Free trial extended by Remarket support",
  "staff.flag_changed": "A feature turned on or off by Remarket support",
};

export type AuditFacts = {
  action: string;
  details: Record<string, unknown> | null;
  /** The policy number when the subject is a policy (the details do not always carry it). */
  policyNumber?: string | null;
};

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);

/**
 * One event as a phrase: "Re-marketed HO-100234", "Quote selected HO-100234: rewritten with
 * another carrier", "Carrier added: Safeco". An action without a label reads as its code, so a
 * new one still shows (and a test names it).
 */
export function describeAudit(event: AuditFacts): string {
  const d = event.details ?? {};
  const label = AUDIT_LABELS[event.action] ?? event.action;
  const policy = text(d.policyNumber) ?? event.policyNumber ?? null;
  const object = (() => {
    switch (event.action) {
      case "carrier.added":
      case "carrier.removed":
      case "carrier.credentials_saved":
        return text(d.name);
      case "carrier.merged":
        return text(d.from) && text(d.into) ? `(${String(d.from)} into ${String(d.into)})` : null;
      case "team.invited":
      case "team.removed":
        return text(d.email);
      case "user.renamed":
        return text(d.name) ? `“${String(d.name)}”` : null;
      case "user.sso_linked":
        return text(d.provider);
      case "billing.plan_changed":
        return text(d.to);
      case "staff.quota_changed":
        return typeof d.effective === "number" ? String(d.effective) : null;
      case "staff.trial_extended":
        return typeof d.days === "number" ? `(${d.days} days)` : null;
      default:
        return policy;
    }
  })();
  const outcome = text(d.outcome) ? OUTCOME_LABELS[String(d.outcome)] : null;
  const reason = text(d.reason);
  const words = object ? `${label} ${object}` : label;
  if (outcome && event.action === "quote.selected") return `${words}: ${outcome.toLowerCase()}`;
  return reason ? `${words} (${reason})` : words;
}
