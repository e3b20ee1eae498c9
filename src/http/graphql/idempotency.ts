/**
 * GraphQL mutations over HTTP take an `Idempotency-Key` header (the rules and the store:
 * src/domain/shared/idempotency.ts): an envelop plugin run once the operation is known to be a
 * mutation and its asker's workspace is known. The "request" is POST /graphql with the operation's
 * parameters (query, variables, operationName); the answer stored is the execution result, errors
 * masked as the client sees them. A result with an error of a 5xx code (INTERNAL_ERROR,
 * SERVICE_UNAVAILABLE, …) is not stored, nor one refused as invalid before any work (every error a
 * 400, VALIDATION_ERROR or INVALID_URL, and no field answered): the client fixes its variables and
 * retries with the same key. Over graphql-ws there is no header per operation: the plugin does
 * nothing there.
 */
import { principalId } from "../../domain/actors/actor.ts";
import { getOperationAST, GraphQLError, print, type ExecutionResult, type GraphQLFormattedError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { isAsyncIterable } from "@envelop/core";
import { DomainError, ERROR_STATUS, type ErrorCode } from "../../domain/shared/errors.ts";
import {
  AnswerNotStored,
  claimIdempotentRequest,
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyKeyOf,
  releaseIdempotentRequest,
  storeOrRefuse,
  type IdempotencyClaim,
} from "../../domain/shared/idempotency.ts";
import type { TransportContext } from "./admission.ts";
import type { GraphQLContext } from "./builder.ts";
import { refusal } from "./refusals.ts";

type OperationContext = TransportContext & GraphQLContext;

const statusOfError = (e: GraphQLError) => ERROR_STATUS[e.extensions?.code as ErrorCode] ?? 500;

/** The result as the store judges it (`keptForReplay`): 500 with a server error, 400 when only refused as invalid, else 200. */
function statusOf(result: ExecutionResult): number {
  const errors = result.errors ?? [];
  if (errors.some((e) => statusOfError(e) >= 500)) return 500;
  const answered = result.data != null && Object.values(result.data).some((v) => v !== null);
  return errors.length > 0 && !answered && errors.every((e) => statusOfError(e) === 400) ? 400 : 200;
}

/** A stored result as graphql-js errors again (Yoga's masking lets them through as they are). */
function revive(stored: Omit<ExecutionResult, "errors"> & { errors?: GraphQLFormattedError[] }): ExecutionResult {
  if (!stored.errors) return stored as ExecutionResult;
  const errors = stored.errors.map((e) => {
    const error = new GraphQLError(e.message, { path: e.path, extensions: e.extensions });
    if (e.locations) Object.assign(error, { locations: e.locations });
    return error;
  });
  return { ...stored, errors } as ExecutionResult;
}

/** Stores the result (status 200: a mutation's HTTP answer), or lets the key go for one not kept; false when it could not be stored. */
function settle(claimed: IdempotencyClaim, result: ExecutionResult): Promise<boolean> {
  return storeOrRefuse(claimed, { status: statusOf(result), body: JSON.stringify(result) });
}

/** The plugin; `maskError` is Yoga's (./yoga.ts), so that the stored errors are the ones sent. */
export function idempotentMutations(maskError: (error: unknown) => Error): Plugin<OperationContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as OperationContext;
      // HTTP and SSE only: a graphql-ws operation (admitted by its socket) has no header of its own.
      if (!ctx.req || !ctx.res || ctx.admitted) return;
      if (getOperationAST(args.document, args.operationName)?.operation !== "mutation") return;
      let claimed: IdempotencyClaim;
      try {
        const key = idempotencyKeyOf(ctx.req.headers["idempotency-key"]);
        if (key === null) return;
        const outcome = await claimIdempotentRequest({
          workspaceId: ctx.auth.workspaceId,
          key,
          method: "POST",
          path: "/graphql",
          // The document run (a trusted document's text too, ./persisted.ts), its variables and operation name.
          payload: {
            query: args.document.loc?.source.body ?? print(args.document),
            variables: args.variableValues ?? null,
            operationName: args.operationName ?? null,
          },
          asker: principalId(ctx.auth.principal),
        });
        if (outcome.kind === "replay") {
          if (!ctx.res.headersSent) ctx.res.setHeader(IDEMPOTENT_REPLAYED_HEADER, "true");
          setResultAndStopExecution(revive(JSON.parse(outcome.body) as Parameters<typeof revive>[0]));
          return;
        }
        claimed = outcome;
      } catch (e) {
        // An invalid key (400), IDEMPOTENCY_KEY_REUSED (422), IDEMPOTENCY_KEY_IN_USE (409, Retry-After):
        // refused with REST's status and headers, nothing run.
        setResultAndStopExecution({ errors: [e instanceof DomainError ? refusal(e) : (maskError(e) as GraphQLError)] });
        return;
      }
      return {
        async onExecuteDone({ result, setResult }) {
          if (isAsyncIterable(result)) {
            // An incremental (@defer/@stream) answer is not one body to store: the key is let go.
            await releaseIdempotentRequest(claimed);
            return;
          }
          const masked: ExecutionResult = result.errors
            ? { ...result, errors: result.errors.map((e) => maskError(e) as GraphQLError) }
            : result;
          if (result.errors) setResult(masked);
          // A result that could not be stored is not sent: SERVICE_UNAVAILABLE (not kept, the key let go) goes instead.
          if (!(await settle(claimed, masked))) setResult({ data: null, errors: [refusal(new AnswerNotStored())] });
        },
      };
    },
  };
}
