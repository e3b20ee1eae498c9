/**
 * The headers of every HTML answer the service sends (the dashboard's index.html and its sign-in,
 * reset and invitation pages, GraphiQL, Bull Board, any page added later), set in one place: the
 * hook `securePage`, which src/http/request-context.ts runs as the headers of any GET or HEAD answer
 * outside /api/ are written (on-headers), whoever wrote them (Express, Yoga, Bull Board).
 *
 * For a `text/html` answer:
 * - **No framing by others** (clickjacking: a page of a sibling port or subdomain is same-site, so
 *   SameSite=Lax still sends the session cookie to a frame it opens): `Content-Security-Policy`
 *   `frame-ancestors 'none'` (the page's own policy keeps it; a page without a policy gets just
 *   that directive), and `X-Frame-Options: DENY` for browsers older than CSP 2.
 * - `X-Content-Type-Options: nosniff`; `Referrer-Policy: same-origin` (a GraphiQL URL carries its
 *   document in `?query=`: it never leaves the origin in a Referer).
 * - **Private unless said otherwise**: a page that sets no `Cache-Control` of its own (GraphiQL,
 *   rendered with the person's email and workspaces; Bull Board) is `Cache-Control: no-store` with
 *   `Vary: Cookie`, so no browser or shared cache keeps a person's page. A page that is the same
 *   bytes for everyone says so with its own Cache-Control (the dashboard's index.html: `no-cache`).
 *
 * The pages' own content security policies are here too (`PAGE_POLICY`), so one file says what
 * each page may load.
 */
import type { ServerResponse } from "node:http";

const FRAME_ANCESTORS = "frame-ancestors 'none'";

/** What each page of the service may load: everything from this origin, nothing from elsewhere. */
export const PAGE_POLICY = {
  /** The dashboard (web/dist): its scripts and styles are files; thumbnails are the platforms' https images. */
  dashboard: [
    "default-src 'self'",
    "img-src 'self' https: data:",
    "connect-src 'self'",
    "style-src 'self'",
    "script-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    FRAME_ANCESTORS,
  ].join("; "),
  /**
   * GraphiQL (src/http/graphql/graphiql.ts): its scripts are files of this origin (the page's options
   * travel as a JSON data block, which is not run); Monaco, its editor, styles elements as it draws
   * them (`'unsafe-inline'` styles only) and runs its workers from this origin; the style sheet's
   * fonts and icons are `data:` URLs.
   */
  graphiql: [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    FRAME_ANCESTORS,
  ].join("; "),
} as const;

/** The headers every HTML answer gets; the answer's own Content-Type decides (run as its headers are written). */
export function securePage(res: ServerResponse): void {
  if (!/^text\/html/i.test(String(res.getHeader("content-type") ?? ""))) return;
  const policy = res.getHeader("content-security-policy");
  if (!policy) res.setHeader("Content-Security-Policy", FRAME_ANCESTORS);
  else if (!/(^|;)\s*frame-ancestors\s/i.test(String(policy)))
    res.setHeader("Content-Security-Policy", `${String(policy)}; ${FRAME_ANCESTORS}`);
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (!res.hasHeader("referrer-policy")) res.setHeader("Referrer-Policy", "same-origin");
  if (!res.hasHeader("cache-control")) {
    res.setHeader("Cache-Control", "no-store");
    const vary = String(res.getHeader("vary") ?? "");
    if (!/(^|,)\s*(cookie|\*)\s*(,|$)/i.test(vary)) res.setHeader("Vary", vary ? `${vary}, Cookie` : "Cookie");
  }
}
