/**
 * Metric history benchmark.
 *
 * 10,000 tracked videos (BENCH_HISTORY_VIDEOS), each with 30 days of hourly points (720, in
 * video_metric_points) and a year of daily points (365 rows of video_snapshots: the last point of
 * each day, so 335 days before the window and 30 in it), seeded in SQL in time order (as scrapes
 * write them: one video's points are spread over the table, not side by side), then VACUUM ANALYZE.
 *
 * Measured at 32 connections (autocannon in its own process), BENCH_HISTORY_SECONDS per measurement
 * after a 2 s warm-up, random videos:
 *   - `GET /api/v1/videos/{id}/history?interval=hour` (the default 30 days: 720 points) and
 *     `…?interval=day&start_date=<a year ago>&end_date=<today>` (365 points), served by the real API
 *     entry point (src/main/api.ts, VALIDATE_RESPONSES=false, a rate limit too high to refuse);
 *   - next to two floors in the same run: a bare node:http + pg server answering the same JSON
 *     (checked identical) with one hand-written statement, and that statement alone (32 pg
 *     connections, no HTTP), the raw SQL floor.
 * Target: p99 under 20 ms for the API.
 * And the storage: table and index sizes of the points and of the daily rows, per video-year (the
 * window's points are what stays in steady state; daily rows accumulate 365 a year).
 *
 * Run alone: `npx tsx bench/history.ts [--keep]` (BENCH_HISTORY_VIDEOS, BENCH_HISTORY_SECONDS scale it);
 * writes the `history` section of bench/RESULTS.md. Uses (creates and drops) svc_bench_history.
 */
import http from "node:http";
import os from "node:os";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { admin, benchServiceEnv, closeServiceConnections, createMigratedDatabase, dropRedisKeys, urlFor } from "./lib/db.js";
import { cpuMs, load, sqlLoad, startChild, stopChildren, type LoadResult } from "./lib/load.js";
import { writeSection } from "./lib/results.js";

const BENCH_DB = "svc_bench_history";
const VIDEOS = Number(process.env.BENCH_HISTORY_VIDEOS ?? 10_000);
const SECONDS = Number(process.env.BENCH_HISTORY_SECONDS ?? 10);
const HOURS = 720;
const DAYS = 365;
const CONNECTIONS = 32;
const TARGET_P99_MS = 20;
const REDIS_PREFIX = `bench_history_${process.pid}`;
const DATABASE_URL = urlFor(BENCH_DB);
const DAY_MS = 86_400_000;
/** `--keep`: leave the database for a look at its plans afterwards. */
const KEEP = process.argv.includes("--keep");

// ---------------------------------------------------------------------------------------------
// The floor: the same JSON from one hand-written statement (tenancy check and points together).
// ---------------------------------------------------------------------------------------------

/** The statement both floors run: the points of one tracked video in [from, to), hour or day. */
const FLOOR_SQL = `
  SELECT t.ok, to_char(p.captured_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS captured_at, p.view_count, p.like_count, p.comment_count, p.share_count, p.bookmark_count, p.source
    FROM (SELECT EXISTS (SELECT 1 FROM tracked_videos WHERE workspace_id = $1 AND video_id = $2) AS ok) t
    LEFT JOIN LATERAL (
      SELECT d.captured_at, d.view_count, d.like_count, d.comment_count, d.share_count, d.bookmark_count, d.source
        FROM video_snapshots d
       WHERE d.video_id = $2 AND d.day >= $3::date AND d.day < $5::date AND (d.captured_at AT TIME ZONE 'UTC')::date = d.day
      UNION ALL
      SELECT x.captured_at, x.view_count, x.like_count, x.comment_count, x.share_count, x.bookmark_count, x.source
        FROM video_metric_points x
       WHERE $6::bool AND x.video_id = $2 AND x.captured_at >= $7::timestamptz AND x.captured_at < $4::timestamptz
       ORDER BY 1
    ) p ON t.ok`;

const DAY = (d: Date) => d.toISOString().slice(0, 10);
const todayStart = () => {
  const n = new Date();
  return new Date(Date.UTC(n.getUTCFullYear(), n.getUTCMonth(), n.getUTCDate()));
};

