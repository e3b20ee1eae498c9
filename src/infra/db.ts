/**
 * PostgreSQL: the process's Prisma client and the node-postgres pool under it, created once, and
 * the one helper for raw SQL.
 *
 * The data-access rule (followed everywhere in src/domain; docs/architecture.md):
 *
 * 1. Prisma's model API (`prisma.folder.create`, `tx.creditLedgerEntry.create` …) for writes and
 *    simple reads by key outside the hot paths, and `prisma.$transaction` for every transaction
 *    that spans statements: typed inputs catch mistakes, and transactions compose (the credits
 *    functions join their caller's `tx`).
 * 2. Raw SQL, through `sql()` / `sqlExec()` below and nothing else, for what the model API cannot
 *    say or says slowly: every read that returns rows to a client (pages, aggregates, rankings,
 *    joins), conditional upserts and compare-and-set moves, locks (`FOR UPDATE`), and every
 *    statement on a hot path (Prisma compiles each query in JavaScript; bench/tracking.ts and
 *    bench/analysis.ts measured it as most of the request's CPU). Statements are composed with
 *    `Prisma.sql`, so values are always parameters, never spliced into the text.
 * 3. One way to map rows: the SQL names its output columns in camelCase (`v.view_count AS
 *    "viewCount"`), so a row is already the domain's shape; BIGINT arrives as a JS number (exact to
 *    2^53, beyond any count a platform reports) whether the statement ran on the pool or inside a
 *    Prisma transaction. No hand-written snake_case mappers.
 */
import { createHash } from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { Prisma, PrismaClient } from "../generated/prisma/client.ts";
import { config } from "../config.ts";
import { dependencyAvailable, probeDependency } from "./logger.ts";

export type Db = PrismaClient;
/** The client inside `prisma.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

const INT8 = 20;
const INT8_ARRAY = 1016;
const parseInt8 = (v: string) => Number(v);
const parseInt8Array = pg.types.getTypeParser(INT8_ARRAY as Parameters<typeof pg.types.getTypeParser>[0]);

const TIMESTAMPTZ = 1184;
const parseTimestamptzText = pg.types.getTypeParser(TIMESTAMPTZ as Parameters<typeof pg.types.getTypeParser>[0]) as (v: string) => Date;
const twoDigits = (v: string, i: number) => (v.charCodeAt(i) - 48) * 10 + v.charCodeAt(i + 1) - 48;

/**
 * A TIMESTAMPTZ as PostgreSQL writes it in a UTC session ("2026-11-24 10:07:23.480123+00"), read by
 * position: node-postgres's general parser (postgres-date, a regular expression) was about 5 % of a
 * list request's CPU in the ladder's profile (`npm run bench:profile -- gql`), five times this.
 * Milliseconds keep the fraction's first three digits, as postgres-date does (test/foundation/db-types.test.ts
 * compares both); any other form (another offset, years before 100, infinity) goes to postgres-date. The
 * fast form needs the session's TimeZone to be UTC (PostgreSQL's `timezone` setting; Debian's default is the
 * system's): on another, every value takes the general parser, correct but without the saving.
 */
export function parseTimestamptz(v: string): Date {
  const n = v.length;
  if (
    n >= 22 &&
    v.charCodeAt(10) === 32 &&
    v.charCodeAt(4) === 45 &&
    v.charCodeAt(n - 3) === 43 &&
    v.charCodeAt(n - 2) === 48 &&
    v.charCodeAt(n - 1) === 48
  ) {
    const year = twoDigits(v, 0) * 100 + twoDigits(v, 2);
    if (year >= 100 && (n === 22 || v.charCodeAt(19) === 46)) {
      let ms = 0;
      for (let i = 20, k = 0; k < 3; i++, k++) ms = ms * 10 + (i < n - 3 ? v.charCodeAt(i) - 48 : 0);
      const time = Date.UTC(year, twoDigits(v, 5) - 1, twoDigits(v, 8), twoDigits(v, 11), twoDigits(v, 14), twoDigits(v, 17), ms);
      const fraction = n === 22 ? "000" : `${v.slice(20, Math.min(23, n - 3))}00`.slice(0, 3);
      return new Timestamp(time, `${v.slice(0, 10)}T${v.slice(11, 19)}.${fraction}Z`);
    }
  }
  return parseTimestamptzText(v);
}

/**
 * A TIMESTAMPTZ read from PostgreSQL that answers `toISOString` (and so JSON, REST's records and
 * GraphQL's DateTime) with the text it was read from, rearranged, instead of printing the instant
 * again: Date's own toISOString was about twice the cost of reading the value (a list page has 80
 * of them). A Date in every other respect; changed by a setter, it prints itself as any Date does.
 */
