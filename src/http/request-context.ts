/**
 * What every HTTP request gets before any door handles it (src/main/server.ts): its request id,
 * echoed in `X-Request-Id` (a well-formed incoming one is kept), and one access-log line when the
 * response is finished. Shared by REST, GraphQL and the other doors, so each request is logged once.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { logger } from "../infra/logger.js";

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

/** Assigns the request id, sets the header, and logs the request once it is answered. */
export function beginRequest(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req);
  res.setHeader("X-Request-Id", id);
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    logger.info({ requestId: id, method: req.method, path: (req.url ?? "").split("?")[0], status: res.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
  });
  return id;
}
