/**
 * Sends mails over SMTP with nodemailer, as SMTP_URL says: `smtps://` is TLS from the first byte,
 * `smtp://` upgrades with STARTTLS when the server offers it; user and password come from the URL.
 * One pooled transport per process. The Message-ID is the mail's own (src/domain/mail/compose.ts),
 * so a retried attempt carries the same one.
 */
import nodemailer, { type Transporter } from "nodemailer";
import type { MailTransport, OutgoingMail } from "../../domain/mail/ports.ts";

export class SmtpMailTransport implements MailTransport {
  readonly name = "smtp" as const;
  private readonly transporter: Transporter;

  constructor(url: string) {
    this.transporter = nodemailer.createTransport(url, {});
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transporter.sendMail({
      messageId: mail.messageId,
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: mail.headers,
      // Attachments are bytes the service made (a scheduled report's CSV), never a file or URL nodemailer could be asked to read.
      ...(mail.attachments?.length
        ? { attachments: mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })) }
        : {}),
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  }

  close(): void {
    this.transporter.close();
  }
}
