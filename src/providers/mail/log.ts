/**
 * The transport without SMTP_URL (the embedded default): a mail is noted in the log (to whom, its
 * subject, how many links) and stays in the dev mailbox, the `mails` table with status `logged`,
 * which `npm run cli -- mail list` prints with its links. The links themselves never reach the log:
 * many carry a token (an invitation, a reset, a shared report), and logs are read by more people and
 * kept longer than the mailbox. Nothing is lost: configure SMTP later and new mails go out.
 */
import { logger } from "../../infra/logger.ts";
import type { MailTransport, OutgoingMail } from "../../domain/mail/ports.ts";

export class LogMailTransport implements MailTransport {
  readonly name = "log" as const;

  async send(mail: OutgoingMail): Promise<void> {
    logger.info(
      { mail: { messageId: mail.messageId, to: mail.to, subject: mail.subject, links: mail.links.length } },
      "mail kept in the dev mailbox (no SMTP_URL): npm run cli -- mail list",
    );
  }
}
