import type { CodeDelivery } from "~/utils/dev-outbox.server";

/**
 * Where the e-mailed code is when no mail server is configured: this machine's own browser reads
 * the development outbox; anyone else asks the administrator, whose server log has every mail.
 */
export function CodeDeliveryNote({ delivery }: { delivery: CodeDelivery }) {
  if (delivery === "outbox") {
    return (
      <>
        {" "}
        No mail server is configured here: read it in the{" "}
        <a href="/dev/outbox" target="_blank" rel="noreferrer" className="text-brand-600 underline" data-testid="outbox-link">
          development outbox
        </a>
        .
      </>
    );
  }
  if (delivery === "administrator") {
    return (
      <span data-testid="code-from-administrator">
        {" "}
        No mail server is configured here: ask your administrator for the code (it is written to the server&apos;s log).
      </span>
    );
  }
  return null;
}
