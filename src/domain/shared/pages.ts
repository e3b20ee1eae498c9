/**
 * Pages of a list, the one rule for every list of the service: an ORDER BY whose last key is
 * unique (so the order is total and stable), and either an offset page (REST's `limit`/`offset`)
 * or a keyset window (GraphQL cursor connections: `first`/`after`, `last`/`before`).
 *
 * A cursor is the position of a row in its list: the values of the list's sort keys for that row,
 * JSON in base64url. A window's predicate selects the rows strictly after (or before) that
 * position, so a cursor stays valid when rows are inserted or removed before it (keyset paging,
 * not offsets). Cursors are opaque to clients; a malformed one is a VALIDATION_ERROR.
 *
 * Keys that may be null sort last in both directions (a COALESCE to a sentinel that sorts after
 * every value), like the listings' documented `NULLS LAST`.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { validationError } from "./errors.ts";
import { unstorableReason } from "./unstorable.ts";

export type KeyType = "timestamptz" | "uuid" | "float8" | "int8" | "int4" | "text" | "date";

export interface SortKey<Row> {
  /** SQL expression of the key (fixed text from code, never user input). */
  sql: string;
  type: KeyType;
  desc?: boolean;
  /** The key may be null: nulls come last in both directions. */
  nullsLast?: boolean;
  /** The key's value on a row read from this list (for its cursor). */
  value: (row: Row) => unknown;
}

/** A list's order: keys from most to least significant; the last must be unique. */
export type Order<Row> = SortKey<Row>[];

/** REST's page. */
export interface OffsetPage {
  limit: number;
  offset: number;
}

/**
 * A keyset window, as the GraphQL connection helper asks for it: `limit` rows after `after`
 * and/or before `before`; `inverted` reads from the end (for `last`), the caller reverses them.
 */
export interface CursorWindow {
  after?: string;
  before?: string;
  limit: number;
  inverted: boolean;
}

export type PageRequest = OffsetPage | CursorWindow;

/** A page of a list with the list's total (every `list…` read that answers both). */
export interface Page<T> {
  items: T[];
  total: number;
}

/** The directions of a list's order (`order`, `sort_order`). */
export const SORT_ORDERS = ["asc", "desc"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

const isOffset = (p: PageRequest): p is OffsetPage => "offset" in p;

/** Sentinels that sort after every real value in each direction (NULLS LAST either way). */
const LOWEST: Record<KeyType, string> = {
  timestamptz: "'-infinity'::timestamptz",
  date: "'-infinity'::date",
  float8: "'-Infinity'::float8",
  int8: "(-9223372036854775808)::int8",
  int4: "(-2147483648)::int4",
  uuid: "'00000000-0000-0000-0000-000000000000'::uuid",
  text: "''::text",
};
const HIGHEST: Record<KeyType, string> = {
  timestamptz: "'infinity'::timestamptz",
  date: "'infinity'::date",
  float8: "'Infinity'::float8",
  int8: "9223372036854775807::int8",
  int4: "2147483647::int4",
  uuid: "'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid",
  text: "chr(1114111)",
};

function sentinel(key: SortKey<unknown>): string {
  return key.desc ? LOWEST[key.type] : HIGHEST[key.type];
}

/** The key as it is compared and sorted (nulls replaced by the sentinel). */
function keyExpr(key: SortKey<unknown>): Prisma.Sql {
  return Prisma.raw(key.nullsLast ? `COALESCE(${key.sql}, ${sentinel(key)})` : key.sql);
}

/** A cursor value as a typed SQL parameter, null mapped to the same sentinel. */
function keyParam(key: SortKey<unknown>, value: unknown): Prisma.Sql {
  const param = Prisma.sql`${value}::${Prisma.raw(key.type)}`;
  return key.nullsLast ? Prisma.sql`COALESCE(${param}, ${Prisma.raw(sentinel(key))})` : param;
}

/** `ORDER BY …` of the list (reversed for an inverted window). */
export function orderBySql<Row>(order: Order<Row>, inverted = false): Prisma.Sql {
  const parts = (order as Order<unknown>).map((k) => Prisma.sql`${keyExpr(k)} ${Prisma.raw(!!k.desc !== inverted ? "DESC" : "ASC")}`);
  return Prisma.sql`ORDER BY ${Prisma.join(parts, ", ")}`;
}

function toJson(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "bigint") return v.toString();
  return v ?? null;
}

