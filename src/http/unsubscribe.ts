/**
 * One-click unsubscribe (RFC 8058) at `/unsubscribe/<token>`, the link every alert, digest and
 * scheduled-report mail carries (its `List-Unsubscribe` header and its footer), outside /api/v1: no
 * sign-in, the token is the credential (src/domain/reports/unsubscribe.ts).
 * - POST (what a mail client sends with `List-Unsubscribe=One-Click`, and the page's button) turns
 *   the one thing off and answers a short page; the body is not needed and not read.
 * - GET only shows what the link turns off and a button: link scanners and prefetchers follow GETs,
 *   so a GET changes nothing.
 * An unknown or forged token is 404. Pages are never indexed, framed or stored (src/http/pages.ts).
 */
import express, { type Request, type Response } from "express";
import escapeHtml from "escape-html";
import { unsubscription } from "../domain/reports/unsubscribe.ts";

const POLICY = "default-src 'none'; form-action 'self'; base-uri 'none'";

function page(res: Response, status: number, title: string, body: string): void {
  res
    .status(status)
    .set({
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": POLICY,
      "X-Robots-Tag": "noindex",
      "Referrer-Policy": "no-referrer",
    })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    );
}

const notFound = (res: Response) =>
  page(res, 404, "This link does not work", "<p>It may have been mistyped. Change your alerts in the dashboard's settings instead.</p>");

const tokenOf = (req: Request) => String(req.params.token ?? "");

export function unsubscribeRoutes() {
  const router = express.Router();
  router.get("/unsubscribe/:token", async (req, res, next) => {
    try {
      const u = await unsubscription(tokenOf(req));
      if (!u) return notFound(res);
      page(
        res,
        200,
        "Unsubscribe",
        `<p>Stop ${escapeHtml(u.what)} in ${escapeHtml(u.workspaceName)}?</p><form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
      );
    } catch (e) {
      next(e);
    }
  });
  router.post("/unsubscribe/:token", async (req, res, next) => {
    try {
      const u = await unsubscription(tokenOf(req));
      if (!u) return notFound(res);
      await u.apply();
      page(
        res,
        200,
        "You are unsubscribed",
        `<p>You will no longer get ${escapeHtml(u.what)} in ${escapeHtml(u.workspaceName)}. ${escapeHtml(u.undo)}</p>`,
      );
    } catch (e) {
      next(e);
    }
  });
  return router;
}
