/**
 * Partitioned history benchmark (issue 25, item 2): scrape insert rate and history read latency on
 * the partitioned video_metric_points at BENCH_PARTITIONS_POINTS points (default 100,000,000, the
 * issue's target), against today's unpartitioned shape at BENCH_PARTITIONS_BASELINE points (default
 * 10,000,000). Target: both no worse than the baseline.
 *
 * Both tables in one database, made by the real migrations:
 *   - `video_metric_points`: the partitioned table (migration 20261126130000_partitioned_history),
 *     its monthly partitions made by the same SQL function the workers call;
 *   - `video_metric_points_flat`: the shape before it (migration 20261124120000_metric_history_refresh:
 *     one table, the covering primary key, a BRIN index on captured_at, the foreign key to videos).
 * Each video has a point every hour over BENCH_PARTITIONS_DAYS days (60, so about three monthly
 * partitions; in steady state a 30-day window keeps two to three months), so a table of N points
 * holds N / (24 × days) videos; seeded hour by hour, in time order as scrapes write them (one video's
 * points are spread over the table), then VACUUM ANALYZE.
 *
 * Measured per table, statement alone (no HTTP: bench/history.ts measures the API over the same read),
 * BENCH_PARTITIONS_SECONDS each after a 2 s warm-up:
 *   - insert: the scrape store's point insert (INSERT ... ON CONFLICT (video_id, captured_at) DO
 *     NOTHING, src/domain/tracking/scrape-store.ts), one point of a random video at the current time,
 *     from 16 connections: points/s and latency;
 *   - read: the points part of a history read (src/domain/tracking/history.ts), 30 days hourly of a
 *     random video (720 points), from 32 connections: reads/s, p50, p99;
 * and the read's plan (EXPLAIN ANALYZE, BUFFERS) and the sizes.
 *
 * Do not run at scale on a shared machine: 100 million points take tens of GiB and about an hour to
 * seed. Run alone: `npx tsx bench/history-partitions.ts [--keep]`; a smoke run:
 * `BENCH_PARTITIONS_POINTS=200000 BENCH_PARTITIONS_BASELINE=50000 BENCH_PARTITIONS_SECONDS=2 npx tsx bench/history-partitions.ts`.
 * Writes the `history-partitions` section of bench/RESULTS.md. Uses (creates and drops) svc_bench_partitions.
 */
import { fileURLToPath } from "node:url";
import pg from "pg";
import { admin, createMigratedDatabase } from "./lib/db.js";
import { sqlLoad, type LoadResult } from "./lib/load.js";
import { writeSection } from "./lib/results.js";

const BENCH_DB = "svc_bench_partitions";
const POINTS = Number(process.env.BENCH_PARTITIONS_POINTS ?? 100_000_000);
const BASELINE = Number(process.env.BENCH_PARTITIONS_BASELINE ?? 10_000_000);
const DAYS = Number(process.env.BENCH_PARTITIONS_DAYS ?? 60);
const SECONDS = Number(process.env.BENCH_PARTITIONS_SECONDS ?? 10);
const INSERT_CONNECTIONS = 16;
const READ_CONNECTIONS = 32;
const HOURS = DAYS * 24;
const HOUR_MS = 3_600_000;
const KEEP = process.argv.includes("--keep");

/** The shape before migration 20261126130000 (as migration 20261124120000 made it). */
const FLAT_TABLE = `
  CREATE TABLE video_metric_points_flat (
    video_id UUID NOT NULL, captured_at TIMESTAMPTZ(3) NOT NULL, source TEXT NOT NULL,
    view_count BIGINT, like_count BIGINT, comment_count BIGINT, share_count BIGINT, bookmark_count BIGINT,
    CONSTRAINT video_metric_points_flat_pkey PRIMARY KEY (video_id, captured_at)
      INCLUDE (source, view_count, like_count, comment_count, share_count, bookmark_count),
    CONSTRAINT video_metric_points_flat_video_id_fkey FOREIGN KEY (video_id) REFERENCES videos(id) ON DELETE CASCADE ON UPDATE CASCADE
  );
  CREATE INDEX video_metric_points_flat_captured_brin ON video_metric_points_flat USING BRIN (captured_at)`;