/** The floor's parameters: [workspace, video, first day, end instant, daily rows before this day, points?, points from]. */
function floorParams(workspaceId: string, videoId: string, url: URL): unknown[] {
  const today = todayStart();
  const interval = url.searchParams.get("interval") ?? "day";
  const end = url.searchParams.get("end_date") ? new Date(`${url.searchParams.get("end_date")}T00:00:00Z`) : today;
  const start = url.searchParams.get("start_date")
    ? new Date(`${url.searchParams.get("start_date")}T00:00:00Z`)
    : new Date(end.getTime() - 29 * DAY_MS);
  const to = new Date(end.getTime() + DAY_MS);
  const fullFrom = new Date(today.getTime() - 29 * DAY_MS);
  const hour = interval === "hour";
  const pointsFrom = new Date(Math.max(start.getTime(), fullFrom.getTime()));
  return [
    workspaceId,
    videoId,
    DAY(start),
    to.toISOString(),
    hour ? DAY(new Date(Math.min(fullFrom.getTime(), to.getTime()))) : DAY(to),
    hour,
    pointsFrom.toISOString(),
  ];
}

async function floorServer(workspaceId: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 20 });
  const num = (v: string | null) => (v === null ? null : Number(v));
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://floor");
      const videoId = url.pathname.split("/")[4]!;
      const r = await pool.query({ name: "history", text: FLOOR_SQL, values: floorParams(workspaceId, videoId, url) });
      const points = r.rows
        .filter((p) => p.captured_at !== null)
        .map((p) => ({
          capturedAt: p.captured_at as string,
          viewCount: num(p.view_count),
          likeCount: num(p.like_count),
          commentCount: num(p.comment_count),
          shareCount: num(p.share_count),
          bookmarkCount: num(p.bookmark_count),
          source: p.source,
        }));
      const text = JSON.stringify({ data: { interval: url.searchParams.get("interval") ?? "day", points } });
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
      res.end(text);
    } catch (e) {
      res.writeHead(500);
      res.end(String(e));
    }
  });
  server.listen(0, "127.0.0.1", () => console.log(`FLOOR listening on port ${(server.address() as { port: number }).port}`));
}

