import { desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { outboxEmails } from "~/db/schema";
import { getEnv, type Env } from "~/env.server";
import { log } from "~/services/platform/log.server";

export type Email = { to: string; subject: string; text: string };

let transport: Promise<{ sendMail: (m: Record<string, unknown>) => Promise<unknown> }> | undefined;

/** SMTP when SMTP_URL is set; otherwise the server log and the dev outbox. */
export async function sendEmail(db: Db, email: Email) {
  const env = getEnv();
  if (env.SMTP_URL) {
    transport ??= import("nodemailer").then((m) => m.default.createTransport(env.SMTP_URL));
    await (await transport).sendMail({ from: env.MAIL_FROM, ...email });
    return;
  }
  // No mail server: the log is the mailbox (README, decision record 003), so this one line carries
  // the address and the text on purpose; it is written only while SMTP_URL is unset.
  if (env.NODE_ENV !== "test")
    log.info({ area: "mail", to: email.to, subject: email.subject, text: email.text }, "mail not sent (no SMTP_URL)");
  if (env.devOutbox) await db.insert(outboxEmails).values(email);
}

/** Newest first, for /dev/outbox; `to` narrows it to one address (tests running side by side). */
export async function listOutbox(db: Db, { limit = 50, to }: { limit?: number; to?: string } = {}) {
  return db
    .select({
      id: outboxEmails.id,
      to: outboxEmails.to,
      subject: outboxEmails.subject,
      text: outboxEmails.text,
      createdAt: outboxEmails.createdAt,
    })
    .from(outboxEmails)
    .where(to ? eq(outboxEmails.to, to.trim().toLowerCase()) : undefined)
    .orderBy(desc(outboxEmails.createdAt))
    .limit(limit);
}

/**
 * One start-up line when mail can reach nobody: no SMTP server, and APP_URL is not this machine,
 * so the outbox is off (decision record 003) and codes are only in this server's log.
 */
export function mailDeliveryWarning(env: Pick<Env, "SMTP_URL" | "devOutbox" | "appUrl">) {
  if (env.SMTP_URL || env.devOutbox) return null;
  return `[mail] SMTP_URL is not set and APP_URL (${env.appUrl}) is not a loopback address: e-mail, including sign-up and password-reset codes, goes to this server's log only (no /dev/outbox). Set SMTP_URL to send mail.`;
}