const insertSql = (table: string) => `
  INSERT INTO ${table} (video_id, captured_at, source, view_count, like_count, comment_count, share_count, bookmark_count)
  VALUES ($1, $2, 'simulated', $3::int8, $3::int8 / 10, $3::int8 / 100, NULL, NULL)
  ON CONFLICT (video_id, captured_at) DO NOTHING`;

const readSql = (table: string) => `
  SELECT to_char(x.captured_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "capturedAt", x.view_count, x.like_count,
         x.comment_count, x.share_count, x.bookmark_count, x.source
    FROM ${table} x
   WHERE x.video_id = $1 AND x.captured_at >= $2::timestamptz AND x.captured_at < $3::timestamptz
   ORDER BY x.captured_at`;

interface Shape {
  table: string;
  points: number;
  videos: string[];
  seedSeconds: number;
}

/** Seeds `points` points into `table` for the first points / HOURS of `videoIds`, hour by hour up to `end`. */
async function seed(db: pg.Client, table: string, points: number, videoIds: string[], end: Date): Promise<Shape> {
  const started = Date.now();
  const videos = videoIds.slice(0, Math.max(1, Math.round(points / HOURS)));
  for (let h = HOURS; h >= 1; h--) {
    await db.query(
      `INSERT INTO ${table} (video_id, captured_at, source, view_count, like_count, comment_count, share_count, bookmark_count)
       SELECT v, $2::timestamptz + (i % 60) * interval '1 minute', 'simulated', i * $3::int, i * $3::int / 10, i, NULL, NULL
         FROM unnest($1::uuid[]) WITH ORDINALITY AS t(v, i)`,
      [videos, new Date(end.getTime() - h * HOUR_MS), HOURS - h + 1],
    );
    if (h % 240 === 0) console.log(`  ${table}: ${(((HOURS - h) / HOURS) * 100).toFixed(0)} % seeded`);
  }
  return { table, points: videos.length * HOURS, videos, seedSeconds: (Date.now() - started) / 1000 };
}

async function measure(pool: pg.Pool, s: Shape, end: Date): Promise<{ insert: LoadResult; read: LoadResult; plan: string; sizeBytes: number }> {
  const pick = (i: number) => s.videos[(i * 7919) % s.videos.length]!;
  // Inserts: the next instants after the seeded ones (each a new key), 1 ms apart per statement.
  let at = end.getTime() + 1000;
  const insert = () => sqlLoad(pool, INSERT_CONNECTIONS, SECONDS, (c, i) => c.query({ name: `insert-${s.table}`, text: insertSql(s.table), values: [pick(i), new Date(at++), i] }));
  const from = new Date(end.getTime() - 30 * 24 * HOUR_MS);
  const read = () => sqlLoad(pool, READ_CONNECTIONS, SECONDS, (c, i) => c.query({ name: `read-${s.table}`, text: readSql(s.table), values: [pick(i * 31 + 17), from, end] }));
  await sqlLoad(pool, READ_CONNECTIONS, 2, (c, i) => c.query({ name: `read-${s.table}`, text: readSql(s.table), values: [pick(i), from, end] }));
  const r = await read();
  await sqlLoad(pool, INSERT_CONNECTIONS, 2, (c, i) => c.query({ name: `insert-${s.table}`, text: insertSql(s.table), values: [pick(i), new Date(at++), i] }));
  const w = await insert();
  const explained = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) ${readSql(s.table)}`, [pick(3), from, end]);
  const plan = explained.rows.map((row) => `    ${row["QUERY PLAN"]}`).join("\n");
  const size = await pool.query(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::int8 AS n FROM pg_class c
      WHERE c.oid = $1::regclass OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = $1::regclass)`,
    [s.table],
  );
  return { insert: w, read: r, plan, sizeBytes: Number(size.rows[0].n) };
}

