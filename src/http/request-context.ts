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
