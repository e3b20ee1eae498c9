/**
 * The dashboard (web/, built into web/dist by `npm ci`) at `/`, same origin as /graphql and /auth.
 *
 * - `/assets/*`: the build's hashed files, cached for a year as immutable (a new build has new names),
 *   compressed when the browser accepts it (the JavaScript of a first load: ~150 KB in brotli, ~180 KB
 *   gzipped, instead of ~600 KB; only here: the API's responses, SSE streams among them, are not
 *   compressed). The build writes a `.br` and a `.gz` of each script and stylesheet (web/vite.config.ts):
 *   those are sent as they are, brotli first; anything else is gzipped on the fly.
 * - index.html for the dashboard's own paths only: the first path segments its build lists in
 *   routes.json (written by web/vite.config.ts from web/src/lib/paths.ts), never cached so a new
 *   build is picked up at once. Everything else (/api/v1, /graphql, /auth, /mcp, /metrics, /admin,
 *   /healthz, /readyz, unknown paths) keeps its own answer, the JSON 404 included.
 * - No build (a checkout without `npm ci`, or DASHBOARD_DIR pointing nowhere): `/` answers 503
 *   with what to run, and the process logs it once at start.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import compression from "compression";
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from "express";
import { logger } from "../infra/logger.ts";
import { PAGE_POLICY } from "./pages.ts";

const YEAR_SECONDS = 365 * 24 * 3600;

interface Build {
  indexHtml: string;
  segments: ReadonlySet<string>;
}

function readBuild(dir: string): Build | null {
  const index = join(dir, "index.html");
  const routes = join(dir, "routes.json");
  if (!existsSync(index) || !existsSync(routes)) return null;
  const { segments } = JSON.parse(readFileSync(routes, "utf8")) as { segments: string[] };
  return { indexHtml: readFileSync(index, "utf8"), segments: new Set(segments) };
}

/** The first segment of the shared report page (web/src/lib/paths.ts `sharedReport`). */
const SHARED_REPORT_SEGMENT = "r";

const firstSegment = (path: string) => path.split("/")[1] ?? "";

function notBuilt(_req: Request, res: Response): void {
  res
    .status(503)
    .type("text/plain; charset=utf-8")
    .set("cache-control", "no-store")
    .send("The dashboard is not built. Run `npm ci` (its postinstall builds it) or `npm run build:web`, then reload this page.\n");
}

function sendIndex(res: Response, html: string): void {
  res
    .status(200)
    .type("text/html; charset=utf-8")
    // The same bytes for everyone (no person's data: the page asks GraphQL), so cacheable but always revalidated;
    // framing, sniffing and the referrer are the rule of every page (./pages.ts).
    .set({ "cache-control": "no-cache", "content-security-policy": PAGE_POLICY.dashboard })
    .send(html);
}

/** The encodings the build precompresses, in the order the server prefers them (brotli: fewer bytes). */
const PRECOMPRESSED = [
  { encoding: "br", suffix: ".br" },
  { encoding: "gzip", suffix: ".gz" },
] as const;

/**
 * Serves the build's own `.br` or `.gz` of an asset to a browser that accepts it: the request is
 * pointed at that file (express.static sends it, with its own ETag) under the asset's content type.
 * The asset list is read once, like index.html: a build is never changed under a running process.
 */
function precompressed(assetsDir: string): RequestHandler {
  const files = new Set(readdirSync(assetsDir));
  return (req: Request, res: Response, next: NextFunction) => {
    const name = req.path.slice(1);
    if ((req.method !== "GET" && req.method !== "HEAD") || !files.has(name)) return next();
    const chosen = PRECOMPRESSED.find((p) => files.has(name + p.suffix) && req.acceptsEncodings(p.encoding) === p.encoding);
    res.vary("Accept-Encoding");
    if (!chosen) return next();
    res.type(extname(name)).set("content-encoding", chosen.encoding);
    req.url = `/${name}${chosen.suffix}`;
    next();
  };
}

export function dashboard(dir: string): Router {
  const router = express.Router();
  const build = readBuild(dir);
  if (!build) {
    logger.warn({ dir }, "the dashboard is not built: / answers 503 until `npm run build:web` (npm ci runs it)");
    router.get("/", notBuilt);
    return router;
  }
  const gzip = compression();
  router.use(
    "/assets",
    precompressed(join(dir, "assets")),
    // Skips what is already encoded (the precompressed files).
    gzip,
    express.static(join(dir, "assets"), { immutable: true, maxAge: YEAR_SECONDS * 1000, index: false, fallthrough: true, etag: true }),
  );
  // The shared folder report (/r/<token>): the same page, never indexed, and its token never sent on in a Referer.
  const sharedIndexHtml = build.indexHtml.replace(/<head>/i, '<head><meta name="robots" content="noindex, nofollow">');
  router.get(/.*/, (req, res, next) => {
    const segment = firstSegment(req.path);
    if (!build.segments.has(segment)) return next();
    if (segment === SHARED_REPORT_SEGMENT) {
      res.set({ "X-Robots-Tag": "noindex, nofollow", "Referrer-Policy": "no-referrer" });
      return gzip(req, res, () => sendIndex(res, sharedIndexHtml));
    }
    gzip(req, res, () => sendIndex(res, build.indexHtml));
  });
  return router;
}
