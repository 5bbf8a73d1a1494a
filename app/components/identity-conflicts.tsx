import type { IdentityConflict, IdentityField } from "~/services/connections/mapping/identity";
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
        them in the source before importing: the last row would otherwise give every policy of the number its name and contact details.
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
