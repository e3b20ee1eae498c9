/**
 * The shared report's narrow GraphQL entry point, `POST /graphql/shared`: what
 * the signed-out page `/r/<token>` reads. Apart from `/graphql` in everything: its own small schema
 * (./schema.ts), no cookie or key read (the token is the only credential, and it opens one folder's
 * report), no introspection, and bounds of its own:
 * - a rate limit per client address first (src/domain/reports/limits.ts): 429 RATE_LIMITED with Retry-After;
 * - a JSON body (415 otherwise) of at most 8 KiB (413), one operation, with `sharedFolderReport` asked
 *   once and nothing deeper than the schema itself (the type graph has no cycle: depth 4 at most);
 * - an unknown, revoked or expired token: 404 with `extensions.code` NOT_FOUND, the same for each.
 * Answers carry `X-Robots-Tag: noindex` and `Cache-Control: no-store`.
 */
import express, { type Request, type Response } from "express";
import {
  execute,
  getOperationAST,
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type SelectionSetNode,
  type ValidationContext,
} from "graphql";
import { takeSharedReportRequest } from "../../domain/reports/limits.ts";
import { DomainError } from "../../domain/shared/errors.ts";
import { logger } from "../../infra/logger.ts";
import { refusalHeaders, toErrorResponse } from "../errors.ts";
import { unsupportedBodyMediaType } from "../request-context.ts";
import { clientAddress } from "../who-is-asking.ts";
import { sharedReportSchema } from "./schema.ts";

export const SHARED_REPORT_PATH = "/graphql/shared";
const MAX_BODY = "8kb";
const MAX_DEPTH = 4;

/** At most one root field, `sharedFolderReport`, asked once (aliases included). */
function oneRootField(context: ValidationContext) {
  return {
    OperationDefinition(node: { selectionSet: SelectionSetNode }) {
      const fields = node.selectionSet.selections;
      if (fields.length !== 1 || fields[0]!.kind !== Kind.FIELD)
        context.reportError(new GraphQLError("Ask for sharedFolderReport once, and nothing else."));
    },
  };
}

function depthOf(set: SelectionSetNode | undefined, doc: DocumentNode, seen = new Set<string>()): number {
  if (!set) return 0;
  let deepest = 0;
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) deepest = Math.max(deepest, 1 + depthOf(s.selectionSet, doc, seen));
    else if (s.kind === Kind.INLINE_FRAGMENT) deepest = Math.max(deepest, depthOf(s.selectionSet, doc, seen));
    else if (!seen.has(s.name.value)) {
      const fragment = doc.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === s.name.value);
      if (fragment && fragment.kind === Kind.FRAGMENT_DEFINITION)
        deepest = Math.max(deepest, depthOf(fragment.selectionSet, doc, new Set([...seen, s.name.value])));
    }
  }
  return deepest;
}

const RULES = [...specifiedRules, NoSchemaIntrospectionCustomRule, oneRootField];

function answer(res: Response, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res
    .status(status)
    .set({ "Cache-Control": "no-store", "X-Robots-Tag": "noindex", ...headers })
    .json(body);
}

const refuse = (res: Response, status: number, code: string, message: string) =>
  answer(res, status, { code, message, errors: [{ message, extensions: { code } }] });

async function handle(req: Request, res: Response): Promise<void> {
  try {
    await takeSharedReportRequest(clientAddress(req));
  } catch (e) {
    if (e instanceof DomainError)
      return answer(
        res,
        e.status,
        { code: e.code, message: e.message, errors: [{ message: e.message, extensions: { code: e.code } }] },
        refusalHeaders(e),
      );
    throw e;
  }
  const body = req.body as { query?: unknown; variables?: unknown; operationName?: unknown } | undefined;
  if (!body || typeof body.query !== "string") return refuse(res, 400, "VALIDATION_ERROR", "The body must be JSON with a `query` string.");
  if (body.variables !== undefined && body.variables !== null && (typeof body.variables !== "object" || Array.isArray(body.variables)))
    return refuse(res, 400, "VALIDATION_ERROR", "`variables` must be an object.");
  let document: DocumentNode;
  try {
    document = parse(body.query, { maxTokens: 500 });
  } catch (e) {
    return refuse(res, 400, "VALIDATION_ERROR", (e as Error).message);
  }
  const problems = validate(sharedReportSchema, document, RULES);
  if (problems.length)
    return answer(res, 400, {
      code: "VALIDATION_ERROR",
      message: problems[0]!.message,
      errors: problems.map((p) => ({ message: p.message, extensions: { code: "VALIDATION_ERROR" } })),
    });
  const operation = getOperationAST(document, typeof body.operationName === "string" ? body.operationName : undefined);
  if (!operation || operation.operation !== "query") return refuse(res, 400, "VALIDATION_ERROR", "Send one query operation.");
  if (depthOf(operation.selectionSet, document) > MAX_DEPTH)
    return refuse(res, 400, "VALIDATION_ERROR", `The query is deeper than ${MAX_DEPTH} levels.`);
  const result = await execute({
    schema: sharedReportSchema,
    document,
    operationName: typeof body.operationName === "string" ? body.operationName : undefined,
    variableValues: (body.variables ?? undefined) as Record<string, unknown> | undefined,
  });
  if (!result.errors?.length) return answer(res, 200, { data: result.data });
  const first = result.errors[0]!;
  const original = first.originalError;
  if (original instanceof DomainError || !original) {
    const code = original instanceof DomainError ? original.code : "VALIDATION_ERROR";
    const status = original instanceof DomainError ? original.status : 400;
    return answer(res, status, { code, message: first.message, data: null, errors: [{ message: first.message, extensions: { code } }] });
  }
  const id = (res.locals.requestId as string) ?? "unknown";
  const { status, body: errorBody, unexpected } = toErrorResponse(original, id);
  if (unexpected) logger.error({ err: original, requestId: id }, "shared report failed");
  answer(res, status, { ...errorBody, data: null, errors: [{ message: errorBody.message, extensions: { code: errorBody.code } }] });
}

export function sharedReportRoutes() {
  const router = express.Router();
  router.post(SHARED_REPORT_PATH, (req, res, next) => {
    if (unsupportedBodyMediaType(req.method, (name) => req.get(name)))
      return refuse(res, 415, "UNSUPPORTED_MEDIA_TYPE", "Send Content-Type: application/json.");
    next();
  });
  router.post(SHARED_REPORT_PATH, express.json({ limit: MAX_BODY }), (req, res, next) => {
    handle(req, res).catch(next);
  });
  router.all(SHARED_REPORT_PATH, (_req, res) => {
    res.set("Allow", "POST");
    refuse(res, 405, "METHOD_NOT_ALLOWED", "Use POST.");
  });
  return router;
}
