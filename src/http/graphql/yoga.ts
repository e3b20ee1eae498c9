/**
 * GraphQL over HTTP (and SSE) with Yoga; graphql-ws (./websocket.ts) runs its operations through the
 * same envelop plugins. One auth path, REST's (src/http/who-is-asking.ts): an API key or a person's
 * session cookie, admitted before the document is read (./admission.ts); the bounds of an operation
 * in ./limits.ts, of live subscriptions in ./subscriptions.ts.
 */
import { randomUUID } from "node:crypto";
import {
  getOperationAST,
  GraphQLError,
  Kind,
  Lexer,
  Source,
  TokenKind,
  visit,
  type ASTNode,
  type DocumentNode,
  type Token,
  type ValidationRule,
} from "graphql";
import { useDeferStream } from "@graphql-yoga/plugin-defer-stream";
import { persistedOperationsPlugin } from "./persisted.ts";
import { limitBodySize } from "./body-limit.ts";
import { releaseLoaders } from "./release-loaders.ts";
import type { Plugin } from "graphql-yoga";
import {
  findUnstorableString,
  isUrlField,
  unstorableReason,
  unstorableStringError,
  type UnstorableString,
} from "../../domain/shared/unstorable.ts";
import { createYoga, type YogaInitialContext } from "graphql-yoga";
import { PothosValidationError } from "@pothos/core";
import { useGraphQlJit } from "@envelop/graphql-jit";
import { config } from "../../config.ts";
import { DomainError, validationError } from "../../domain/shared/errors.ts";
import { dependencyFailed, logger, unavailableDependency } from "../../infra/logger.ts";
import { graphqlMetricsPlugin, metricsEnabled } from "../../infra/metrics.ts";
import { UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER_SECONDS } from "../errors.ts";
import { domainExtensions, requestErrorsAre4xx } from "./refusals.ts";
import { graphiqlOptionsFor, renderGraphiQL } from "./graphiql.ts";
import type { GraphQLContext } from "./builder.ts";
import { schema } from "./schema.ts";
import { admitBeforeParsing, buildContext, type TransportContext } from "./admission.ts";
import { operationLimits } from "./limits.ts";
import { idempotentMutations } from "./idempotency.ts";
import { endAtLifetime, endOnRevocation, limitLiveSubscriptions } from "./subscriptions.ts";
import { answerOncePerGroup } from "./fan-out.ts";
import { isIncremental } from "./incremental.ts";

const VARIABLE_REFUSAL = /^Variable "\$[_A-Za-z][_0-9A-Za-z]*" (?:got invalid value|of required type|of non-null type)/;

/** Domain errors keep their code and message; anything unexpected is masked with a request id. */
export function maskError(error: unknown): Error {
  // A variable refused by a custom scalar's parseValue (Count, DateTime: graphql-scalars' own error
  // is the original): the refusal as graphql-js words it, with the contract's VALIDATION_ERROR.
  if (error instanceof GraphQLError && error.extensions?.code === undefined && VARIABLE_REFUSAL.test(error.message)) {
    return new GraphQLError(error.message, { nodes: error.nodes, extensions: { ...error.extensions, code: "VALIDATION_ERROR" } });
  }
  const original = error instanceof GraphQLError && error.originalError ? error.originalError : error;
  if (original instanceof GraphQLError) {
    // graphql-js's own refusal of a variable's value (wrong type, null for a non-null type) carries
    // no code: it is the contract's VALIDATION_ERROR, as a wrongly typed REST field is.
    // So is a global ID that does not decode (Pothos's PothosValidationError).
    if (original.extensions?.code === undefined && (VARIABLE_REFUSAL.test(original.message) || original instanceof PothosValidationError)) {
      return new GraphQLError(original.message, {
        nodes: original.nodes,
        extensions: { ...original.extensions, code: "VALIDATION_ERROR" },
      });
    }
    return original;
  }
  const path = error instanceof GraphQLError ? error.path : undefined;
  if (original instanceof DomainError) {
    return new GraphQLError(original.message, { path, extensions: domainExtensions(original) });
  }
  const dependency = unavailableDependency(original);
  if (dependency) {
    dependencyFailed(dependency, original); // counted, not logged per request (src/infra/logger.ts)
    return new GraphQLError(UNAVAILABLE_MESSAGE, {
      path,
      extensions: { code: "SERVICE_UNAVAILABLE", retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS },
    });
  }
  const requestId = randomUUID();
  logger.error({ err: original, requestId }, "unexpected GraphQL error");
  return new GraphQLError("An unexpected error occurred; quote the request id when reporting it.", {
    path,
    extensions: { code: "INTERNAL_ERROR", requestId },
  });
}

