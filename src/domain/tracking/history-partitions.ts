/**
 * The partitions of the history at scrape resolution (video_metric_points, account_metric_points):
 * RANGE partitions on captured_at, one per UTC month (`<table>_pYYYY_MM`), and a DEFAULT partition
 * (`<table>_default`) that takes any point no monthly partition covers, so an insert never fails
 * (migration 20261126130000_partitioned_history; why monthly: docs/scaling.md, "Partitioned history").
 *
 * - Made ahead (`ensureHistoryPartitions`): the partitions from the month where the full-resolution
 *   window starts to next month, by the `history-partitions` job and when a worker starts
 *   (src/jobs/registry.ts). The SQL function metric_points_partition (in the migration) makes one,
 *   moving into it the rows of its month that the DEFAULT partition took meanwhile.
 * - Retention (`pruneHistory`, job `prune-history`): HISTORY_FULL_RESOLUTION_DAYS keeps today and the
 *   days - 1 before it at scrape resolution. A monthly partition whose every point is older than
 *   that window is dropped whole (no DELETE, no dead rows, no vacuum), after its days' rows are
 *   checked: the day's last point stays in video_snapshots / account_snapshots for good (the scrape
 *   store writes it with the point, ./scrape-store.ts; a missing one is written here first). A
 *   partition that still holds a day of the window stays: points past the window may stay on disk
 *   up to a month longer, never read (history reads start at the window, ./history.ts). Stray
 *   points in the DEFAULT partition past the window are deleted (it is empty while the job runs).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, sqlExec } from "../../infra/db.ts";
import { config } from "../../config.ts";
import { fullResolutionStart } from "./history.ts";

interface PointTable {
  points: string;
  daily: string;
  key: string;
  metrics: string;
}

const POINT_TABLES: PointTable[] = [
  {
    points: "video_metric_points",
    daily: "video_snapshots",
    key: "video_id",
    metrics: "view_count, like_count, comment_count, share_count, bookmark_count",
  },
  { points: "account_metric_points", daily: "account_snapshots", key: "account_id", metrics: "follower_count, total_views, video_count" },
];

/**
 * How long DDL on the history waits for its lock. Dropping a partition takes an ACCESS EXCLUSIVE lock
 * on the parent table: queued behind a long query it would stop every scrape and read that comes
 * after it, so it gives up instead and the next run tries again.
 */
const DDL_LOCK_TIMEOUT = "5s";

/** 00:00 UTC of the first day of the month of `at`, plus `months`. */
const monthStart = (at: Date, months = 0) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));

/** Runs DDL in a transaction that waits at most DDL_LOCK_TIMEOUT for its locks. */
async function ddl<T = unknown>(statement: Prisma.Sql): Promise<T[]> {
  return prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${DDL_LOCK_TIMEOUT}'`);
    return sql<T>(statement, { tx });
  });
}

/**
 * Makes (when missing) the monthly partitions of both point tables from the month where the
 * full-resolution window of `now` starts through next month, in one statement; returns the names of
 * the monthly partitions that cover them.
 * Idempotent, safe to run from several workers at once (the SQL function takes an advisory lock).
 */
export async function ensureHistoryPartitions(
  now = new Date(),
  days = config.history.fullResolutionDays,
): Promise<{ partitions: string[] }> {
  const months: Date[] = [];
  for (let m = monthStart(fullResolutionStart(now, days)); m <= monthStart(now, 1); m = monthStart(m, 1)) months.push(m);
  const tables = POINT_TABLES.map((t) => t.points);
  const rows = await ddl<{ name: string | null }>(
    Prisma.sql`SELECT metric_points_partition(t, m) AS name FROM unnest(${tables}::text[]) WITH ORDINALITY AS x(t, i), unnest(${months}::timestamptz[]) AS m ORDER BY i, m`,
  );
  // A month another partition covers (an older table attached whole, docs/scaling.md) has none of its own.
  return { partitions: rows.flatMap((r) => (r.name ? [r.name] : [])) };
}

/** The range partitions of a point table and their upper bounds (null: MAXVALUE), oldest first; not the DEFAULT one. */
export async function historyPartitions(points: string): Promise<{ name: string; upper: Date | null }[]> {
  return sql<{ name: string; upper: Date | null }>(Prisma.sql`
    SELECT c.relname AS name, substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \\(''([^'']+)''\\)')::timestamptz AS upper
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = ${points}::regclass AND pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT'
     ORDER BY upper NULLS LAST`);
}

/** Writes the missing day rows (the day's last point) of the points of `from` captured before `before`. */
function rollUp(t: PointTable, from: string, before: Date | null): Prisma.Sql {
  const [key, metrics] = [Prisma.raw(t.key), Prisma.raw(t.metrics)];
  return Prisma.sql`
    INSERT INTO ${Prisma.raw(t.daily)} (${key}, day, captured_at, source, ${metrics})
    SELECT DISTINCT ON (${key}, (captured_at AT TIME ZONE 'UTC')::date)
           ${key}, (captured_at AT TIME ZONE 'UTC')::date, captured_at, source, ${metrics}
      FROM ${Prisma.raw(`"${from}"`)} ${before ? Prisma.sql`WHERE captured_at < ${before}::timestamptz` : Prisma.empty}
     ORDER BY ${key}, (captured_at AT TIME ZONE 'UTC')::date, captured_at DESC
    ON CONFLICT (${key}, day) DO NOTHING`;
}

/**
 * Retention of the points at scrape resolution before `before` (the first instant of the
 * full-resolution window): drops each monthly partition that ends at or before it (its day rows
 * rolled up first), and deletes the DEFAULT partition's points before it the same way. Idempotent.
 */
export async function prunePointPartitions(before: Date): Promise<{ dropped: string[]; strays: number }> {
  const out = { dropped: [] as string[], strays: 0 };
  for (const t of POINT_TABLES) {
    for (const p of await historyPartitions(t.points)) {
      if (!p.upper || p.upper > before) continue;
      // Read-only on a month no scrape writes any more: no lock on the parent while it runs.
      await sqlExec(rollUp(t, p.name, null));
      await ddl(Prisma.sql`DROP TABLE IF EXISTS ${Prisma.raw(`"${p.name}"`)}`);
      out.dropped.push(p.name);
    }
    const strays = `${t.points}_default`;
    await sqlExec(rollUp(t, strays, before));
    out.strays += await sqlExec(Prisma.sql`DELETE FROM ${Prisma.raw(`"${strays}"`)} WHERE captured_at < ${before}::timestamptz`);
  }
  return out;
}

/** Job `prune-history`: retention by HISTORY_FULL_RESOLUTION_DAYS (the day's last point stays in the daily table). */
export function pruneHistory(now = new Date(), days = config.history.fullResolutionDays): Promise<{ dropped: string[]; strays: number }> {
  return prunePointPartitions(fullResolutionStart(now, days));
}
