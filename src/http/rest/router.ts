/**
 * Builds the Express router for /api/v1 from the route definitions: auth and rate limit where the
 * route asks for them, zod validation of params, query and body (400 VALIDATION_ERROR with
 * details), the handler, and (when VALIDATE_RESPONSES is on, as in tests) a check that the answer
 * matches its documented schema.
 */
import express, { type Request, type Response } from "express";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { z } from "zod";
import { config } from "../../config.ts";
import { notFound, validationError, type ErrorDetail } from "../../domain/shared/errors.ts";
import { describeDetails, issuesToDetails } from "../../domain/shared/inputs.ts";
import { rejectUnstorableStrings } from "../../domain/shared/unstorable.ts";
import { logger } from "../../infra/logger.ts";
import { admitRequest, authOf } from "../middleware.ts";
import { authorize } from "../../domain/actors/roles.ts";
import { OPERATOR, type Actor } from "../../domain/actors/actor.ts";
import { successStatus, takesIdempotencyKey, type AnyRoute } from "./route.ts";
import { idempotentRequest } from "./idempotency.ts";
import { answerFile, askedFileFormat } from "./file-answers.ts";
import { BODY_LIMIT_BYTES, traceRoute } from "../request-context.ts";

const toExpressPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

function parsePart(schema: z.ZodType | undefined, value: unknown, where: string, details: ErrorDetail[]): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  details.push(...issuesToDetails(result.error, where));
  return undefined;
}

function checkResponse(route: AnyRoute, status: number, body: unknown): void {
  const schema = route.responses[status]?.schema;
  if (!schema) {
    if (!route.responses[status]) throw new Error(`${route.method.toUpperCase()} ${route.path} answered undocumented status ${status}`);
    return;
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const problems = describeDetails(issuesToDetails(result.error));
    throw new Error(`${route.method.toUpperCase()} ${route.path} answered a body that does not match its documented schema: ${problems}`);
  }
}

/** The actor of routes that need none (`auth: false`): no workspace, no role. */
const NO_ACTOR: Actor = { workspaceId: "", role: "member", ...OPERATOR };

/** What `validate` parsed, for `run`. */
interface ValidInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

/**
 * The route's own checks, before anything of it runs: the role rule, unstorable strings, the
 * schemas. Before the Idempotency-Key is claimed (./idempotency.ts): a request refused here did no
 * work, so its key is not spent and the fixed request may use it again.
 */
function validate(route: AnyRoute) {
  return (req: Request, res: Response, next: () => void) => {
    // Owner-only routes ask the role rule first (403 FORBIDDEN for members).
    if (route.permission) authorize(authOf(res), route.permission);
    // NUL and lone surrogates: 400 VALIDATION_ERROR (INVALID_URL in a `url` field), before any schema.
    rejectUnstorableStrings(req.params, "params");
    rejectUnstorableStrings(req.query, "query");
    rejectUnstorableStrings(req.body, "body");
    const details: ErrorDetail[] = [];
    const params = parsePart(route.params, req.params, "params", details);
    const query = parsePart(route.query, req.query, "query", details);
    // A route with a body schema needs a JSON body; express.json leaves req.body undefined otherwise.
    const rawBody = route.body && req.body === undefined ? {} : req.body;
    const body = parsePart(route.body, rawBody, "body", details);
    if (details.length > 0) throw validationError(`Invalid request: ${describeDetails(details)}`, details);
    res.locals.input = { params, query, body } satisfies ValidInput;
    next();
  };
}

