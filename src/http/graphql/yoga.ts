/**
 * GraphQL over HTTP (and SSE) with Yoga, and over WebSocket with graphql-ws, on the same port and
 * path (/graphql). One auth path: the same `authenticate()` as REST, reading the bearer key from
 * the HTTP Authorization header or from `connectionParams.authorization` on connection_init.
 */
import type { IncomingMessage, Server } from "node:http";
import { randomUUID } from "node:crypto";
import { getOperationAST, GraphQLError, visit, type DocumentNode, type ValidationRule } from "graphql";
import { useDeferStream } from "@graphql-yoga/plugin-defer-stream";
import { persistedOperationsPlugin } from "./persisted.js";
import { limitBodySize } from "./body-limit.js";
import type { Plugin } from "graphql-yoga";
import { findNulCharacter } from "../../domain/shared/inputs.js";
import { createYoga, type YogaInitialContext } from "graphql-yoga";
import { WebSocketServer } from "ws";
import { useServer } from "graphql-ws/use/ws";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { useGraphQlJit } from "@envelop/graphql-jit";
import { config } from "../../config.js";
import { DomainError } from "../../domain/shared/errors.js";
import { admit, authenticate, bearerSecret, RateLimitedError } from "../../domain/keys/access.js";
import { addLogContext, logger } from "../../infra/logger.js";
import { graphqlMetricsPlugin, metricsEnabled } from "../../infra/metrics.js";
import { isUnavailable } from "../rest/errors.js";
import { renderGraphiQL } from "./graphiql.js";
import { requestIdOf } from "../request-context.js";
import type { GraphQLContext } from "./builder.js";
import { schema } from "./schema.js";

interface TransportContext extends Partial<YogaInitialContext> {
  /** The Node request (HTTP) or the upgrade request (WebSocket). */
  req?: IncomingMessage;
  connectionParams?: Record<string, unknown>;
}

function unauthenticated(): GraphQLError {
  return new GraphQLError("A valid API key is required: send `Authorization: Bearer svc_sk_...`.", {
    extensions: { code: "UNAUTHORIZED", http: { status: 401 } },
  });
}

function authorizationOf(ctx: TransportContext): string | null {
  const fromHeader = ctx.request?.headers.get("authorization");
  if (fromHeader) return fromHeader;
  const param = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
  return typeof param === "string" ? param : null;
}

/** RATE_LIMITED: over HTTP a 429 with Retry-After and the RateLimit-* headers; over WebSocket an error message. */
function rateLimited(e: RateLimitedError): GraphQLError {
  const headers = {
    "Retry-After": String(e.state.resetSeconds),
    "RateLimit-Limit": String(e.state.limit),
    "RateLimit-Remaining": String(e.state.remaining),
    "RateLimit-Reset": String(e.state.resetSeconds),
  };
  return new GraphQLError(e.message, { extensions: { code: "RATE_LIMITED", http: { status: 429, headers } } });
}

/**
 * Every operation (an HTTP request, or one operation on a WebSocket) is admitted by the same rule
 * as a REST request (src/domain/keys/access.ts): the key, and one unit of its rate-limit budget.
 */
async function buildContext(ctx: TransportContext): Promise<GraphQLContext> {
  let admitted;
  try {
    admitted = await admit(bearerSecret(authorizationOf(ctx)));
  } catch (e) {
    throw e instanceof RateLimitedError ? rateLimited(e) : e;
  }
  if (!admitted) throw unauthenticated();
  addLogContext({ workspaceId: admitted.auth.workspaceId });
  return { auth: admitted.auth, requestId: ctx.req ? requestIdOf(ctx.req) : randomUUID() };
}

/** Domain errors keep their code and message; anything unexpected is masked with a request id. */
function maskError(error: unknown): Error {
  const original = error instanceof GraphQLError && error.originalError ? error.originalError : error;
  if (original instanceof GraphQLError) return original;
  const path = error instanceof GraphQLError ? error.path : undefined;
  if (original instanceof DomainError) {
    return new GraphQLError(original.message, {
      path,
      extensions: {
        code: original.code,
        ...(original.details ? { details: original.details } : {}),
        // REFRESH_TOO_SOON (src/domain/tracking/refresh.ts): REST's Retry-After, as a number of seconds.
        ...(original.retryAfterSeconds !== undefined ? { retryAfter: original.retryAfterSeconds } : {}),
      },
    });
  }
  if (isUnavailable(original)) {
    return new GraphQLError("A backing service (database or Redis) is unavailable; try again shortly.", {
      path,
      extensions: { code: "SERVICE_UNAVAILABLE" },
    });
  }
  const requestId = randomUUID();
  logger.error({ err: original, requestId }, "unexpected GraphQL error");
  return new GraphQLError("An unexpected error occurred; quote the request id when reporting it.", {
    path,
    extensions: { code: "INTERNAL_ERROR", requestId },
  });
}

