/**
 * What every HTTP request gets before any door handles it (src/main/server.ts): its request id,
 * echoed in `X-Request-Id` (a well-formed incoming one is kept), and one access-log line when the
 * response is finished. Shared by REST, GraphQL and the other doors, so each request is logged once.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { currentLogContext, logger, withLogContext } from "../infra/logger.js";
import { metricsEnabled, observeHttpRequest, UNMATCHED_ROUTE } from "../infra/metrics.js";

/** Every door's request body limit: 1 MiB (REST, GraphQL over HTTP, MCP). */
export const BODY_LIMIT_BYTES = 1_048_576;

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

/** The metrics label of a request: Express's matched route template, `/graphql`, or `unmatched`. */
export function routeOf(req: IncomingMessage & { route?: { path?: unknown }; baseUrl?: string }, path: string): string {
  const template = req.route?.path;
  if (typeof template === "string") return `${mounts.get(req) ?? req.baseUrl ?? ""}${template}`;
  return path === "/graphql" ? "/graphql" : UNMATCHED_ROUTE;
}

/** Assigns the request id, sets the header, and logs (and times, src/infra/metrics.ts) the request once it is answered. */
export function beginRequest(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req);
  res.setHeader("X-Request-Id", id);
  const started = process.hrtime.bigint();
  const context = currentLogContext(); // the workspace is added to it once the key is known
  const path = (req.url ?? "").split("?")[0]!; // read now: Express rewrites req.url inside a mounted router
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    logger.info({ ...context, requestId: id, method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
    if (metricsEnabled) observeHttpRequest(req.method ?? "GET", routeOf(req, path), res.statusCode, ms / 1000);
  });
  return id;
}

/** Runs a request's handling with its request id on every log line (src/infra/logger.ts). */
export function handleRequest(req: IncomingMessage, res: ServerResponse, handle: () => void): void {
  withLogContext({ requestId: requestIdOf(req) }, () => {
    beginRequest(req, res);
    handle();
  });
}