function run(route: AnyRoute) {
  const template = toExpressPath(route.path);
  return async (req: Request, res: Response) => {
    traceRoute(req.method, `${req.baseUrl}${template}`);
    const { params, query, body } = res.locals.input as ValidInput;
    const requestId = res.locals.requestId as string;
    const auth = route.auth === false ? NO_ACTOR : authOf(res);
    // A list asked for as a file (format=csv|xlsx, or Accept): every matching row, streamed (./file-answers.ts).
    const fileFormat = route.exportAs ? askedFileFormat(req) : null;
    if (route.exportAs && fileFormat) return answerFile(route.exportAs, fileFormat, req, res, auth);
    const out = await route.handler({
      params,
      query,
      body,
      auth,
      requestId,
      log: logger, // the request id (and workspace) come from the log context (src/infra/logger.ts)
    });
    const status = out.status ?? successStatus(route);
    const mediaType = route.responses[status]?.mediaType;
    if (config.validateResponses && !mediaType) checkResponse(route, status, out.body);
    for (const [name, value] of Object.entries(out.headers ?? {})) res.setHeader(name, value);
    if (!mediaType) res.status(status).json(out.body);
    else if (Buffer.isBuffer(out.body)) res.status(status).type(mediaType).send(out.body);
    else if (out.body instanceof Readable) {
      // A file streamed as it is read (an export's download: src/http/rest/routes/exports.ts); its handler sets the real Content-Type.
      const file = out.body;
      await new Promise<void>((resolve, reject) => {
        file.once("error", reject);
        file.once("open", () => {
          res.status(status);
          if (!res.getHeader("content-type")) res.type(mediaType);
          pipeline(file, res).then(resolve, () => resolve());
        });
      }).catch((err: NodeJS.ErrnoException) => {
        // Nothing was sent: the error answers as JSON, without the file's Content-Type and attachment name.
        for (const name of Object.keys(out.headers ?? {})) res.removeHeader(name);
        if (err.code === "ENOENT") throw notFound("File");
        throw err;
      });
    } else throw new Error(`${route.method.toUpperCase()} ${route.path} answered ${mediaType} without its bytes`);
  };
}

/**
 * The JSON body, within the 1 MiB limit of every door. Read after the credential is admitted, so an
 * anonymous or over-budget request is refused without its body being read or parsed (as GraphQL's
 * admission does: src/http/graphql/admission.ts). Its media type was checked before (../middleware.ts).
 */
const readJsonBody = express.json({ limit: BODY_LIMIT_BYTES, type: () => true });

export function buildRouter(routes: AnyRoute[]): express.Router {
  const router = express.Router();
  for (const route of routes) {
    // Who asks and its budget, then the body and the route's checks; writes then take an Idempotency-Key
    // (./idempotency.ts), scoped to the workspace "who is asking" names, before the route runs.
    const guards = route.auth === false ? [readJsonBody] : [admitRequest, readJsonBody];
    const keyed = route.auth !== false && takesIdempotencyKey(route) ? [idempotentRequest] : [];
    router[route.method](toExpressPath(route.path), ...guards, validate(route), ...keyed, run(route));
  }
  router.use(wrongMethod(routes));
  return router;
}

/** A documented path as a regular expression over the request's path (`{id}`: one segment). */
const pathPattern = (path: string) =>
  new RegExp(
    `^${path
      .split(/\{\w+\}/)
      .map((p) => p.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
      .join("[^/]+")}/?$`,
  );

/**
 * A known path asked with a method it does not serve: 405 METHOD_NOT_ALLOWED with `Allow` (RFC 9110, 15.5.6)
 * naming the methods every route matching the path serves, before any key is asked for (the paths and
 * their methods are public in the OpenAPI document). Unknown paths fall through to the 404.
 */
export function wrongMethod(routes: readonly { method: string; path: string }[]): express.RequestHandler {
  const patterns = routes.map((r) => ({ method: r.method.toUpperCase(), pattern: pathPattern(r.path) }));
  return (req, res, next) => {
    const methods = new Set(patterns.filter((p) => p.pattern.test(req.path)).map((p) => p.method));
    if (methods.size === 0) return next();
    if (methods.has("GET")) methods.add("HEAD");
    methodNotAllowed(res, [...methods], req.method);
  };
}

/** The 405 answer itself, for the REST routes and the service's other fixed paths (/healthz, /readyz, /metrics). */
export function methodNotAllowed(res: Response, allow: readonly string[], method: string): void {
  res.setHeader("Allow", allow.join(", "));
  res.status(405).json({ code: "METHOD_NOT_ALLOWED", message: `${method} is not allowed here; this path serves ${allow.join(", ")}.` });
}
