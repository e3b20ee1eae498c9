/**
 * The dashboard (web/, built into web/dist by `npm ci`) at `/`, same origin as /graphql and /auth.
 *
 * - `/assets/*`: the build's hashed files, cached for a year as immutable (a new build has new names),
 *   gzipped when the browser accepts it (the JavaScript of a first load: ~180 KB instead of ~600 KB;
 *   only here: the API's responses, SSE streams among them, are not compressed).
 * - index.html for the dashboard's own paths only: the first path segments its build lists in
 *   routes.json (written by web/vite.config.ts from web/src/app/paths.ts), never cached so a new
 *   build is picked up at once. Everything else (/api/v1, /graphql, /auth, /mcp, /metrics, /admin,
 *   /healthz, /readyz, unknown paths) keeps its own answer, the JSON 404 included.
 * - No build (a checkout without `npm ci`, or DASHBOARD_DIR pointing nowhere): `/` answers 503
 *   with what to run, and the process logs it once at start.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import compression from "compression";
import express, { type Request, type Response, type Router } from "express";
import { logger } from "../infra/logger.ts";

/** The dashboard loads nothing from another host; thumbnails are the platforms' https images. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "style-src 'self'",
  "script-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

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
    .set({ "cache-control": "no-cache", "content-security-policy": CONTENT_SECURITY_POLICY, "x-content-type-options": "nosniff", "referrer-policy": "same-origin" })
    .send(html);
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
    gzip,
    express.static(join(dir, "assets"), { immutable: true, maxAge: YEAR_SECONDS * 1000, index: false, fallthrough: true, etag: true }),
  );
  router.get(/.*/, (req, res, next) => {
    if (!build.segments.has(firstSegment(req.path))) return next();
    gzip(req, res, () => sendIndex(res, build.indexHtml));
  });
  return router;
}
