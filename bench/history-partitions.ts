/**
 * Partitioned history benchmark: scrape insert rate and history read latency on
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
 * Do not run at scale on a shared machine. At the target scale (100 M partitioned + 10 M unpartitioned points) it
 * needs about 30 GiB free on PostgreSQL's disk (the tables and their covering keys take about 260 bytes a point,
 * 28 GiB for both, plus WAL) and about an hour on a quiet 2-core machine (10 M points seeded in 250 s on a busy one;
 * the index of a month grows past memory at this scale, so allow up to two). Before seeding it checks the free
 * disk of PostgreSQL's data directory: when the points do not fit (with a 20 % margin) it seeds the largest number
 * that does, and says so in the results; BENCH_PARTITIONS_SEED_MINUTES bounds the seeding time the same way (the
 * videos are seeded in BENCH_PARTITIONS_BATCHES batches, each hour by hour; seeding stops after the batch that
 * crosses the bound, and the measurements use the videos seeded). The progress lines print the time left.
 * Both tables are measured after a CHECKPOINT. BENCH_PARTITIONS_SECTION names the RESULTS section (a like-for-like run,
 * both tables at one size: BENCH_PARTITIONS_POINTS=BENCH_PARTITIONS_BASELINE, kept beside the main one).
 * Run alone: `npx tsx bench/history-partitions.ts [--keep]`; a smoke run:
 * `BENCH_PARTITIONS_POINTS=2000000 BENCH_PARTITIONS_BASELINE=500000 BENCH_PARTITIONS_SECONDS=2 npx tsx bench/history-partitions.ts`.
 * Writes the `history-partitions` section of bench/RESULTS.md, with both reads' and both inserts' plans (EXPLAIN
 * ANALYZE, BUFFERS; the insert's in a rolled-back transaction) and the partitions' sizes. Uses (creates and drops)
 * svc_bench_partitions.
 */
import { statfsSync } from "node:fs";
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
const BATCHES = Math.max(1, Number(process.env.BENCH_PARTITIONS_BATCHES ?? 10));
const SEED_MINUTES = Number(process.env.BENCH_PARTITIONS_SEED_MINUTES ?? Infinity);
/** What a point takes on disk with its share of the covering key (measured at 10 M: 2.39 GiB partitioned, 0.26 GiB per 1 M flat). */
const BYTES_PER_POINT = 280;
const DISK_MARGIN = 1.2;
/** The section of bench/RESULTS.md written: BENCH_PARTITIONS_SECTION keeps a run of another scale beside the main one. */
const SECTION = process.env.BENCH_PARTITIONS_SECTION ?? "history-partitions";

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
  /** Why fewer points than asked were seeded (null: all of them). */
  cut: string | null;
}

const gib = (b: number) => `${(b / 2 ** 30).toFixed(2)} GiB`;
const minutes = (s: number) => `${(s / 60).toFixed(0)} min`;

/**
 * Seeds `points` points into `table` for the first points / HOURS of `videoIds`, up to `end`: the videos in
 * BATCHES batches, each hour by hour in time order (as scrapes write them: one video's points are spread
 * over the table). Stops after the batch that crosses `deadline`.
 */
async function seed(db: pg.Client, table: string, points: number, videoIds: string[], end: Date, deadline: number): Promise<Shape> {
  const started = Date.now();
  const videos = videoIds.slice(0, Math.max(1, Math.round(points / HOURS)));
  const size = Math.ceil(videos.length / BATCHES);
  const seeded: string[] = [];
  let cut: string | null = null;
  for (let b = 0; b * size < videos.length; b++) {
    const batch = videos.slice(b * size, (b + 1) * size);
    for (let h = HOURS; h >= 1; h--) {
      await db.query(
        `INSERT INTO ${table} (video_id, captured_at, source, view_count, like_count, comment_count, share_count, bookmark_count)
         SELECT v, $2::timestamptz + (i % 60) * interval '1 minute', 'simulated', i * $3::int, i * $3::int / 10, i, NULL, NULL
           FROM unnest($1::uuid[]) WITH ORDINALITY AS t(v, i)`,
        [batch, new Date(end.getTime() - h * HOUR_MS), HOURS - h + 1],
      );
    }
    seeded.push(...batch);
    const elapsed = (Date.now() - started) / 1000;
    const left = (elapsed / seeded.length) * (videos.length - seeded.length);
    console.log(
      `  ${table}: ${((seeded.length / videos.length) * 100).toFixed(0)} % seeded (${(seeded.length * HOURS).toLocaleString("en")} points) in ${minutes(elapsed)}, about ${minutes(left)} left`,
    );
    if (Date.now() > deadline && seeded.length < videos.length) {
      cut = `seeding stopped at BENCH_PARTITIONS_SEED_MINUTES (${SEED_MINUTES}) after ${(seeded.length * HOURS).toLocaleString("en")} of ${(videos.length * HOURS).toLocaleString("en")} points`;
      console.log(`  ${cut}`);
      break;
    }
  }
  return { table, points: seeded.length * HOURS, videos: seeded, seedSeconds: (Date.now() - started) / 1000, cut };
}