/** graphql-js's syntax errors for a string literal holding NUL or a lone surrogate (or a malformed \\u escape). */
const UNSTORABLE_LITERAL = /^Syntax Error: (?:Invalid Unicode escape sequence|Invalid character within String: U\+(?:0000|D[89A-F]))/;

/**
 * Whether the string literal graphql-js could not read (UNSTORABLE_LITERAL) is the value of a `url`
 * argument or input field: the document's tokens up to that literal end with `url :`. Read again only
 * on that refusal, so that a literal link answers INVALID_URL as the same link in a variable does.
 */
function literalOfUrl(source: string | Source): boolean {
  const lexer = new Lexer(typeof source === "string" ? new Source(source) : source);
  let [beforeLast, last]: (Token | undefined)[] = [];
  try {
    for (let t = lexer.advance(); t.kind !== TokenKind.EOF; t = lexer.advance()) [beforeLast, last] = [last, t];
  } catch {
    // The unreadable literal: the tokens before it are read.
  }
  return beforeLast?.kind === TokenKind.NAME && beforeLast.value === "url" && last?.kind === TokenKind.COLON;
}

/** The shared refusal (src/domain/shared/inputs.ts) as a GraphQL error with `extensions.code`. */
function unstorableError(found: UnstorableString, urlField: boolean): GraphQLError {
  return maskError(unstorableStringError(found, urlField)) as GraphQLError;
}

/** The argument or input field a node of the document is the value of (nearest first), or undefined. */
function fieldNameOf(
  parent: ASTNode | readonly ASTNode[] | undefined,
  ancestors: readonly (ASTNode | readonly ASTNode[])[],
): string | undefined {
  const chain = [...ancestors, ...(parent ? [parent] : [])];
  for (let i = chain.length - 1; i >= 0; i--) {
    const a = chain[i] as ASTNode;
    if (a && "kind" in a && (a.kind === Kind.ARGUMENT || a.kind === Kind.OBJECT_FIELD)) return a.name.value;
  }
  return undefined;
}

/** A validation rule: no string literal of the document holds NUL or a lone surrogate (validation results are cached per document). */
const noUnstorableLiterals: ValidationRule = (context) => ({
  StringValue(node, _key, parent, _path, ancestors) {
    const reason = unstorableReason(node.value);
    if (!reason) return;
    const field = fieldNameOf(parent, ancestors);
    context.reportError(unstorableError({ path: field ?? "(argument)", keys: [field ?? "(argument)"], reason }, field === "url"));
  },
});

/** The variables a document passes to an argument or input field named `url` (links: INVALID_URL). */
const urlVariablesOf = new WeakMap<DocumentNode, Set<string>>();
function urlVariables(document: DocumentNode): Set<string> {
  let found = urlVariablesOf.get(document);
  if (!found) {
    const names = new Set<string>();
    visit(document, {
      Variable(node, _key, parent, _path, ancestors) {
        if (fieldNameOf(parent, ancestors) === "url") names.add(node.name.value);
      },
    });
    urlVariablesOf.set(document, (found = names));
  }
  return found;
}

function refuseUnstorableVariables(document: DocumentNode, variables: Record<string, unknown> | null | undefined): GraphQLError | null {
  const found = findUnstorableString(variables ?? {}, ["variables"]);
  if (!found) return null;
  return unstorableError(found, isUrlField(found.keys) || urlVariables(document).has(found.keys[1] ?? ""));
}

