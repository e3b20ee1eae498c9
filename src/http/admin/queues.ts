/**
 * Bull Board at /admin/queues (docs/contract/decisions.md, Operations): every queue of src/infra/queues.ts (handed
 * in by the composition root, src/main/server.ts: doors do not import the queues), only when
 * ADMIN_TOKEN is set (404 otherwise, src/http/app.ts), behind HTTP Basic auth: user `admin`,
 * password ADMIN_TOKEN, compared in constant time.
 */
import express, { type NextFunction, type Request, type Response } from "express";
import type { Queue } from "bullmq";
import { sameSecret } from "./secrets.ts";

export const BOARD_PATH = "/admin/queues";
const BOARD_USER = "admin";

function basicAuth(password: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.get("authorization") ?? "");
    const decoded = m ? Buffer.from(m[1]!, "base64").toString("utf8") : "";
    const colon = decoded.indexOf(":");
    const user = colon >= 0 ? decoded.slice(0, colon) : "";
    const given = colon >= 0 ? decoded.slice(colon + 1) : "";
    // Both compared, always: the answer takes as long whichever part is wrong.
    const ok = [sameSecret(user, BOARD_USER), sameSecret(given, password)].every(Boolean);
    if (ok) return next();
    res.setHeader("WWW-Authenticate", 'Basic realm="queues", charset="UTF-8"');
    res.status(401).json({ code: "UNAUTHORIZED", message: "The queue board needs HTTP Basic auth: user `admin`, password ADMIN_TOKEN." });
  };
}

/** The board's page links Google Fonts for its typeface; without the link it uses a system font and
 *  needs nothing from another host (like GraphiQL, src/http/graphql/graphiql.ts). */
const REMOTE_FONTS = /<link[^>]+href="https:\/\/fonts\.googleapis\.com[^>]*>\s*/g;

function withoutRemoteFonts(_req: Request, res: Response, next: NextFunction): void {
  const render = res.render.bind(res);
  res.render = ((view: string, options?: object) =>
    render(view, options ?? {}, (err: Error | null, html?: string) =>
      err ? next(err) : res.send(html!.replace(REMOTE_FONTS, "")),
    )) as Response["render"];
  next();
}

/** The board's router (mount it at BOARD_PATH). Bull Board and its views load on the first signed-in request:
 *  they are a tenth of what the API loads at start, for a page an operator opens now and then. */
export function queueBoard(queues: Queue[], password: string): express.Router {
  let board: Promise<express.Router> | undefined;
  const router = express.Router();
  router.use(basicAuth(password), withoutRemoteFonts, (req, res, next) => {
    board ??= boardRouter(queues);
    board.then((r) => r(req, res, next), next);
  });
  return router;
}

async function boardRouter(queues: Queue[]): Promise<express.Router> {
  const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
    import("@bull-board/api"),
    import("@bull-board/api/bullMQAdapter"),
    import("@bull-board/express"),
  ]);
  const adapter = new ExpressAdapter();
  adapter.setBasePath(BOARD_PATH);
  createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q)), serverAdapter: adapter });
  return adapter.getRouter();
}
