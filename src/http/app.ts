/**
 * The HTTP application (Express): REST under /api/v1, people's sign-in at /auth, MCP at /mcp, /healthz and /readyz,
 * the dashboard's files at /, JSON 404s and one error
 * handler that turns anything thrown into `{code, message}`. GraphQL is served by Yoga directly
 * (src/main/server.ts), without Express's routing on its hot path.
 */
import express, { type NextFunction, type Request, type Response } from "express";
import type { Queue } from "bullmq";
import { config } from "../config.ts";
import { checkBackends, degradedReasons, mailReport, programsReport, visualReport } from "../infra/health.ts";
import { dependencyFailed, logger, unavailableDependency } from "../infra/logger.ts";
import { collectProcessMetrics, metricsEnabled } from "../infra/metrics.ts";
import { loggablePath, rememberMount, requestIdOf } from "./request-context.ts";
import { metricsEndpoint } from "./admin/metrics.ts";
import { BOARD_PATH, queueBoard } from "./admin/queues.ts";
import { GRAPHIQL_ASSETS, graphiqlAssets } from "./graphql/graphiql.ts";
import { buildRouter, methodNotAllowed } from "./rest/router.ts";
import { toErrorResponse } from "./errors.ts";
import { requireJsonBody } from "./middleware.ts";
import { allRoutes } from "./rest/routes/index.ts";
import { openApiRoute } from "./rest/routes/openapi.ts";
import { mcpRouter } from "./mcp/http.ts";
import { authRoutes } from "./auth/routes.ts";
import { dashboard } from "./dashboard.ts";
import { unsubscribeRoutes } from "./unsubscribe.ts";
import { sharedReportRoutes } from "./shared-report/http.ts";

const VERSION = "1.0.0";
/** The runtime, as /readyz reports it: the service runs on the Node.js the npm package `node` installs (README, "Run it"). */
const RUNTIME = { node: process.versions.node };

/**
 * 503 `unavailable` when PostgreSQL or Redis is not; else 200, `ready`, or `degraded` with `degraded: [reasons]` when
 * a program a configured provider needs is missing (the reasons say which and how to install it). Each program the
 * providers run is listed (path, present, version, Debian package, what needs it; null when none does), yt-dlp with
 * its age: a stale one is reported, not a failure. `providerChoice.reason` says why the scrape provider is what it is
 * when SCRAPE_PROVIDER was not set. `visual` says whether analyses look at the video and what each part runs; `mail`
 * whether mail is configured (SMTP_URL) or kept in the log and the dev mailbox.
 */
async function readiness(_req: Request, res: Response): Promise<void> {
  const checks = await checkBackends();
  const ready = checks.database === "ok" && checks.redis === "ok";
  const programs = programsReport();
  const degraded = degradedReasons(programs);
  const status = !ready ? "unavailable" : degraded.length ? "degraded" : "ready";
  const { scrape, reason } = config.providerChoice;
  const body = {
    status,
    checks,
    runtime: RUNTIME,
    providers: config.providers,
    providerChoice: { scrape, reason },
    programs,
    visual: visualReport(),
    mail: mailReport(),
    ...(degraded.length ? { degraded } : {}),
  };
  res
    .status(ready ? 200 : 503)
    .json(ready ? body : { code: "SERVICE_UNAVAILABLE", message: "Not ready: a backing service is unavailable.", ...body });
}

function notFoundHandler(req: Request, res: Response): void {
  res.status(404).json({ code: "NOT_FOUND", message: `No route for ${req.method} ${req.path}.` });
}

function errorHandler(err: unknown, req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) return next(err);
  const id = (res.locals.requestId as string) ?? "unknown";
  const { status, body, headers, unexpected } = toErrorResponse(err, id);
  // A backing service's outage is counted, not logged per request (src/infra/logger.ts).
  const dependency = unexpected ? unavailableDependency(err) : null;
  if (dependency) dependencyFailed(dependency, err);
  else if (unexpected) logger.error({ err, requestId: id, method: req.method, path: loggablePath(req.originalUrl) }, "request failed");
  for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
  res.status(status).json(body);
}

export interface AppOptions {
  /** The queues Bull Board shows at /admin/queues (when ADMIN_TOKEN is set); from the composition root. */
  queues?: () => Queue[];
}

/** Everything but GraphQL, which src/main/server.ts hands to Yoga before Express sees it. */
export function createApp(options: AppOptions = {}) {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  // The request id and the access log are set up before any door (src/http/request-context.ts).
  app.use((req, res, next) => {
    res.locals.requestId = requestIdOf(req);
    next();
  });

  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", readiness);
  // People: sign-up, sign-in, sessions (better-auth; src/http/auth/routes.ts).
  app.use("/auth", authRoutes());
  app.use("/mcp", rememberMount, mcpRouter());
  // One-click unsubscribe of alert and digest mails (RFC 8058; the token is the credential).
  app.use(unsubscribeRoutes());
  // The shared folder report's narrow GraphQL entry (POST /graphql/shared; the token is the credential).
  app.use(sharedReportRoutes());

  // Operations (docs/contract/decisions.md, Operations), outside /api/v1's keys and rate limit: Prometheus metrics, the queue
  // board (404 unless ADMIN_TOKEN is set) and GraphiQL's files (the page itself is GET /graphql).
  if (metricsEnabled) {
    collectProcessMetrics();
    app.get("/metrics", metricsEndpoint);
  }
  // The fixed paths asked with another method: 405 with Allow, as the REST routes (src/http/rest/router.ts).
  app.all(metricsEnabled ? ["/healthz", "/readyz", "/metrics"] : ["/healthz", "/readyz"], (req, res) =>
    methodNotAllowed(res, ["GET", "HEAD"], req.method),
  );
  if (config.operations.adminToken && options.queues) app.use(BOARD_PATH, queueBoard(options.queues(), config.operations.adminToken));
  if (config.operations.graphiql) app.use(GRAPHIQL_ASSETS, graphiqlAssets());

  const api = express.Router();
  api.use(rememberMount);
  // A body must be declared JSON (415 otherwise); it is read by each route once its credential is admitted (./rest/router.ts).
  api.use(requireJsonBody);
  api.use(buildRouter([...allRoutes, openApiRoute(() => [...allRoutes], VERSION)]));
  api.use(notFoundHandler);
  app.use("/api/v1", api);

  // The dashboard last: only its own paths (src/http/dashboard.ts); the rest falls through to the JSON 404.
  app.use(dashboard(config.dashboardDir));

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