/**
 * NUL and lone surrogates (the rule of src/domain/shared/inputs.ts, as REST's router applies it):
 * refused before any resolver runs, in the document's literals (a validation rule) and in the
 * variables (checked on every operation): VALIDATION_ERROR, or INVALID_URL for a `url` argument.
 */
const refuseUnstorableStrings: Plugin = {
  // The document itself: a NUL or lone surrogate inside a string literal (as a character or as a
  // \u escape) is a syntax error to graphql-js; it is answered as the same refusal.
  onParse({ params }) {
    return ({ result, replaceParseResult }) => {
      if (result instanceof GraphQLError && UNSTORABLE_LITERAL.test(result.message)) {
        const reason = "must not contain the NUL character or a lone UTF-16 surrogate";
        const url = literalOfUrl(params.source);
        replaceParseResult(
          url
            ? unstorableError({ path: "url", keys: ["url"], reason }, true)
            : maskError(validationError(`Invalid input: a string of the document ${reason}.`, [{ path: "query", message: reason }])),
        );
      }
    };
  },
  onValidate({ addValidationRule }) {
    addValidationRule(noUnstorableLiterals);
  },
  onExecute({ args, setResultAndStopExecution }) {
    const error = refuseUnstorableVariables(args.document, args.variableValues);
    if (error) setResultAndStopExecution({ errors: [error] });
  },
  onSubscribe({ args, setResultAndStopExecution }) {
    const error = refuseUnstorableVariables(args.document, args.variableValues);
    if (error) setResultAndStopExecution({ errors: [error] });
  },
};

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
    // Its options depend on who opens it: a person signed in to the dashboard works with their session.
    graphiql: config.operations.graphiql ? (_request, server) => graphiqlOptionsFor(server?.req, server?.res) : false,
    renderGraphiQL,
    landingPage: false,
    // Same origin only, as REST: the dashboard and GraphiQL are served by this server, integrations
    // are not browsers. (Yoga's default reflected any Origin, credentials allowed.) docs/architecture.md.
    cors: false,
    // The body limit is limitBodySize (./body-limit.ts), which does not copy every body through a stream.
    maxRequestBodySize: false,
    plugins: [
      // Operation counts, durations and errors for /metrics (src/infra/metrics.ts); METRICS=false drops it.
      ...(metricsEnabled ? [graphqlMetricsPlugin()] : []),
      limitBodySize,
      // The credential and its budget, before the body is read or the document parsed (./admission.ts).
      admitBeforeParsing,
      // Trusted documents (./persisted.ts): the manifest's document replaces the parameters before parsing.
      ...(persisted ? [persisted] : []),
      ...operationLimits(),
      refuseUnstorableStrings,
      // Idempotency-Key on mutations over HTTP (./idempotency.ts), after every refusal of the operation.
      idempotentMutations(maskError),
      limitLiveSubscriptions,
      endOnRevocation,
      endAtLifetime,
      // Compiled execution (graphql-jit) of queries and mutations, kept per parsed document: Yoga's
      // parser cache (bounded LRU) hands the same document object to every request with the same
      // text. Subscriptions run on graphql-js: under graphql-jit their field arguments arrived
      // empty (every subscription answered VALIDATION_ERROR for its id argument); so do documents
      // with @defer/@stream, which graphql-jit cannot deliver incrementally.
      useGraphQlJit({}, { enableIf: (args) => compiledExecution(args.document, args.operationName) }),
      // A subscription's answer to an event is executed and serialised once per group of subscribers who see the same (./fan-out.ts).
      answerOncePerGroup,
      // @defer and @stream, over HTTP (multipart/mixed) and SSE.
      useDeferStream(),
      // A request refused before execution: 4xx under application/graphql-response+json (./refusals.ts).
      requestErrorsAre4xx,
      // The operation's DataLoaders emptied once its answer is made (./release-loaders.ts says why).
      releaseLoaders,
    ],
  });
}

export type GraphQLServer = ReturnType<typeof createGraphQL>;
