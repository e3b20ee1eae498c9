/**
 * What the mail area asks of the outside world: one port, a transport that hands a composed mail
 * over (SMTP through nodemailer, or the log when no SMTP_URL is set: src/providers/mail/).
 */

/** A mail ready to leave: every header value here is already one line (./compose.ts). */
export interface OutgoingMail {
  /** `<mail id@PUBLIC_URL's host>`: the same on every attempt, so a receiver can drop a duplicate. */
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post, X-Mail-Id …). */
  headers: Record<string, string>;
  /** The links the mail carries (the log transport prints them). */
  links: string[];
  /** Files attached, made by the service itself (./compose.ts, `MailAttachers`); never a path or a URL. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MailTransport {
  /** `smtp` sends; `log` writes the mail to the log and leaves it in the dev mailbox. */
  readonly name: "smtp" | "log";
  send(mail: OutgoingMail): Promise<void>;
}