function nulError(path: string): GraphQLError {
  return new GraphQLError(`Invalid input: ${path}: must not contain the NUL character (\\u0000).`, {
    extensions: { code: "VALIDATION_ERROR", details: [{ path, message: "must not contain the NUL character (\\u0000)" }] },
  });
}

/** A validation rule: no string literal of the document holds NUL (validation results are cached per document). */
const noNulLiterals: ValidationRule = (context) => ({
  StringValue(node) {
    if (node.value.includes("\u0000")) context.reportError(nulError("(argument)"));
  },
});

/**
 * PostgreSQL text cannot hold NUL: refuse it before any resolver runs (as REST's router does), in
 * the document's literals (a validation rule) and in the variables (checked on every operation).
 */
const refuseNulCharacters: Plugin = {
  onValidate({ addValidationRule }) {
    addValidationRule(noNulLiterals);
  },
  onExecute({ args, setResultAndStopExecution }) {
    const path = findNulCharacter(args.variableValues ?? {}, "variables");
    if (path) setResultAndStopExecution({ errors: [nulError(path)] });
  },
  onSubscribe({ args, setResultAndStopExecution }) {
    const path = findNulCharacter(args.variableValues ?? {}, "variables");
    if (path) setResultAndStopExecution({ errors: [nulError(path)] });
  },
};

/** Documents that use @defer or @stream (incremental delivery, which graphql-jit does not do). */
const incremental = new WeakMap<DocumentNode, boolean>();
function isIncremental(document: DocumentNode): boolean {
  let found = incremental.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      Directive(node) {
        if (node.name.value === "defer" || node.name.value === "stream") found = true;
      },
    });
    incremental.set(document, found);
  }
  return found;
}

/** graphql-jit runs queries and mutations without @defer/@stream; the rest run on graphql-js. */
function compiledExecution(document: DocumentNode, operationName?: string | null): boolean {
  return getOperationAST(document, operationName)?.operation !== "subscription" && !isIncremental(document);
}

export function createGraphQL() {
  const persisted = persistedOperationsPlugin();
  return createYoga<TransportContext, GraphQLContext>({
    schema,
    graphqlEndpoint: "/graphql",
    context: buildContext,
    maskedErrors: { maskError },
    logging: false,
    // GraphiQL's files come from this server (./graphiql.ts), never a CDN; GRAPHIQL=false turns it off.
    graphiql: config.operations.graphiql ? { subscriptionsProtocol: "WS" } : false,
    renderGraphiQL,
    landingPage: false,
    // The body limit is limitBodySize (./body-limit.ts), which does not copy every body through a stream.
    maxRequestBodySize: false,
    plugins: [
      // Operation counts, durations and errors for /metrics (src/infra/metrics.ts); METRICS=false drops it.
      ...(metricsEnabled ? [graphqlMetricsPlugin()] : []),
      limitBodySize,
      maxDepthPlugin({ n: config.graphql.maxDepth, exposeLimits: true }),
      costLimitPlugin({ maxCost: config.graphql.maxCost, exposeLimits: true }),
      refuseNulCharacters,
      // Compiled execution (graphql-jit) of queries and mutations, kept per parsed document: Yoga's
      // parser cache (bounded LRU) hands the same document object to every request with the same
      // text. Subscriptions run on graphql-js: under graphql-jit their field arguments arrived
      // empty (every subscription answered VALIDATION_ERROR for its id argument); so do documents
      // with @defer/@stream, which graphql-jit cannot deliver incrementally.
      useGraphQlJit({}, { enableIf: (args) => compiledExecution(args.document, args.operationName) }),
      // @defer and @stream, over HTTP (multipart/mixed) and SSE.
      useDeferStream(),
      ...(persisted ? [persisted] : []),
    ],
  });
}

export type GraphQLServer = ReturnType<typeof createGraphQL>;

/** graphql-ws on the HTTP server, running operations through Yoga's envelop (so its plugins apply). */
export function attachWebSocket(server: Server, yoga: GraphQLServer) {
  const wss = new WebSocketServer({ server, path: yoga.graphqlEndpoint });
  const disposable = useServer(
    {
      execute: (args: any) => args.rootValue.execute(args),
      subscribe: (args: any) => args.rootValue.subscribe(args),
      // connection_init: refuse the socket at once when the key is missing, unknown or revoked.
      onConnect: async (ctx) => {
        const auth = await authenticate(bearerSecret(authorizationOf({ connectionParams: ctx.connectionParams })));
        return auth !== null;
      },
      onSubscribe: async (ctx, _id, params) => {
        const { schema: s, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
          connectionParams: ctx.connectionParams,
        });
        let document;
        try {
          document = parse(params.query);
        } catch (e) {
          return [e as GraphQLError];
        }
        const errors = validate(s, document);
        if (errors.length > 0) return errors;
        let contextValue;
        try {
          contextValue = await contextFactory();
        } catch (e) {
          return [e instanceof GraphQLError ? e : (maskError(e) as GraphQLError)];
        }
        return {
          schema: s,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue,
          rootValue: { execute, subscribe },
        };
      },
    },
    wss,
  );
  return {
    close: async () => {
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
