/**
 * The transport without SMTP_URL (the embedded default): a mail is written to the log with its
 * links (as the first run's set-password link is) and stays in the dev mailbox, the `mails` table
 * with status `logged`, which `npm run cli -- mail list` prints. Nothing is lost: configure SMTP
 * later and new mails go out.
 */
import { logger } from "../../infra/logger.ts";
import type { MailTransport, OutgoingMail } from "../../domain/mail/ports.ts";

export class LogMailTransport implements MailTransport {
  readonly name = "log" as const;

  async send(mail: OutgoingMail): Promise<void> {
    logger.info(
      { mail: { messageId: mail.messageId, to: mail.to, subject: mail.subject, links: mail.links } },
      "mail kept in the dev mailbox (no SMTP_URL): npm run cli -- mail list",
    );
  }
}
