/**
 * Text in mails that the service did not write (docs/contract/decisions.md, "Fifth wave": mail text). A mail goes out
 * under the service's own From, so a name an owner chose (an API key's, a folder's, a workspace's) or a title a creator
 * chose must read as data, not as the service speaking: it is one line, without control characters, cut to a length,
 * quoted, and a web address inside it is written so that no mail client turns it into a link ("evil[.]example").
 * Headers take `oneLine` alone (the subject): nothing in a header can start another header.
 */

/** Control characters (C0, DEL, C1) and the Unicode line and paragraph separators. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
/** Bidirectional controls, which could make a quoted name read backwards. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f]/g;

/** One header-safe line: control characters (CR, LF, tab, NUL, U+2028 …) become spaces; cut at `max` with "…". */
export function oneLine(text: string, max = 200): string {
  const line = text.replace(CONTROL, " ").replace(BIDI, "").replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** A scheme (`https://`, `ftp://` …) or a host name with a dot before its last label (`evil.example`, `www.x.co/login`). */
const SCHEME = /\b([a-z][a-z0-9+.-]{1,15}):\/\//gi;
const HOST_DOT = /(?<=[\p{L}\p{N}-])\.(?=[\p{L}\p{N}-]*\p{L}[\p{L}\p{N}-]*)/gu;

/** A web address as text no mail client links: `hxxps://evil[.]example/login`. */
function unlinked(text: string): string {
  return text.replace(SCHEME, (_m, scheme: string) => `${scheme.replace(/t/gi, "x")}[:]//`).replace(HOST_DOT, "[.]");
}

/** Someone else's text as a mail shows it: one line, cut at `max`, no clickable address, between quotes. */
export function quoted(text: string, max = 80): string {
  return `“${unlinked(oneLine(text, max))}”`;
}
