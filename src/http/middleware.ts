/**
 * Express middleware shared by the Express doors (REST under /api/v1 and MCP at /mcp): who asks (an
 * API key or a person's session) and its rate limit, and the JSON-body rule. GraphQL admits its
 * operations with the same step in ./graphql/asker.ts.
 */
import type { NextFunction, Request, Response } from "express";
import type { Actor } from "../domain/actors/actor.ts";
import { DomainError, notFound, unauthorized } from "../domain/shared/errors.ts";
import { rateLimitHeaders, UNSUPPORTED_MEDIA_TYPE_MESSAGE, unsupportedBodyMediaType } from "./request-context.ts";
import { addLogContext } from "../infra/logger.ts";
import { whoIsAsking } from "./who-is-asking.ts";

export function authOf(res: Response): Actor {
  return res.locals.auth as Actor;
}

/**
 * Who asks (an API key, or a person's session cookie: ./who-is-asking.ts, one step for every door)
 * and its rate limit, with the RateLimit-* headers; 401 without a valid key or session, 429 past the
 * budget (its headers, Retry-After included, come from the error mapping: ./errors.ts), 404 for a
 * person who belongs to no workspace (or names one they are not in), 503 when Redis is unreachable.
 */
export async function admitRequest(req: Request, res: Response, next: NextFunction): Promise<void> {
  const asker = await whoIsAsking(req, { count: true });
  if (!asker) throw unauthorized();
  for (const cookie of asker.setCookies) res.append("Set-Cookie", cookie);
  if (asker.limit) for (const [name, value] of Object.entries(rateLimitHeaders(asker.limit))) res.setHeader(name, value);
  if (!asker.actor) throw notFound("Workspace (you are not a member of any workspace)");
  res.locals.auth = asker.actor;
  addLogContext({ workspaceId: asker.actor.workspaceId });
  next();
}

/**
 * 415 UNSUPPORTED_MEDIA_TYPE for a body that is not declared JSON (the rule of every door:
 * src/http/request-context.ts), before the body is read, so nothing is applied.
 */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (unsupportedBodyMediaType(req.method, (name) => req.get(name)))
    return next(new DomainError("UNSUPPORTED_MEDIA_TYPE", UNSUPPORTED_MEDIA_TYPE_MESSAGE));
  // JSON is UTF-8 (RFC 8259) whatever charset the type names, as GraphQL reads it: the parser is
  // not told otherwise (it would refuse e.g. `charset=latin1`).
  if (req.headers["content-type"]) req.headers["content-type"] = "application/json";
  next();
}
