/**
 * Mapping GraphQL arguments onto the domain: cursor connections over the domain's keyset pages,
 * and entity ids given as global IDs or REST UUIDs.
 */
import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from "graphql";
import { parseCursorConnectionArgs } from "@pothos/core";
import { decodeGlobalID } from "@pothos/plugin-relay";
import { connectionArgs, parseInput, uuid } from "../../domain/shared/inputs.ts";
import { validationError } from "../../domain/shared/errors.ts";
import { cursorOf, type CursorWindow, type Order } from "../../domain/shared/pages.ts";
import type { ConnectionExtras } from "./builder.ts";

export interface ConnectionArgsInput {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/**
 * A connection of the rows `load` reads for a keyset window of a list ordered by `order` (the
 * domain's order, so cursors are the domain's). `first`/`last` are checked with the domain's rule
 * (VALIDATION_ERROR past 100, never clamped).
 */
export async function keysetConnection<Row>(
  args: ConnectionArgsInput,
  order: Order<Row>,
  load: (window: CursorWindow) => Promise<readonly Row[]>,
  totalCount: ConnectionExtras["totalCount"],
) {
  const { window, build } = batchedConnection(args, order);
  return build(await load(window), totalCount);
}

/** A keyset connection whose page and totalCount come from one statement (the domain's `pageAndTotal`): they agree. */
export async function countedConnection<Row>(
  args: ConnectionArgsInput,
  order: Order<Row>,
  readPage: (window: CursorWindow) => Promise<{ items: readonly Row[]; total: number }>,
) {
  const { window, build } = batchedConnection(args, order);
  const page = await readPage(window);
  return build(page.items, page.total);
}

/**
 * An edge whose cursor is encoded only when a client asks for it (most list queries select nodes
 * only; encoding every row's key was measurable per request).
 */
class Edge<Row> {
  #cursor: string | undefined;
  private readonly order: Order<Row>;
  readonly node: Row;
  constructor(order: Order<Row>, node: Row) {
    this.order = order;
    this.node = node;
  }
  get cursor(): string {
    return (this.#cursor ??= cursorOf(this.order, this.node));
  }
}

/**
 * A page's PageInfo, its cursors made only when asked (as Edge's). A class, not an object literal
 * with getters: a literal's getters are new closures on every request, and V8 gives such an object
 * a hidden class of its own, made in the old generation; that dead old class still pointed at the
 * page's rows at the next young-generation collection, so every page of rows was copied and
 * promoted, then freed by a full collection (the GraphQL list's GC cost, bench/RESULTS.md).
 */
class PageInfo<Row> {
  readonly #edges: readonly Edge<Row>[];
  readonly #empty: string;
  readonly hasPreviousPage: boolean;
  readonly hasNextPage: boolean;
  constructor(edges: readonly Edge<Row>[], empty: string, hasPreviousPage: boolean, hasNextPage: boolean) {
    this.#edges = edges;
    this.#empty = empty;
    this.hasPreviousPage = hasPreviousPage;
    this.hasNextPage = hasNextPage;
  }
  get startCursor(): string {
    return this.#edges[0]?.cursor ?? this.#empty;
  }
  get endCursor(): string {
    return this.#edges[this.#edges.length - 1]?.cursor ?? this.#empty;
  }
}

/**
 * A connection of several parents' rows read in one statement (a DataLoader over the parents): the
 * window of the arguments, the same for every parent, and how to build each parent's connection
 * from its rows. The window and page info follow Pothos's argument rules (parseCursorConnectionArgs,
 * as its resolveCursorConnection does), with cursors made lazily (Edge).
 */
export function batchedConnection<Row>(args: ConnectionArgsInput, order: Order<Row>) {
  const parsed = parseCursorConnectionArgs({ args: parseInput(connectionArgs, args) });
  const window: CursorWindow = { after: parsed.after, before: parsed.before, limit: parsed.limit, inverted: parsed.inverted };
  const build = (rows: readonly Row[], totalCount: ConnectionExtras["totalCount"]) => {
    const page = rows.slice(0, parsed.expectedSize);
    if (parsed.inverted) page.reverse();
    const edges = page.map((node) => new Edge(order, node));
    const empty = args.after ?? args.before ?? "";
    return {
      edges,
      pageInfo: new PageInfo(edges, empty, parsed.hasPreviousPage(rows.length), parsed.hasNextPage(rows.length)),
      totalCount,
    };
  };
  return { window, build };
}

/**
 * An entity id argument: the object's global ID (`id`) or its REST UUID (`uuid`), answered as the
 * UUID. A global ID of another type, or anything else, is a VALIDATION_ERROR naming the argument.
 */
export function entityId(value: string | number, typename: string, arg: string): string {
  const raw = String(value);
  if (uuid.safeParse(raw).success) return raw;
  let decoded: { typename: string; id: string } | null = null;
  try {
    decoded = decodeGlobalID(raw);
  } catch {
    decoded = null;
  }
  if (!decoded || decoded.typename !== typename || !uuid.safeParse(decoded.id).success) {
    throw validationError(`Invalid input: ${arg}: must be a ${typename} ID (its global id or its uuid).`, [
      { path: arg, message: `must be a ${typename} ID (its global id or its uuid)` },
    ]);
  }
  return decoded.id;
}

/** The UUID of a node's global ID (as the Relay plugin parses it): anything else is a VALIDATION_ERROR. */
export function nodeUuid(id: string): string {
  return parseInput(uuid, id, "id");
}

/**
 * A connection over a short series the domain computes whole (growth points): rows already in the
 * list's order, each with a unique key that sorts in that order (`desc` when it decreases along
 * the list). Cursors are keys, so they stay valid as the series moves on.
 */
export function seriesConnection<Row>(args: ConnectionArgsInput, rows: readonly Row[], key: (row: Row) => string, desc: boolean) {
  const parsed = parseCursorConnectionArgs({ args: parseInput(connectionArgs, args) });
  const order: Order<Row> = [{ sql: "", type: "text", desc, value: key }];
  const position = (cursor: string) => decodeSeriesCursor(cursor, parsed.after === cursor ? "after" : "before");
  const before = (a: string, b: string) => (desc ? a > b : a < b);
  let window = rows.filter((r) => {
    const k = key(r);
    if (parsed.after !== undefined && !before(position(parsed.after), k)) return false;
    if (parsed.before !== undefined && !before(k, position(parsed.before))) return false;
    return true;
  });
  if (parsed.inverted) window = [...window].reverse();
  const { build } = batchedConnection(args, order);
  return build(window.slice(0, parsed.limit), rows.length);
}

function decodeSeriesCursor(cursor: string, arg: string): string {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    value = undefined;
  }
  if (!Array.isArray(value) || value.length !== 1 || typeof value[0] !== "string") {
    throw validationError(`${arg} is not a cursor of this list.`, [{ path: arg, message: "not a cursor of this list" }]);
  }
  return value[0];
}

/** A connection over a domain list that answers its page and total together (`listTrackedVideos` …). */
export async function pagedConnection<Row>(
  args: ConnectionArgsInput,
  order: Order<Row>,
  list: (window: CursorWindow) => Promise<{ items: readonly Row[]; total: number }>,
) {
  let total = 0;
  const connection = await keysetConnection(
    args,
    order,
    async (window) => {
      const page = await list(window);
      total = page.total;
      return page.items;
    },
    0,
  );
  return { ...connection, totalCount: total };
}

/** The fields a selection set asks for under `name` (through fragments; @include/@skip not read: asking for more is harmless). */
function fieldsNamed(set: SelectionSetNode | undefined, name: string, info: GraphQLResolveInfo, out: FieldNode[] = []): FieldNode[] {
  for (const s of set?.selections ?? []) {
    if (s.kind === Kind.FIELD) {
      if (s.name.value === name) out.push(s);
    } else if (s.kind === Kind.INLINE_FRAGMENT) fieldsNamed(s.selectionSet, name, info, out);
    else fieldsNamed(info.fragments[s.name.value]?.selectionSet, name, info, out);
  }
  return out;
}

/** What was worked out about a field's selection, per field of a (cached) document, with the field nodes it was worked out from. */
const worked = new WeakMap<FieldNode, Map<string, { nodes: readonly FieldNode[]; value: unknown }>>();

/**
 * `work()` about the field being resolved, remembered under `key` per field node of the document (Yoga's parser
 * cache hands every request of the same text the same document). A field merged with other occurrences of it
 * (a fragment spread in two places) can have other siblings on another path: remembered only for the same ones.
 */
export function perSelection<T>(info: GraphQLResolveInfo, key: string, work: () => T): T {
  const nodes = info.fieldNodes;
  let known = worked.get(nodes[0]!);
  if (!known) worked.set(nodes[0]!, (known = new Map()));
  const found = known.get(key);
  if (found && found.nodes.length === nodes.length && found.nodes.every((n, i) => n === nodes[i])) return found.value as T;
  const value = work();
  known.set(key, { nodes, value });
  return value;
}

/**
 * The `field` fields a connection's query asks of its nodes (`edges { node { field } }`): a list reads a relation
 * with its page only when it is asked (GraphQL `videos` and its `account`).
 */
export function nodesAsked(info: GraphQLResolveInfo, field: string): FieldNode[] {
  const edges = info.fieldNodes.flatMap((f) => fieldsNamed(f.selectionSet, "edges", info));
  const nodes = edges.flatMap((e) => fieldsNamed(e.selectionSet, "node", info));
  return nodes.flatMap((n) => fieldsNamed(n.selectionSet, field, info));
}

/**
 * Every field these fields' selections ask for, through fragments whatever their type condition, and
 * @include/@skip not read: a superset of the fields that will be resolved.
 */
export function selectedFields(fields: readonly FieldNode[], info: GraphQLResolveInfo): FieldNode[] {
  const out: FieldNode[] = [];
  const walk = (set: SelectionSetNode | undefined) => {
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FIELD) out.push(s);
      else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet);
      else walk(info.fragments[s.name.value]?.selectionSet);
    }
  };
  for (const f of fields) walk(f.selectionSet);
  return out;
}