function encodeCursor(values: unknown[]): string {
  return Buffer.from(JSON.stringify(values.map(toJson)), "utf8").toString("base64url");
}

/** The cursor of `row` in a list ordered by `order`. */
export function cursorOf<Row>(order: Order<Row>, row: Row): string {
  return encodeCursor(order.map((k) => k.value(row)));
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT_RANGE: Record<"int4" | "int8", [bigint, bigint]> = {
  int4: [-(2n ** 31n), 2n ** 31n - 1n],
  int8: [-(2n ** 63n), 2n ** 63n - 1n],
};
/** A day or an instant as cursors write them (ISO 8601, UTC or with an offset). */
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;

/** An integer of the key's SQL type: a JSON number or decimal text, within the type's range (an int8 past 2^63 failed in PostgreSQL). */
function fitsInteger(type: "int4" | "int8", v: unknown): boolean {
  let n: bigint;
  if (typeof v === "number" && Number.isSafeInteger(v)) n = BigInt(v);
  else if (typeof v === "string" && /^-?\d{1,19}$/.test(v)) n = BigInt(v);
  else return false;
  const [min, max] = INT_RANGE[type];
  return n >= min && n <= max;
}

/** A calendar day that exists (not 2024-02-30), in years 1 to 9999 (PostgreSQL has no year 0), with a valid time of day. */
function fitsDate(v: unknown): boolean {
  if (typeof v !== "string") return false;
  const m = DATE_TEXT.exec(v);
  if (!m) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m
    .slice(1, 7)
    .map((x) => (x === undefined ? undefined : Number(x))) as number[];
  if (year! < 1 || month! < 1 || month! > 12 || day! < 1 || hour > 23 || minute > 59 || second > 59) return false;
  const d = new Date(Date.UTC(year!, month! - 1, day!));
  return d.getUTCDate() === day && d.getUTCMonth() === month! - 1;
}

/**
 * Whether a cursor value can be its key's SQL type, so that a cursor of another list (one list's
 * orders differ by key types: GET /videos' sorts) or a forged one is a VALIDATION_ERROR, never a
 * failed cast in PostgreSQL: values are checked as values (a day that exists, an integer in its
 * type's range, text PostgreSQL can store), not only by their shape.
 */
function fitsKey(type: KeyType, v: unknown): boolean {
  switch (type) {
    case "int8":
    case "int4":
      return fitsInteger(type, v);
    case "float8":
      return typeof v === "number" && Number.isFinite(v);
    case "uuid":
      return typeof v === "string" && UUID_TEXT.test(v);
    case "timestamptz":
    case "date":
      return fitsDate(v);
    case "text":
      return typeof v === "string" && unstorableReason(v) === null;
  }
}

function decodeCursor(order: Order<unknown>, cursor: string, arg: string): unknown[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    values = undefined;
  }
  const ok =
    Array.isArray(values) &&
    values.length === order.length &&
    values.every((v, i) => (v === null ? order[i]!.nullsLast === true : fitsKey(order[i]!.type, v)));
  if (!ok) throw validationError(`${arg} is not a cursor of this list.`, [{ path: arg, message: "not a cursor of this list" }]);
  return values as unknown[];
}

/**
 * Rows strictly past the cursor in the direction `forward` of the list's order: the lexicographic
 * comparison of the keys, with a bound on the first key first (so an index on it seeks instead of
 * scanning from the start).
 */
function pastCursor(order: Order<unknown>, values: unknown[], forward: boolean): Prisma.Sql {
  const op = (k: SortKey<unknown>, strict: boolean) => Prisma.raw(`${!!k.desc === forward ? "<" : ">"}${strict ? "" : "="}`);
  const first = order[0]!;
  const bound = Prisma.sql`${keyExpr(first)} ${op(first, false)} ${keyParam(first, values[0])}`;
  const alternatives = order.map((k, i) => {
    const equal = order.slice(0, i).map((e, j) => Prisma.sql`${keyExpr(e)} = ${keyParam(e, values[j])}`);
    return Prisma.join([...equal, Prisma.sql`${keyExpr(k)} ${op(k, true)} ${keyParam(k, values[i])}`], " AND ");
  });
  return Prisma.sql`(${bound} AND (${Prisma.join(
    alternatives.map((a) => Prisma.sql`(${a})`),
    " OR ",
  )}))`;
}

