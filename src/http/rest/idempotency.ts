/**
 * REST's `Idempotency-Key` (every POST, PATCH and DELETE under /api/v1; the rules and the store:
 * src/domain/shared/idempotency.ts). Express middleware placed after "who is asking" (the key is
 * scoped to its workspace) and the route's own checks (./router.ts: a request refused there claims
 * nothing), before the route runs: a request whose key holds an answer gets it again, with the
 * headers that describe it and `Idempotent-Replayed: true`, and the route does not run; a claimed
 * request runs the route, and its answer (the route's, or the error handler's `{code, message}`) is
 * stored before it is sent.
 */
import { principalId } from "../../domain/actors/actor.ts";
import type { NextFunction, Request, Response } from "express";
import {
  AnswerNotStored,
  claimIdempotentRequest,
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyKeyOf,
  REPLAYED_HEADERS,
  storeOrRefuse,
} from "../../domain/shared/idempotency.ts";
import { toErrorResponse } from "../errors.ts";
import { authOf } from "../middleware.ts";

/** The answer's headers a replay repeats; res.json sets JSON's content type itself when none was set. */
function describing(res: Response): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  for (const name of REPLAYED_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

export async function idempotentRequest(req: Request, res: Response, next: NextFunction): Promise<void> {
  const key = idempotencyKeyOf(req.headers["idempotency-key"]);
  if (key === null) return next();
  const outcome = await claimIdempotentRequest({
    workspaceId: authOf(res).workspaceId,
    key,
    method: req.method,
    path: `${req.baseUrl}${req.path}`,
    payload: { query: req.query, body: req.body ?? null },
    asker: principalId(authOf(res).principal),
  });
  if (outcome.kind === "replay") {
    for (const [name, value] of Object.entries(outcome.headers ?? {})) res.setHeader(name, value);
    res.setHeader(IDEMPOTENT_REPLAYED_HEADER, "true");
    if (!res.hasHeader("content-type")) res.type("application/json");
    res.status(outcome.status).send(outcome.body);
    return;
  }
  // Every answer of a route, and of the error handler (src/http/app.ts), is sent with res.json (even
  // when the client went away meanwhile): the answer is stored (or, for a 5xx, the key let go) before
  // it leaves, so a retry that arrives after it finds it. A process that dies first leaves the claim
  // to its lease.
  // An answer that could not be stored is not sent: 503 (not kept, the key let go) goes instead, so a retry
  // never hears another answer than the one sent.
  const send = res.json.bind(res);
  res.json = (body: unknown) => {
    void storeOrRefuse(outcome, { status: res.statusCode, body: JSON.stringify(body) ?? "", headers: describing(res) }).then((stored) => {
      if (stored) return send(body);
      const refused = toErrorResponse(new AnswerNotStored(), String(res.locals.requestId ?? "unknown"));
      for (const [name, value] of Object.entries(refused.headers ?? {})) res.setHeader(name, value);
      res.removeHeader("location");
      res.status(refused.status);
      send(refused.body);
    });
    return res;
  };
  next();
}
