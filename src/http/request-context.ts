/**
 * What every HTTP request gets before any door handles it (src/main/server.ts): its request id,
 * echoed in `X-Request-Id` (a well-formed incoming one is kept), the page headers when it is answered
 * with HTML (./pages.ts), and one access-log line when the response is finished. Shared by REST, GraphQL and the other doors, so each request is logged once.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import onHeaders from "on-headers";
import { context as traceContext, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context } from "@opentelemetry/api";
import type { TLSSocket } from "node:tls";
import { config } from "../config.ts";
import { currentLogContext, logger, withLogContext } from "../infra/logger.ts";
import { metricsEnabled, observeHttpRequest, UNMATCHED_ROUTE } from "../infra/metrics.ts";
import { securePage } from "./pages.ts";

/** Every door's request body limit: 1 MiB (REST, GraphQL over HTTP, MCP). */
export const BODY_LIMIT_BYTES = 1_048_576;

/** `application/json` or `application/<anything>+json`, with any parameters (charset …). */
const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json[ \t]*(?:;.*)?$/i;
const WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Every door's media-type rule (REST, GraphQL over HTTP, MCP): a request that carries a body
 * (POST, PUT, PATCH, DELETE with a non-empty Content-Length or a chunked body) must declare it as
 * JSON; otherwise it is answered 415 UNSUPPORTED_MEDIA_TYPE and nothing is read or applied. A
 * request without a body needs no Content-Type. `header` reads a request header by its lower-case name.
 */
export function unsupportedBodyMediaType(method: string | undefined, header: (name: string) => string | null | undefined): boolean {
  if (!WITH_BODY.has((method ?? "").toUpperCase())) return false;
  const length = header("content-length");
  const hasBody = header("transfer-encoding") != null || (length != null && length.trim() !== "0");
  if (!hasBody) return false;
  const type = header("content-type");
  return !type || !JSON_MEDIA_TYPE.test(type.trim());
}

/** The RateLimit-* headers of an admitted (or refused) request: one form for REST and GraphQL over HTTP. */
export function rateLimitHeaders(r: { limit: number; remaining: number; resetSeconds: number }): Record<string, string> {
  return { "RateLimit-Limit": String(r.limit), "RateLimit-Remaining": String(r.remaining), "RateLimit-Reset": String(r.resetSeconds) };
}

export const UNSUPPORTED_MEDIA_TYPE_MESSAGE = "Request bodies must be JSON: send Content-Type: application/json.";

/**
 * The request's Authorization value for the shared parser (`bearerSecret`, src/domain/keys/access.ts):
 * null when absent, and "" (refused) when the request repeats the header: Node keeps only the first
 * one, and a second credential must not pass unseen.
 */
export function authorizationHeader(req: IncomingMessage): string | null {
  let found: string | null = null;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() !== "authorization") continue;
    if (found !== null) return "";
    found = req.rawHeaders[i + 1]!;
  }
  return found;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const ids = new WeakMap<IncomingMessage, string>();

/** The request's id (assigned by `beginRequest`). */
export function requestIdOf(req: IncomingMessage): string {
  let id = ids.get(req);
  if (!id) {
    const incoming = req.headers["x-request-id"];
    id = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ids.set(req, id);
  }
  return id;
}

/** Where Express mounted the router that matched (kept by `rememberMount`: Express resets req.baseUrl
 *  when an error leaves the router, before the response is finished). */
const mounts = new WeakMap<IncomingMessage, string>();

/** Express middleware, first in a mounted router: remembers its mount path for the route label. */
export function rememberMount(req: IncomingMessage & { baseUrl?: string }, _res: unknown, next: () => void): void {
  if (req.baseUrl) mounts.set(req, req.baseUrl);
  next();
}

/**
 * Names the request's trace by its route template (`GET /api/v1/videos/:id`, `POST /graphql`), as
 * Express's instrumentation did before it was left out by default (src/main/telemetry.ts): the server
 * span's name and `http.route`. Nothing when tracing is off (no span is active).
 */
export function traceRoute(method: string | undefined, route: string): void {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return;
  span.setAttribute("http.route", route);
  span.updateName(`${method ?? "GET"} ${route}`);
}