export interface PageSql {
  /** `AND …` predicates to append to the list's WHERE (Prisma.empty for offset pages). */
  where: Prisma.Sql;
  orderBy: Prisma.Sql;
  /** `LIMIT … OFFSET …` */
  limit: Prisma.Sql;
}

/** The SQL pieces of one page of a list. */
export function pageSql<Row>(order: Order<Row>, page: PageRequest): PageSql {
  if (isOffset(page)) {
    return { where: Prisma.empty, orderBy: orderBySql(order), limit: Prisma.sql`LIMIT ${page.limit} OFFSET ${page.offset}` };
  }
  const predicates: Prisma.Sql[] = [];
  const o = order as Order<unknown>;
  if (page.after) predicates.push(pastCursor(o, decodeCursor(o, page.after, "after"), true));
  if (page.before) predicates.push(pastCursor(o, decodeCursor(o, page.before, "before"), false));
  return {
    where: predicates.length ? Prisma.sql`AND ${Prisma.join(predicates, " AND ")}` : Prisma.empty,
    orderBy: orderBySql(order, page.inverted),
    limit: Prisma.sql`LIMIT ${page.limit}`,
  };
}

/** A list's statement parts for `pageAndTotal`: `SELECT columns FROM from WHERE where`, and its size (`count`, a whole statement). */
export interface CountedList {
  columns: Prisma.Sql;
  from: Prisma.Sql;
  where: Prisma.Sql;
  count: Prisma.Sql;
  /** Other counts the answer carries beside the total (the unread notifications), each a whole statement, read in the same one. */
  alsoCount?: Record<string, Prisma.Sql>;
}

/**
 * A page of a list and the list's size from one statement, so from one snapshot: the total counts the list the page
 * was read from, even while rows are being written (as two statements, a row written between them made the total
 * disagree with the rows: an audit entry recorded after its answer, a charge). Past the end, the count alone.
 */
export async function pageAndTotal<Row>(
  order: Order<Row>,
  page: PageRequest,
  list: CountedList,
): Promise<{ items: Row[]; total: number; also: Record<string, number> }> {
  const p = pageSql(order, page);
  const names = Object.keys(list.alsoCount ?? {});
  // The counts as columns: `(…) AS "pageTotal"`, then `(…) AS "also0"` … (names of our own, never the caller's text).
  const counts = Prisma.join(
    [
      Prisma.sql`(${list.count}) AS "pageTotal"`,
      ...names.map((name, i) => Prisma.sql`(${list.alsoCount![name]!}) AS ${Prisma.raw(`"also${i}"`)}`),
    ],
    ", ",
  );
  const read = await sql<Record<string, unknown>>(
    Prisma.sql`SELECT ${list.columns}, ${counts} FROM ${list.from} WHERE ${list.where} ${p.where} ${p.orderBy} ${p.limit}`,
  );
  // An empty page carries no counts. They are read with the page again, in one statement: counted alone, a row
  // written since the first statement made a total of 1 beside an empty first page (test/mail/mail.test.ts, once in
  // CI). The page is numbered in its order (`pageRow`, null when it is still empty); this path is rare (past the end,
  // an empty list), so the window function's cost does not matter.
  const rows =
    read.length > 0
      ? read
      : await sql<Record<string, unknown>>(
          Prisma.sql`SELECT ${counts}, page.* FROM (SELECT 1) AS one LEFT JOIN LATERAL (SELECT ${list.columns}, row_number() OVER (${p.orderBy}) AS "pageRow" FROM ${list.from} WHERE ${list.where} ${p.where} ${p.orderBy} ${p.limit}) AS page ON true ORDER BY page."pageRow"`,
        );
  const first = rows[0]!;
  const also = Object.fromEntries(names.map((name, i) => [name, first[`also${i}`] as number]));
  const items = rows
    .filter((row) => row.pageRow !== null)
    .map((row) => {
      const { pageTotal: _total, pageRow: _row, ...rest } = row;
      for (let i = 0; i < names.length; i++) delete rest[`also${i}`];
      return rest as unknown as Row;
    });
  return { items, total: first.pageTotal as number, also };
}

/**
 * The window of row numbers of a page when rows are numbered per group with `row_number() OVER
 * (PARTITION BY … ORDER BY …)` (a page of several parents' children in one statement).
 */
export function rowNumberRange(page: PageRequest): { from: number; to: number } {
  return isOffset(page) ? { from: page.offset + 1, to: page.offset + page.limit } : { from: 1, to: page.limit };
}