export class Timestamp extends Date {
  readonly #time: number;
  readonly #iso: string;
  constructor(time: number, iso: string) {
    super(time);
    this.#time = time;
    this.#iso = iso;
  }
  override toISOString(): string {
    return this.getTime() === this.#time ? this.#iso : super.toISOString();
  }
  override toJSON(): string {
    return this.toISOString();
  }
}

/**
 * Type parsers of the pool's own queries (Prisma passes its own per query, so its BigInt mapping is
 * untouched): BIGINT → number, TIMESTAMPTZ read by position (`parseTimestamptz`), everything else node-postgres's defaults.
 */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === INT8) return parseInt8;
    if (oid === TIMESTAMPTZ && format !== "binary") return parseTimestamptz;
    if (oid === INT8_ARRAY) return (v: string) => (parseInt8Array(v) as string[]).map((x) => (x === null ? null : Number(x)));
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig["getTypeParser"],
};

/**
 * Bounded waits (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_QUERY_TIMEOUT_MS): a
 * connection not made in time, a statement the server cancels (`statement_timeout`), and a statement whose
 * answer does not come back (`query_timeout`: a stalled server cannot cancel anything) fail instead of holding
 * the request; the HTTP layer answers them 503 (src/http/errors.ts), a job fails retryably. A connection whose
 * query timed out is discarded by the pool (node-postgres releases it with the error).
 */
const bounds = () => {
  const t = config.timeouts;
  return {
    ...(t.databaseConnectMs ? { connectionTimeoutMillis: t.databaseConnectMs } : {}),
    ...(t.databaseStatementMs ? { statement_timeout: t.databaseStatementMs } : {}),
    ...(t.databaseQueryMs ? { query_timeout: t.databaseQueryMs } : {}),
  };
};

function createPrisma(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 20, idleTimeoutMillis: 30_000, types, ...bounds() });
  pool.on("error", () => undefined); // idle-client errors surface on the next query instead
  // A new connection made: PostgreSQL answers (ends an outage the requests or jobs saw; src/infra/logger.ts).
  pool.on("connect", () => dependencyAvailable("postgres"));
  // Credit operations serialise on the workspace row lock; give queued transactions time to wait.
  const client = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: { maxWait: 10_000, timeout: 20_000 } });
  return { pool, client };
}

const created = createPrisma(config.databaseUrl);

export const prisma: Db = created.client;
/** The pool under `prisma`: raw statements go through `sql()`, not through this directly. */
export const pgPool = created.pool;
probeDependency("postgres", () => pgPool.query("SELECT 1"));

export interface SqlOptions {
  /** Run inside this Prisma transaction (same connection, same snapshot and locks). */
  tx?: Tx;
  /** Run on another pool than the service's (a benchmark's or a test's own database). */
  pool?: pg.Pool;
  /**
   * Run as a named prepared statement (the hot paths): each pooled connection parses and plans the
   * text once. The name is derived from the text, so statements whose text varies (a keyset
   * predicate present or not) are simply different statements.
   */
  prepare?: boolean;
}

const statementNames = new Map<string, string>();
/** A stable name per statement text (PostgreSQL's limit on names is 63 bytes). */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `s_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
    if (statementNames.size < 10_000) statementNames.set(text, name);
  }
  return name;
}

/** BIGINT values of a row read through Prisma (BigInt) become numbers, as on the pool. */
function normalise<T>(rows: Record<string, unknown>[]): T[] {
  for (const row of rows) {
    for (const key in row) {
      const v = row[key];
      if (typeof v === "bigint") row[key] = Number(v);
    }
  }
  return rows as T[];
}

/** Runs a statement and returns its rows (columns named by the SQL, camelCase). */
export async function sql<T>(query: Prisma.Sql, opts: SqlOptions = {}): Promise<T[]> {
  if (opts.tx) return normalise<T>(await opts.tx.$queryRaw<Record<string, unknown>[]>(query));
  // node-postgres sends a bigint parameter as its decimal text, which the casts in the statements expect.
  const values = query.values as unknown[];
  const result = await (opts.pool ?? pgPool).query(
    opts.prepare ? { name: statementName(query.text), text: query.text, values } : { text: query.text, values },
  );
  return result.rows as T[];
}

/** Runs a statement that returns no rows; answers how many rows it changed. */
export async function sqlExec(query: Prisma.Sql, opts: SqlOptions = {}): Promise<number> {
  if (opts.tx) return opts.tx.$executeRaw(query);
  const result = await pgPool.query(query.text, query.values as unknown[]);
  return result.rowCount ?? 0;
}

export { Prisma };

export async function closeDb(): Promise<void> {
  await prisma.$disconnect();
  await pgPool.end().catch(() => undefined);
}