/** The metrics label of a request: Express's matched route template, `/graphql`, or `unmatched`. */
function routeOf(req: IncomingMessage & { route?: { path?: unknown }; baseUrl?: string }, path: string): string {
  const template = req.route?.path;
  if (typeof template === "string") return `${mounts.get(req) ?? req.baseUrl ?? ""}${template}`;
  return path === "/graphql" ? "/graphql" : UNMATCHED_ROUTE;
}

/**
 * Whether the answer may be a page: GET and HEAD outside /api/ (REST answers only JSON). Only those get the
 * page hook (./pages.ts), so the JSON POSTs and REST reads of the hot path pay nothing for it.
 */
const mayBePage = (req: IncomingMessage) => (req.method === "GET" || req.method === "HEAD") && !req.url?.startsWith("/api/");

/**
 * Assigns the request id, sets the header, gives any HTML answer the page headers (./pages.ts), and
 * logs (and times, src/infra/metrics.ts) the request once it is answered.
 */
function beginRequest(req: IncomingMessage, res: ServerResponse, traced: Context | null): string {
  const id = requestIdOf(req);
  res.setHeader("X-Request-Id", id);
  if (mayBePage(req)) onHeaders(res, () => securePage(res));
  const started = process.hrtime.bigint();
  const context = currentLogContext(); // the workspace is added to it once the key is known
  const path = loggablePath(req.url); // read now: Express rewrites req.url inside a mounted router
  const finished = () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    logger.info({ ...context, requestId: id, method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
    if (metricsEnabled) observeHttpRequest(req.method ?? "GET", routeOf(req, path), res.statusCode, ms / 1000);
  };
  // Traced, the access-log line carries the request's trace id (its span is the active one).
  res.on("finish", traced ? traceContext.bind(traced, finished) : finished);
  return id;
}

/**
 * A request's path as logs and traces may keep it: without the query string (download links and the dashboard's
 * invitation and reset pages carry their tokens there), and with the tokens of the paths that carry one in place of
 * the token (a folder's shared page `/r/<token>`, one-click unsubscribe `/unsubscribe/<token>`): whoever reads the
 * logs must not be able to open them. The database keeps only their hashes, or nothing.
 */
const TOKEN_IN_PATH = /^(\/(?:r|unsubscribe)\/)[^/]+/;
export function loggablePath(url: string | undefined): string {
  return (url ?? "").split("?")[0]!.replace(TOKEN_IN_PATH, "$1:token");
}

/** Probes and scrapes: not traced (they would drown the requests). */
const UNTRACED_PATHS = /^\/(healthz|readyz|metrics)(\?|$)/;
const traceRequests = config.traceInstrumentations.includes("http");
const tracer = trace.getTracer("video-service-http");

/**
 * The request's server span, when tracing with `http` (src/main/telemetry.ts says why it is made here and
 * not by the HTTP instrumentation): continued from an incoming `traceparent`, named by its method until a
 * door names its route (`traceRoute`), ended when the response closes, with its status (an error from
 * 500 on). Null for probes, and when tracing is off.
 */
function serverSpan(req: IncomingMessage, res: ServerResponse): Context | null {
  if (!traceRequests || UNTRACED_PATHS.test(req.url ?? "")) return null;
  const method = req.method ?? "GET";
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = tracer.startSpan(method, { kind: SpanKind.SERVER }, parent);
  // Left out by the sampler, the span still carries the trace on (its children and outgoing requests
  // are left out too), but nothing is built for it: no attributes, no end.
  if (!span.isRecording()) return trace.setSpan(parent, span);
  span.setAttributes({
    "http.request.method": method,
    "url.path": loggablePath(req.url),
    "url.scheme": (req.socket as TLSSocket | undefined)?.encrypted ? "https" : "http",
    "network.protocol.version": req.httpVersion,
    "client.address": req.socket?.remoteAddress,
    "user_agent.original": req.headers["user-agent"],
  });
  res.once("close", () => {
    span.setAttribute("http.response.status_code", res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  return trace.setSpan(parent, span);
}

/** Runs a request's handling with its request id on every log line (src/infra/logger.ts), inside its span when traced. */
export function handleRequest(req: IncomingMessage, res: ServerResponse, handle: () => void): void {
  const traced = serverSpan(req, res);
  const run = () =>
    withLogContext({ requestId: requestIdOf(req) }, () => {
      beginRequest(req, res, traced);
      handle();
    });
  if (traced) traceContext.with(traced, run);
  else run();
}
