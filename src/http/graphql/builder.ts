/**
 * The Pothos schema builder (code-first). Each area adds its types, queries, mutations and
 * subscriptions in its own file under ./types and is imported by ./schema.ts.
 *
 * Conventions for frontend clients (Relay, Apollo, urql), docs/contract/decisions.md "GraphQL for
 * frontends":
 * - Every entity with an id implements `Node` (the Relay plugin): its `id` is a global ID,
 *   `node(id)`/`nodes(ids)` fetch any of them through the same workspace-scoped domain reads, and
 *   each also exposes its REST id as `uuid`. Arguments that take an entity accept either form.
 * - Every list is a cursor connection (`edges { cursor node }`, `pageInfo`, `totalCount`) over the
 *   domain's keyset pages (src/domain/shared/pages.ts): a cursor stays valid when rows are inserted
 *   or removed before it.
 * - Objects are loaded through DataLoaders made per request (the Dataloader plugin): a relation
 *   asked for on a whole page is one read, and a row is never read twice for one response.
 * - Counts share one scalar, `Count`, that holds any count a platform reports (beyond 2^31).
 */
import SchemaBuilder from "@pothos/core";
import RelayPlugin from "@pothos/plugin-relay";
import DataloaderPlugin from "@pothos/plugin-dataloader";
import { GraphQLDateTimeISO, GraphQLJSON, GraphQLJSONObject, GraphQLSafeInt } from "graphql-scalars";
import type { Actor } from "../../domain/actors/actor.ts";
import { validationError } from "../../domain/shared/errors.ts";
import { MAX_PAGE_SIZE } from "../../domain/shared/inputs.ts";
import type { PersonContext } from "../../domain/people/sessions.ts";

export interface GraphQLContext {
  /**
   * Who asks (./asker.ts): the workspace every resolver reads, who acts and their role. For a
   * signed-in person in no workspace, or an anonymous request, reading it throws (NOT_FOUND,
   * UNAUTHORIZED): only the fields that need no workspace answer.
   */
  auth: Actor;
  /** The signed-in person (null for an API key or an anonymous request): `viewer`, invitations, sessions. */
  person: PersonContext | null;
  /** What ends this request's live subscriptions (src/domain/keys/revocation.ts). */
  revocationSubjects: string[];
  /** The budget it spends: rate limit, live sockets and subscriptions (src/http/who-is-asking.ts); null for the anonymous accept page. */
  budget: string | null;
  /** The client's address (the audit log's). */
  clientAddress: string | null;
  requestId: string;
}

/** What every connection resolver returns besides edges and pageInfo: the list's total, or how to count it (only when asked). */
export interface ConnectionExtras {
  totalCount: number | (() => Promise<number>);
}

/** The most ids `nodes(ids:)` takes: a page's worth (5,000 ids in one request were read and answered). */
const MAX_NODE_IDS = MAX_PAGE_SIZE;

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
  Connection: ConnectionExtras;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    Count: { Input: number; Output: number };
    JSONObject: { Input: Record<string, unknown>; Output: Record<string, unknown> };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [RelayPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: "omit",
    cursorType: "String",
    edgesFieldOptions: { nullable: false },
    nodeFieldOptions: { nullable: false },
    nodeQueryOptions: {
      description: "Any object of the workspace by its global ID (null when it does not exist or belongs to another workspace).",
    },
    nodesQueryOptions: {
      description:
        `Objects of the workspace by their global IDs, in the order given (null for each that does not exist or belongs to another ` +
        `workspace). At most ${MAX_NODE_IDS} ids (a page); more is a VALIDATION_ERROR.`,
      resolve: (_root, args, _context, _info, resolveNodes) => {
        if (args.ids.length > MAX_NODE_IDS) {
          throw validationError(
            `nodes(ids:) takes at most ${MAX_NODE_IDS} ids (a page); this asks for ${args.ids.length}. Ask in pages of ${MAX_NODE_IDS}.`,
            [{ path: "ids", message: `at most ${MAX_NODE_IDS} ids` }],
          );
        }
        return resolveNodes(args.ids);
      },
    },
  },
});

/** A timestamp already written the way DateTime answers (PostgreSQL's `to_char` of history points, `toISOString`). */
const CANONICAL_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * graphql-scalars' DateTimeISO: RFC 3339 input, ISO 8601 UTC output with milliseconds. A string the
 * domain already wrote in that form is answered as it is: history reads pass hundreds of point
 * times as strings precisely so that they are not parsed into Dates and printed back
 * (src/domain/tracking/history.ts, bench/history.ts).
 */
builder.addScalarType("DateTime", GraphQLDateTimeISO, {
  description: "ISO 8601 UTC timestamp with milliseconds.",
  // A valid Date is printed directly (graphql-scalars re-validates it first: 2.5 % of a list request's
  // CPU in the ladder's profile); anything else gets graphql-scalars' checks and errors.
  serialize: (value) => {
    if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
    return typeof value === "string" && CANONICAL_TIMESTAMP.test(value) ? value : GraphQLDateTimeISO.serialize(value);
  },
});

builder.addScalarType("Count", GraphQLSafeInt, {
  description:
    "A count a platform reports (views, likes, followers …) or a sum of them: an integer up to 2^53 - 1, beyond GraphQL Int's 2^31 " +
    "(serialized as a JSON number).",
});

builder.addScalarType("JSONObject", GraphQLJSONObject, {});
builder.addScalarType("JSON", GraphQLJSON, {});

builder.queryType({});
builder.mutationType({
  // The rule: src/domain/shared/idempotency.ts; applied to mutations over HTTP by ./idempotency.ts.
  description:
    "Every mutation sent over HTTP may carry an `Idempotency-Key` header (1 to 255 printable ASCII characters, scoped to the " +
    "workspace; VALIDATION_ERROR otherwise): the same request (query, variables and operation name) sent again with the same key " +
    "within 24 hours runs nothing again and answers the first result, with the response header `Idempotent-Replayed: true`. The same " +
    "key with another request: IDEMPOTENCY_KEY_REUSED (HTTP 422); while the first is still running: IDEMPOTENCY_KEY_IN_USE (HTTP 409, " +
    "Retry-After). Results with an INTERNAL_ERROR or SERVICE_UNAVAILABLE error are not kept. Over WebSocket there is no such header.",
});
builder.subscriptionType({});

builder.globalConnectionField("totalCount", (t) =>
  t.field({
    type: "Count",
    description: "How many items the whole list holds (all pages).",
    resolve: (parent) => (typeof parent.totalCount === "function" ? parent.totalCount() : parent.totalCount),
  }),
);
