import {
  IDENTITY_RULE_LABELS,
  type IdentityConflict,
  type IdentityField,
  type IdentityRule,
} from "~/services/connections/mapping/identity";
import { formatCount } from "~/utils/format";

const FIELD_LABELS: Record<IdentityField, string> = { name: "name", email: "e-mail", address: "address" };

/**
 * Customer keys whose rows describe different insureds, in the mapping preview: imported as
 * they are, the last row would give every policy of the key its name and address.
 */
export function IdentityConflicts({ conflicts, total }: { conflicts: IdentityConflict[]; total: number }) {
  if (total === 0) return null;
  return (
    <div
      className="rounded border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950"
      data-testid="identity-conflicts"
    >
      <p className="font-medium">
        {`${formatCount(total, "customer number")} ${total === 1 ? "is" : "are"}`} shared by rows that disagree on who the insured is. Check
        them in the source, and choose below what the import makes of them.
      </p>
      <ul className="mt-2 space-y-1">
        {conflicts.map((c) => (
          <li key={c.key}>
            <span className="font-mono">{c.key}</span> (rows {c.rows.join(", ")}):{" "}
            {c.fields.map((f) => `${FIELD_LABELS[f]} ${(c.values[f] ?? []).map((v) => `“${v}”`).join(" vs. ")}`).join("; ")}
          </li>
        ))}
      </ul>
      {total > conflicts.length ? <p className="mt-1 text-xs">First {conflicts.length} shown.</p> : null}
    </div>
  );
}

/**
 * The connection's identity rule, in the mapping form (always sent, so a saved choice is kept when
 * this import has no conflicts). Changing it re-assigns policies at the next import, audited.
 */
export function IdentityRuleChoice({ rule, conflicts }: { rule: IdentityRule; conflicts: number }) {
  return (
    <fieldset className="space-y-1 text-sm" data-testid="identity-rule">
      <legend className="font-medium">Rows that share a customer number but name different insureds</legend>
      {(["newest", "per-name"] as const).map((value) => (
        <label key={value} className="flex items-start gap-2">
          <input type="radio" name="identityRule" value={value} defaultChecked={rule === value} className="mt-1" />
          <span>
            {IDENTITY_RULE_LABELS[value]}
            {value === "newest" ? " (the last row when the export has no modified date)" : ""}
          </span>
        </label>
      ))}
      {conflicts === 0 ? <p className="text-xs text-slate-500">No such rows in this source today.</p> : null}
    </fieldset>
  );
}
