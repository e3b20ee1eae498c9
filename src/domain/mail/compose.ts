/**
 * A mail's row → the mail that leaves (./ports.ts): rendered (./templates.ts), with its headers and
 * the files its kind attaches (`MailAttachers`: the areas that attach files hand theirs in; the mail
 * area knows none of them).
 *
 * Headers carry no text that could start another header: the subject is one line (every line break
 * and other control character becomes a space, and it is cut at 200 characters), the address was
 * validated when the mail was queued, and nodemailer encodes non-ASCII words. The Message-ID is made
 * from the mail's id (its idempotency id): every attempt sends the same one.
 */
import { config } from "../../config.ts";
import type { MailAttachment, OutgoingMail } from "./ports.ts";
import { renderMail, UNSUBSCRIBABLE, type MailKind } from "./templates.ts";
import { unsubscribeUrl } from "./tokens.ts";

/** One header-safe line: control characters (CR, LF, tab, NUL, U+2028 …) become spaces. */
export function oneLine(text: string, max = 200): string {
  const line = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export interface MailRow {
  id: string;
  kind: string;
  toAddress: string;
  data: unknown;
  /** The workspace a mail is about (what an attacher reads its files from). */
  workspaceId?: string | null;
}

/**
 * Makes the files a mail of one kind carries, when it is composed (so every attempt attaches the item
 * as it is then); never a path or a URL.
 */
export type MailAttacher = (mail: { workspaceId: string | null; data: unknown }) => Promise<MailAttachment[]>;

/** The attachers by kind of mail, handed to the `send` job by the composition root (src/jobs/registry.ts). */
export type MailAttachers = Partial<Record<MailKind, MailAttacher>>;

export const messageIdOf = (mailId: string) => `<${mailId}@${new URL(config.people.publicUrl).hostname}>`;

export async function composeMail(row: MailRow, attachers: MailAttachers = {}): Promise<OutgoingMail> {
  const unsubscribe = UNSUBSCRIBABLE.has(row.kind) ? await unsubscribeUrl(row.id) : undefined;
  const rendered = renderMail(row.kind, row.data, unsubscribe ? { unsubscribeUrl: unsubscribe } : {});
  const headers: Record<string, string> = { "X-Mail-Id": row.id, "Auto-Submitted": "auto-generated" };
  if (unsubscribe) {
    headers["List-Unsubscribe"] = `<${unsubscribe}>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  }
  const mail: OutgoingMail = {
    messageId: messageIdOf(row.id),
    from: config.mail.from,
    to: oneLine(row.toAddress, 320),
    subject: oneLine(rendered.subject),
    text: rendered.text,
    html: rendered.html,
    headers,
    links: rendered.links,
  };
  const attach = attachers[row.kind as MailKind];
  if (attach) mail.attachments = await attach({ workspaceId: row.workspaceId ?? null, data: row.data });
  return mail;
}