export async function runHistoryPartitionsBench(): Promise<void> {
  const url = await createMigratedDatabase(BENCH_DB);
  const db = new pg.Client({ connectionString: url });
  const pool = new pg.Pool({ connectionString: url, max: READ_CONNECTIONS });
  try {
    await db.connect();
    await db.query(FLAT_TABLE);
    const end = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS);
    const videoCount = Math.max(1, Math.round(Math.max(POINTS, BASELINE) / HOURS));
    const videoIds = (
      await db.query(
        `INSERT INTO videos (platform, platform_video_id, url) SELECT 'platformB', 'pb' || lpad(i::text, 9, '0'), 'https://www.youtube.com/watch?v=pb' || lpad(i::text, 9, '0')
           FROM generate_series(1, $1::int) AS i RETURNING id`,
        [videoCount],
      )
    ).rows.map((r) => r.id as string);
    // Every month of the seeded span and the next has its partition (as the workers make them ahead).
    await db.query(
      `SELECT metric_points_partition('video_metric_points', m) FROM generate_series($1::timestamptz, $2::timestamptz + interval '1 month', interval '1 month') AS m`,
      [new Date(end.getTime() - HOURS * HOUR_MS), end],
    );
    console.log(`seeding ${POINTS.toLocaleString("en")} partitioned points and ${BASELINE.toLocaleString("en")} unpartitioned ones (${videoCount} videos)`);
    const partitioned = await seed(db, "video_metric_points", POINTS, videoIds, end);
    const flat = await seed(db, "video_metric_points_flat", BASELINE, videoIds, end);
    await db.query("VACUUM ANALYZE");
    const partitionCount = Number((await db.query(`SELECT count(*) AS n FROM pg_inherits WHERE inhparent = 'video_metric_points'::regclass`)).rows[0].n);

    // The baseline first, then the partitioned table (the latter gets no warmer cache from the order).
    const base = await measure(pool, flat, end);
    const part = await measure(pool, partitioned, end);

    const gib = (b: number) => `${(b / 2 ** 30).toFixed(2)} GiB`;
    const row = (name: string, s: Shape, m: Awaited<ReturnType<typeof measure>>) =>
      `| ${name} | ${s.points.toLocaleString("en")} | ${s.videos.length.toLocaleString("en")} | ${m.insert.rps.toFixed(0)} | ${m.insert.p99} | ${m.read.rps.toFixed(0)} | ${m.read.p50} | ${m.read.p99} | ${gib(m.sizeBytes)} | ${s.seedSeconds.toFixed(0)} s |`;
    const verdict = (better: boolean) => (better ? "met" : "NOT met");
    const md = `## Partitioned history: scrape inserts and history reads at ${POINTS.toLocaleString("en")} points

Command: \`npx tsx bench/history-partitions.ts\` (BENCH_PARTITIONS_POINTS, BENCH_PARTITIONS_BASELINE, BENCH_PARTITIONS_DAYS,
BENCH_PARTITIONS_SECONDS). The partitioned \`video_metric_points\` (monthly partitions and a DEFAULT one, ${partitionCount} in all here)
against the unpartitioned shape it replaced, in one database; each video has a point every hour over ${DAYS} days, seeded hour by hour
(time order), then VACUUM ANALYZE. Statements alone from pg connections, ${SECONDS} s each after a 2 s warm-up: the scrape store's
point insert (one point of a random video, ${INSERT_CONNECTIONS} connections) and the points part of a 30-day hourly history read
(${READ_CONNECTIONS} connections, random videos, 720 points each).

| table | points | videos | inserts/s | insert p99 ms | reads/s | read p50 ms | read p99 ms | size | seeded in |
|---|---|---|---|---|---|---|---|---|---|
${row("unpartitioned (before)", flat, base)}
${row("partitioned (monthly)", partitioned, part)}

- Insert rate no worse than the baseline: ${verdict(part.insert.rps >= base.insert.rps * 0.95)} (${part.insert.rps.toFixed(0)} against ${base.insert.rps.toFixed(0)} points/s; within 5 %).
- History read p99 no worse than the baseline: ${verdict(part.read.p99 <= base.read.p99 * 1.05)} (${part.read.p99} against ${base.read.p99} ms; within 5 %).
- The read's plan, partitioned (EXPLAIN ANALYZE, BUFFERS):

${part.plan}

- The same read, unpartitioned:

${base.plan}`;
    console.log(md);
    await writeSection("history-partitions", md);
  } finally {
    await pool.end().catch(() => undefined);
    await db.end().catch(() => undefined);
    if (!KEEP) await admin(`DROP DATABASE IF EXISTS "${BENCH_DB}" WITH (FORCE)`).catch(() => undefined);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runHistoryPartitionsBench();
  process.exit(0);
}
