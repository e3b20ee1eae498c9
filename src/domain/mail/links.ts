/**
 * Links in mails point only at PUBLIC_URL (docs/contract/decisions.md, Fourth wave: mail): a path
 * becomes `<PUBLIC_URL><path>`, and anything that would leave that origin (`//host`, `https:…`,
 * a backslash a browser reads as a slash) is refused, so no user-controlled text can turn a mail's
 * link into one to another site.
 */
import { config } from "../../config.ts";

export class ForeignLinkError extends Error {}

/** `<PUBLIC_URL><path>`, for a path of this service (it must start with one `/`). */
export function serviceLink(path: string, base = config.people.publicUrl): string {
  if (!path.startsWith("/") || path.startsWith("//") || /[\\\s]/.test(path))
    throw new ForeignLinkError(`not a path of this service: ${JSON.stringify(path)}`);
  const url = new URL(base + path);
  const origin = new URL(base).origin;
  if (url.origin !== origin) throw new ForeignLinkError(`a link must stay on ${origin}`);
  return url.toString();
}