/** The raw SQL floor: the statement alone, CONNECTIONS clients in a loop for `seconds`. */
async function sqlFloor(workspaceId: string, paths: string[], seconds: number): Promise<LoadResult> {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: CONNECTIONS });
  try {
    return await sqlLoad(pool, CONNECTIONS, seconds, (client, i) => {
      const url = new URL(paths[i % paths.length]!, "http://x");
      return client.query({ name: "history", text: FLOOR_SQL, values: floorParams(workspaceId, url.pathname.split("/")[4]!, url) });
    });
  } finally {
    await pool.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Seed and measure
// ---------------------------------------------------------------------------------------------

async function seed(db: pg.Client, workspaceId: string): Promise<number> {
  const t = Date.now();
  await db.query(
    `INSERT INTO videos (platform, platform_video_id, url, description, username, view_count, like_count, comment_count,
       engagement_rate, posted_at, scrape_status, data_source, last_scraped_at)
     SELECT 'platformB', 'hb' || lpad(i::text, 9, '0'), 'https://www.youtube.com/watch?v=hb' || lpad(i::text, 9, '0'),
            'History bench video ' || i, 'bench_user_' || (i % 500), 1000 * i, 100 * i, 10 * i, 11, now() - interval '400 days',
            'ready', 'simulated', now()
       FROM generate_series(1, $1::int) AS i`,
    [VIDEOS],
  );
  await db.query(`INSERT INTO tracked_videos (workspace_id, video_id) SELECT $1::uuid, id FROM videos`, [workspaceId]);
  // A per-video minute within each hour, so points are not all at one instant; views grow with time.
  await db.query(`CREATE TEMP TABLE bench_v AS SELECT id, (row_number() OVER (ORDER BY id)) AS n FROM videos`);
  const lastHour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
  // Daily rows before the window, one statement per day (time order, as the service writes them).
  const today = todayStart();
  for (let d = DAYS - 1; d >= 30; d--) {
    const day = new Date(today.getTime() - d * DAY_MS);
    await db.query(
      `INSERT INTO video_snapshots (video_id, day, captured_at, source, view_count, like_count, comment_count, share_count, bookmark_count)
       SELECT id, $1::date, ($1::date::timestamp AT TIME ZONE 'UTC') + interval '12 hours' + (n % 60) * interval '1 minute', 'simulated',
              n * (1000 + $2::int), n * (100 + $2::int), n * 10, NULL, NULL FROM bench_v`,
      [DAY(day), DAYS - d],
    );
  }
  // The window: hourly points, and each day's last one as its daily row (the same statement's work in the service).
  for (let h = HOURS - 1; h >= 0; h--) {
    const at = new Date(lastHour.getTime() - h * 3_600_000);
    await db.query(
      `INSERT INTO video_metric_points (video_id, captured_at, source, view_count, like_count, comment_count, share_count, bookmark_count)
       SELECT id, $1::timestamptz + (n % 60) * interval '1 minute', 'simulated', n * (2000 + $2::int), n * (200 + $2::int), n * 10, NULL, NULL FROM bench_v`,
      [at, HOURS - h],
    );
    const endOfDay = new Date(at.getTime() + 3_600_000).getUTCHours() === 0 || h === 0;
    if (endOfDay) {
      await db.query(
        `INSERT INTO video_snapshots (video_id, day, captured_at, source, view_count, like_count, comment_count, share_count, bookmark_count)
         SELECT id, ($1::timestamptz AT TIME ZONE 'UTC')::date, $1::timestamptz + (n % 60) * interval '1 minute', 'simulated',
                n * (2000 + $2::int), n * (200 + $2::int), n * 10, NULL, NULL FROM bench_v
         ON CONFLICT (video_id, day) DO NOTHING`,
        [at, HOURS - h],
      );
    }
  }
  await db.query("VACUUM ANALYZE");
  return (Date.now() - t) / 1000;
}

interface Sizes {
  table: number;
  indexes: number;
  rows: number;
}
async function sizes(db: pg.Client, table: string): Promise<Sizes> {
  const r = await db.query(
    `SELECT pg_table_size($1::regclass)::int8 AS t, pg_indexes_size($1::regclass)::int8 AS i, (SELECT count(*) FROM ${table})::int8 AS n`,
    [table],
  );
  return { table: Number(r.rows[0].t), indexes: Number(r.rows[0].i), rows: Number(r.rows[0].n) };
}

export async function runHistoryBench(): Promise<void> {
  await createMigratedDatabase(BENCH_DB);
  const serviceEnv = benchServiceEnv(DATABASE_URL, REDIS_PREFIX);
  Object.assign(process.env, serviceEnv);
  const db = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await db.connect();
    const { createWorkspace } = await import("../src/domain/workspace/service.js");
    await db.query(`INSERT INTO plans (name, video_limit, monthly_credits) VALUES ('bench', 10000000, 0)`);
    const reader = await createWorkspace({ name: "bench reader", plan: "bench" });
    // The window's months have their partitions (as a worker makes them when it starts), not the DEFAULT one.
    const { ensureHistoryPartitions } = await import("../src/domain/tracking/history-partitions.js");
    await ensureHistoryPartitions();
    const seedSeconds = await seed(db, reader.workspace.id);
    const points = await sizes(db, "video_metric_points");
    const daily = await sizes(db, "video_snapshots");
    const sample = (await db.query(`SELECT video_id FROM tracked_videos ORDER BY random() LIMIT 1000`)).rows.map(
      (r) => r.video_id as string,
    );

    // At info, as in production (its access log is drained, not kept).
    const api = await startChild(["src/main/api.ts"], { ...serviceEnv, LOG_LEVEL: "info" }, /API listening on port (\d+)/);
    const apiBase = `http://127.0.0.1:${api.match[1]}`;
    const floor = await startChild(["bench/history.ts", "--floor", reader.workspace.id], serviceEnv, /FLOOR listening on port (\d+)/);
    const floorBase = `http://127.0.0.1:${floor.match[1]}`;
    const auth = { authorization: `Bearer ${reader.secret}` };
    const yearAgo = DAY(new Date(todayStart().getTime() - (DAYS - 1) * DAY_MS));
    const hourPaths = sample.map((id) => `/api/v1/videos/${id}/history?interval=hour`);
    const dayPaths = sample.map((id) => `/api/v1/videos/${id}/history?interval=day&start_date=${yearAgo}&end_date=${DAY(todayStart())}`);

    // Sanity: the API and the floor answer the same bytes, with the expected number of points.
    for (const path of [hourPaths[0]!, dayPaths[0]!]) {
      const [a, f] = await Promise.all([apiBase, floorBase].map((b) => fetch(`${b}${path}`, { headers: auth }).then((r) => r.text())));
      if (a !== f) throw new Error(`the API and the floor disagree on ${path}:\n${a.slice(0, 400)}\n${f.slice(0, 400)}`);
    }
    const hourCount = ((await (await fetch(`${apiBase}${hourPaths[0]}`, { headers: auth })).json()) as any).data.points.length;
    const dayCount = ((await (await fetch(`${apiBase}${dayPaths[0]}`, { headers: auth })).json()) as any).data.points.length;

    const loads: number[] = [];
    const measure = async (base: string, paths: string[], pid: number) => {
      await load({ base, paths, headers: auth, seconds: 2, connections: CONNECTIONS });
      const before = cpuMs(pid);
      const r = await load({ base, paths, headers: auth, seconds: SECONDS, connections: CONNECTIONS });
      loads.push(os.loadavg()[0]!);
      return { ...r, cpuPerRequest: (cpuMs(pid) - before) / Math.max(r.total, 1) };
    };
    const sqlHour = await sqlFloor(reader.workspace.id, hourPaths, SECONDS);
    const sqlDay = await sqlFloor(reader.workspace.id, dayPaths, SECONDS);
    const floorHour = await measure(floorBase, hourPaths, floor.child.pid!);
    const apiHour = await measure(apiBase, hourPaths, api.child.pid!);
    const floorDay = await measure(floorBase, dayPaths, floor.child.pid!);
    const apiDay = await measure(apiBase, dayPaths, api.child.pid!);

    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
    const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
    const perVideo = (s: Sizes) => (s.table + s.indexes) / VIDEOS;
    const row = (name: string, r: LoadResult & { cpuPerRequest?: number }) =>
      `| ${name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.cpuPerRequest === undefined ? "" : r.cpuPerRequest.toFixed(2)} | ${r.total} | ${r.non2xx + r.errors} |`;
    const ok = (r: LoadResult) => (r.p99 < TARGET_P99_MS ? "met" : "NOT met");
    const md = `## Metric history: GET /videos/{id}/history

Command: \`npx tsx bench/history.ts\` (scale with BENCH_HISTORY_VIDEOS, BENCH_HISTORY_SECONDS).
${VIDEOS.toLocaleString("en")} tracked videos, each with ${HOURS} hourly points (the 30-day full-resolution window) and ${DAYS} daily points
(335 before the window, 30 in it), seeded in time order in ${seedSeconds.toFixed(0)} s, then VACUUM ANALYZE. Random videos; autocannon in
its own process, ${CONNECTIONS} connections, ${SECONDS} s per measurement after a 2 s warm-up; the API is src/main/api.ts with
VALIDATE_RESPONSES=false and a rate limit too high to refuse (auth and the Redis limiter still run). Floors, same run: a bare
node:http + pg server answering the same bytes (checked) with one hand-written statement, and that statement alone from
${CONNECTIONS} pg connections (the raw SQL floor). 1-minute load average ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}
during the HTTP measurements.

| request | req/s | p50 ms | p99 ms | server CPU ms/request | requests | non-2xx/errors |
|---|---|---|---|---|---|---|
${row(`SQL floor: 30 days hourly (${hourCount} points)`, sqlHour)}
${row("HTTP floor: 30 days hourly", floorHour)}
${row("API: 30 days hourly (`interval=hour`)", apiHour)}
${row(`SQL floor: a year daily (${dayCount} points)`, sqlDay)}
${row("HTTP floor: a year daily", floorDay)}
${row("API: a year daily (`interval=day`)", apiDay)}

- API p99 target (< ${TARGET_P99_MS} ms): hourly ${ok(apiHour)} (${apiHour.p99} ms), daily ${ok(apiDay)} (${apiDay.p99} ms).
- Storage (table + indexes, per video): points ${kb(perVideo(points))} for ${HOURS} points (${mb(points.table)} table,
  ${mb(points.indexes)} indexes, ${points.rows.toLocaleString("en")} rows: the covering primary key holds the metrics a second time);
  daily rows ${kb(perVideo(daily))} for ${DAYS} days (${mb(daily.table)} table, ${mb(daily.indexes)} indexes).
- Per video-year, scraped hourly all year: **${kb(perVideo(points) + perVideo(daily))}** (the window's points stay at 30 days' worth;
  the daily rows grow by ${DAYS} a year). A video on the default cadence (hourly for 2 days, 4-hourly to a week, daily to a month,
  weekly after) keeps about ${Math.round(48 + 5 * 6 + 23)} points in its first month and 4-5 in each later window, so its year costs
  about the daily rows alone plus ${kb((perVideo(points) / HOURS) * 5)} of points.`;
    console.log(md);
    await writeSection("history", md);
  } finally {
    stopChildren();
    await new Promise((r) => setTimeout(r, 500));
    await db.end().catch(() => undefined);
    await closeServiceConnections();
    await dropRedisKeys(REDIS_PREFIX).catch(() => undefined);
    if (!KEEP) await admin(`DROP DATABASE IF EXISTS "${BENCH_DB}" WITH (FORCE)`).catch(() => undefined);
  }
}

const role = process.argv[2];
if (role === "--floor") await floorServer(process.argv[3]!);
else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runHistoryBench();
  process.exit(0);
}
