/**
 * A mail's row → the mail that leaves (./ports.ts): rendered (./templates.ts), with its headers.
 *
 * Headers carry no text that could start another header: the subject is one line (every line break
 * and other control character becomes a space, and it is cut at 200 characters), the address was
 * validated when the mail was queued, and nodemailer encodes non-ASCII words. The Message-ID is made
 * from the mail's id (its idempotency id): every attempt sends the same one.
 */
import { config } from "../../config.ts";
import type { OutgoingMail } from "./ports.ts";
import { renderMail, UNSUBSCRIBABLE } from "./templates.ts";
import { unsubscribeUrl } from "./tokens.ts";
import { reportAttachments } from "../reports/attachments.ts";

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
  /** The workspace a mail is about (a scheduled report's CSV is read from it). */
  workspaceId?: string | null;
}

export const messageIdOf = (mailId: string) => `<${mailId}@${new URL(config.people.publicUrl).hostname}>`;

export async function composeMail(row: MailRow): Promise<OutgoingMail> {
  const unsubscribe = UNSUBSCRIBABLE.has(row.kind) ? await unsubscribeUrl(row.id) : undefined;
  const rendered = renderMail(row.kind, row.data, unsubscribe ? { unsubscribeUrl: unsubscribe } : {});
  const headers: Record<string, string> = { "X-Mail-Id": row.id, "Auto-Submitted": "auto-generated" };
  if (unsubscribe) {
    headers["List-Unsubscribe"] = `<${unsubscribe}>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  }
  return {
    messageId: messageIdOf(row.id),
    from: config.mail.from,
    to: oneLine(row.toAddress, 320),
    subject: oneLine(rendered.subject),
    text: rendered.text,
    html: rendered.html,
    headers,
    links: rendered.links,
    ...(row.kind === "folder_report" && row.workspaceId ? { attachments: await reportAttachments(row.workspaceId, row.data) } : {}),
  };
}