/** Free bytes on the disk of PostgreSQL's data directory (null when this process cannot see it). */
async function freeDisk(db: pg.Client): Promise<number | null> {
  try {
    const dir = (await db.query("SHOW data_directory")).rows[0].data_directory as string;
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize;
  } catch {
    return null;
  }
}

/** The plan of one scrape insert into `table` (EXPLAIN ANALYZE in a transaction rolled back: nothing stays). */
async function insertPlan(pool: pg.Pool, s: Shape, at: Date): Promise<string> {
  const c = await pool.connect();
  try {
    await c.query("BEGIN");
    const explained = await c.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) ${insertSql(s.table)}`, [s.videos[0], at, 1]);
    return explained.rows.map((row) => `    ${row["QUERY PLAN"]}`).join("\n");
  } finally {
    await c.query("ROLLBACK").catch(() => undefined);
    c.release();
  }
}

async function measure(
  pool: pg.Pool,
  s: Shape,
  end: Date,
): Promise<{ insert: LoadResult; read: LoadResult; plan: string; insertPlan: string; sizeBytes: number }> {
  const pick = (i: number) => s.videos[(i * 7919) % s.videos.length]!;
  // Inserts: the next instants after the seeded ones (each a new key), 1 ms apart per statement.
  let at = end.getTime() + 1000;
  const insert = () =>
    sqlLoad(pool, INSERT_CONNECTIONS, SECONDS, (c, i) =>
      c.query({ name: `insert-${s.table}`, text: insertSql(s.table), values: [pick(i), new Date(at++), i] }),
    );
  const from = new Date(end.getTime() - 30 * 24 * HOUR_MS);
  const read = () =>
    sqlLoad(pool, READ_CONNECTIONS, SECONDS, (c, i) =>
      c.query({ name: `read-${s.table}`, text: readSql(s.table), values: [pick(i * 31 + 17), from, end] }),
    );
  await sqlLoad(pool, READ_CONNECTIONS, 2, (c, i) =>
    c.query({ name: `read-${s.table}`, text: readSql(s.table), values: [pick(i), from, end] }),
  );
  const r = await read();
  await sqlLoad(pool, INSERT_CONNECTIONS, 2, (c, i) =>
    c.query({ name: `insert-${s.table}`, text: insertSql(s.table), values: [pick(i), new Date(at++), i] }),
  );
  const w = await insert();
  const explained = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) ${readSql(s.table)}`, [pick(3), from, end]);
  const plan = explained.rows.map((row) => `    ${row["QUERY PLAN"]}`).join("\n");
  const planOfInsert = await insertPlan(pool, s, new Date(at++));
  const size = await pool.query(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::int8 AS n FROM pg_class c
      WHERE c.oid = $1::regclass OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = $1::regclass)`,
    [s.table],
  );
  return { insert: w, read: r, plan, insertPlan: planOfInsert, sizeBytes: Number(size.rows[0].n) };
}

export async function runHistoryPartitionsBench(): Promise<void> {
  const url = await createMigratedDatabase(BENCH_DB);
  const db = new pg.Client({ connectionString: url });
  const pool = new pg.Pool({ connectionString: url, max: READ_CONNECTIONS });
  try {
    await db.connect();
    await db.query(FLAT_TABLE);
    const end = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS);
    // The disk: the points asked for, or the most that fit (said in the results).
    const free = await freeDisk(db);
    const needed = (POINTS + BASELINE) * BYTES_PER_POINT * DISK_MARGIN;
    let points = POINTS;
    let diskNote =
      free === null
        ? "free disk not checked (PostgreSQL's data directory is not visible to this process)"
        : `${gib(free)} free on PostgreSQL's disk, about ${gib(needed)} needed`;
    if (free !== null && needed > free) {
      points = Math.max(HOURS, Math.floor(free / (BYTES_PER_POINT * DISK_MARGIN)) - BASELINE);
      diskNote = `**scaled down**: ${POINTS.toLocaleString("en")} points asked, ${gib(free)} free on PostgreSQL's disk, so ${points.toLocaleString("en")} (what fits with a ${((DISK_MARGIN - 1) * 100).toFixed(0)} % margin)`;
    }
    console.log(diskNote);
    const videoCount = Math.max(1, Math.round(Math.max(points, BASELINE) / HOURS));
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
    console.log(
      `seeding ${points.toLocaleString("en")} partitioned points and ${BASELINE.toLocaleString("en")} unpartitioned ones (${videoCount} videos)`,
    );
    const deadline = Date.now() + SEED_MINUTES * 60_000;
    // The baseline first (it is small), so the seeding time bound falls on the partitioned table.
    const flat = await seed(db, "video_metric_points_flat", BASELINE, videoIds, end, Infinity);
    const partitioned = await seed(db, "video_metric_points", points, videoIds, end, deadline);
    await db.query("VACUUM ANALYZE");
    const partitionSizes = (
      await db.query(
        `SELECT c.relname AS name, pg_total_relation_size(c.oid)::int8 AS bytes, c.reltuples::int8 AS rows
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'video_metric_points'::regclass ORDER BY c.relname`,
      )
    ).rows as { name: string; bytes: string; rows: string }[];
    const partitionCount = partitionSizes.length;

    // The baseline first, then the partitioned table (the latter gets no warmer cache from the order). Each after a
    // CHECKPOINT: without it the seeding's dirty pages were written during the other's measurement (reads showed
    // `written=` buffers, the partitioned table's reads paid for its own seeding).
    await db.query("CHECKPOINT");
    const base = await measure(pool, flat, end);
    await db.query("CHECKPOINT");
    const part = await measure(pool, partitioned, end);

    const row = (name: string, s: Shape, m: Awaited<ReturnType<typeof measure>>) =>
      `| ${name} | ${s.points.toLocaleString("en")} | ${s.videos.length.toLocaleString("en")} | ${m.insert.rps.toFixed(0)} | ${m.insert.p99} | ${m.read.rps.toFixed(0)} | ${m.read.p50} | ${m.read.p99} | ${gib(m.sizeBytes)} | ${s.seedSeconds.toFixed(0)} s |`;
    const verdict = (better: boolean) => (better ? "met" : "NOT met");
    const md = `## Partitioned history: scrape inserts and history reads at ${partitioned.points.toLocaleString("en")} points

Command: \`npx tsx bench/history-partitions.ts\` (BENCH_PARTITIONS_POINTS, BENCH_PARTITIONS_BASELINE, BENCH_PARTITIONS_DAYS,
BENCH_PARTITIONS_SECONDS). The partitioned \`video_metric_points\` (monthly partitions and a DEFAULT one, ${partitionCount} in all here)
against the unpartitioned shape it replaced, in one database; each video has a point every hour over ${DAYS} days, seeded hour by hour
(time order), then VACUUM ANALYZE. Statements alone from pg connections, ${SECONDS} s each after a 2 s warm-up: the scrape store's
point insert (one point of a random video, ${INSERT_CONNECTIONS} connections) and the points part of a 30-day hourly history read
(${READ_CONNECTIONS} connections, random videos, 720 points each). Disk: ${diskNote}.${partitioned.cut ? ` Partitioned table: ${partitioned.cut}.` : ""}

| table | points | videos | inserts/s | insert p99 ms | reads/s | read p50 ms | read p99 ms | size | seeded in |
|---|---|---|---|---|---|---|---|---|---|
${row("unpartitioned (before)", flat, base)}
${row("partitioned (monthly)", partitioned, part)}

- Insert rate no worse than the baseline: ${verdict(part.insert.rps >= base.insert.rps * 0.95)} (${part.insert.rps.toFixed(0)} against ${base.insert.rps.toFixed(0)} points/s; within 5 %).
- History read p99 no worse than the baseline: ${verdict(part.read.p99 <= base.read.p99 * 1.05)} (${part.read.p99} against ${base.read.p99} ms; within 5 %).
- The read's plan, partitioned (EXPLAIN ANALYZE, BUFFERS):

${part.plan}

- The same read, unpartitioned:

${base.plan}

- One scrape insert, partitioned (EXPLAIN ANALYZE, BUFFERS, rolled back):

${part.insertPlan}

- The same insert, unpartitioned:

${base.insertPlan}

- The partitions (size with indexes, estimated rows):

${partitionSizes.map((p) => `    ${p.name}: ${gib(Number(p.bytes))}, ${Number(p.rows).toLocaleString("en")} rows`).join("\n")}`;
    console.log(md);
    await writeSection(SECTION, md);
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
