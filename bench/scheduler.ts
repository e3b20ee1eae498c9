/**
 * Adaptive refresh benchmark.
 *
 * 1,000,000 tracked videos (BENCH_SCHEDULER_VIDEOS) with realistic ages (3 % under 2 days, 7 % up
 * to a week, 15 % up to a month, 75 % up to two years), tracked by 100 workspaces (80 on a plan with
 * refresh factor 1, 15 with 0.5, 5 with 0.25), each scheduled where the cadence puts it in steady
 * state (src/domain/tracking/cadence.ts: its next time on its own grid), seeded in batches, then
 * VACUUM ANALYZE. Measured:
 *   1. Finding one minute's due items: the real scheduler body (refreshDue: claims through the
 *      partial index, FOR UPDATE SKIP LOCKED, REFRESH_BATCH_SIZE per statement, enqueue to Redis)
 *      for five consecutive minutes: items, statements, time; the claim's plan and buffers
 *      (EXPLAIN ANALYZE, rolled back); Redis memory per queued job.
 *   2. Sustained scrapes per second: BENCH_SCHEDULER_SCRAPES videos made due at once, taken by the
 *      scheduler of two real worker processes (src/main/worker.ts, SCRAPE_PROVIDER=simulated,
 *      REFRESH_SCHEDULER_EVERY_SECONDS=2, SCRAPE_CONCURRENCY=32), until all are scraped.
 *   3. The spread over a simulated day: every item's due times for 24 hours from the cadence
 *      function (ages growing, each rescheduled 30 s after its due time), counted per minute; next
 *      to the same items with no phase (an item due an interval after its last scrape, all added in
 *      the same minute, as after an import), to show what the phase prevents.
 * Then, from these figures, what 10,000,000 videos would need.
 *
 * Run alone: `npx tsx bench/scheduler.ts` (BENCH_SCHEDULER_VIDEOS, BENCH_SCHEDULER_SCRAPES scale
 * it); writes the `scheduler` section of bench/RESULTS.md. Uses (creates and drops) svc_bench_scheduler.
 */
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { admin, benchServiceEnv, closeServiceConnections, createMigratedDatabase, dropRedisKeys, urlFor } from "./lib/db.js";
import { cpuMs, startChild, stopChildren } from "./lib/load.js";
import { percentile, writeSection } from "./lib/results.js";

const BENCH_DB = "svc_bench_scheduler";
const VIDEOS = Number(process.env.BENCH_SCHEDULER_VIDEOS ?? 1_000_000);
const SCRAPES = Number(process.env.BENCH_SCHEDULER_SCRAPES ?? 20_000);
const WORKSPACES = 100;
const BATCH = 20_000;
const REDIS_PREFIX = `bench_scheduler_${process.pid}`;
const DATABASE_URL = urlFor(BENCH_DB);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** Realistic ages of tracked videos: most are old, a steady few are new. */
function age(u: number, v: number): number {
  if (u < 0.03) return v * 2 * DAY;
  if (u < 0.1) return 2 * DAY + v * 5 * DAY;
  if (u < 0.25) return 7 * DAY + v * 23 * DAY;
  return 30 * DAY + v * 700 * DAY;
}
const PLAN_OF = (w: number) => (w < 80 ? "bench" : w < 95 ? "bench_pro" : "bench_ent");
const FACTOR: Record<string, number> = { bench: 1, bench_pro: 0.5, bench_ent: 0.25 };

interface Item {
  id: string;
  postedAt: number;
  factor: number;
  next: number;
}

export async function runSchedulerBench(): Promise<void> {
  await createMigratedDatabase(BENCH_DB);
  const serviceEnv = benchServiceEnv(DATABASE_URL, REDIS_PREFIX);
  Object.assign(process.env, serviceEnv);
  const db = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await db.connect();
    const { refreshInterval, nextOnGrid, phaseOf } = await import("../src/domain/tracking/cadence.js");
    const { refreshDue } = await import("../src/domain/tracking/scrape-jobs.js");
    const { claimDue } = await import("../src/domain/tracking/scrape-store.js");
    const { createWorkspace } = await import("../src/domain/workspace/service.js");
    const { queue } = await import("../src/infra/queues.js");
    const { redis } = await import("../src/infra/redis.js");
    const { config } = await import("../src/config.js");

    for (const [name, factor] of Object.entries(FACTOR)) {
      await db.query(`INSERT INTO plans (name, video_limit, monthly_credits, refresh_factor) VALUES ($1, 100000000, 0, $2)`, [
        name,
        factor,
      ]);
    }
    const workspaces: string[] = [];
    for (let w = 0; w < WORKSPACES; w++) workspaces.push((await createWorkspace({ name: `bench ${w}`, plan: PLAN_OF(w) })).workspace.id);

    // ---- Seed: each video where the cadence puts it in steady state (its next grid time after T0).
    const T0 = Date.now();
    const items: Item[] = [];
    let t = Date.now();
    for (let start = 0; start < VIDEOS; start += BATCH) {
      const n = Math.min(BATCH, VIDEOS - start);
      const rows = {
        id: [] as string[],
        pvid: [] as string[],
        url: [] as string[],
        posted: [] as Date[],
        views: [] as number[],
        last: [] as Date[],
        next: [] as Date[],
        ws: [] as string[],
      };
      for (let k = 0; k < n; k++) {
        const i = start + k;
        const id = randomUUID();
        const ageMs = age(phaseOf(`age:${id}`), phaseOf(`age2:${id}`));
        const w = i % WORKSPACES;
        const factor = FACTOR[PLAN_OF(w)]!;
        const interval = refreshInterval({ ageMs, viewsPerHour: null, viewCount: null, planFactor: factor });
        const offset = phaseOf(id) * interval;
        const next = offset + (Math.floor((T0 - offset) / interval) + 1) * interval;
        const pvid = `sb${String(i).padStart(9, "0")}`;
        rows.id.push(id);
        rows.pvid.push(pvid);
        rows.url.push(`https://www.youtube.com/watch?v=${pvid}`);
        rows.posted.push(new Date(T0 - ageMs));
        rows.views.push(1000 + (i % 100_000));
        rows.last.push(new Date(next - interval));
        rows.next.push(new Date(next));
        rows.ws.push(workspaces[w]!);
        items.push({ id, postedAt: T0 - ageMs, factor, next });
      }
      await db.query(
        `INSERT INTO videos (id, platform, platform_video_id, url, posted_at, view_count, scrape_status, data_source, last_scraped_at, next_refresh_at)
         SELECT id, 'platformB', pvid, url, posted, views, 'ready', 'simulated', last, next
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::int8[], $6::timestamptz[], $7::timestamptz[]) AS x(id, pvid, url, posted, views, last, next)`,
        [rows.id, rows.pvid, rows.url, rows.posted, rows.views, rows.last, rows.next],
      );
      await db.query(`INSERT INTO tracked_videos (workspace_id, video_id) SELECT ws, id FROM unnest($1::uuid[], $2::uuid[]) AS x(ws, id)`, [
        rows.ws,
        rows.id,
      ]);
    }
    await db.query("VACUUM ANALYZE");
    const seedSeconds = (Date.now() - t) / 1000;
    const scheduled = Number((await db.query(`SELECT count(*) FROM videos WHERE next_refresh_at IS NOT NULL`)).rows[0].count);

    // ---- 1. One minute's due items, five minutes in a row.
    const claimSql = `SELECT id, next_refresh_at FROM videos WHERE next_refresh_at <= $1 ORDER BY next_refresh_at LIMIT ${config.refresh.batchSize} FOR UPDATE SKIP LOCKED`;
    await db.query("BEGIN");
    const explain = (await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${claimSql}`, [new Date(T0 + MIN)])).rows[0]["QUERY PLAN"][0];
    await db.query("ROLLBACK");
    const planText = (await db.query(`EXPLAIN ${claimSql}`, [new Date(T0 + MIN)])).rows.map((r) => r["QUERY PLAN"]).join("\n");
    // The plan's scans, e.g. "Index Scan using videos_next_refresh_idx on videos".
    const scans = [...new Set(planText.match(/(?:Bitmap Index Scan on|Index Only Scan using|Index Scan using|Seq Scan on) \S+/g) ?? [])];
    const redisBefore = await usedMemory(redis());
    const minutes: Array<{ videos: number; statements: number; ms: number }> = [];
    for (let m = 1; m <= 5; m++) {
      const now = new Date(T0 + m * MIN);
      t = performance.now();
      const r = await refreshDue(now, { batchSize: config.refresh.batchSize, maxPerRun: 10_000_000, leaseMs: HOUR });
      minutes.push({ videos: r.videos, statements: r.statements, ms: performance.now() - t });
    }
    const queued = minutes.reduce((s, m) => s + m.videos, 0);
    const redisPerJob = queued ? ((await usedMemory(redis())) - redisBefore) / queued : 0;
    // The claim statement alone, a minute's worth in batches (on items already past, so nothing is left out).
    t = performance.now();
    let claimStatements = 0;
    let claimed = 0;
    for (;;) {
      const c = await claimDue("video", new Date(T0 + 6 * MIN), config.refresh.batchSize, HOUR);
      claimStatements++;
      claimed += c.length;
      if (c.length < config.refresh.batchSize) break;
    }
    const claimOnlyMs = performance.now() - t;
    await queue("scrape").obliterate({ force: true });

    // ---- 2. Sustained scrapes per second: two worker processes, their own scheduler.
    const mark = new Date();
    await db.query(
      `UPDATE videos SET next_refresh_at = $1 WHERE id IN (SELECT id FROM videos WHERE next_refresh_at > $2 ORDER BY random() LIMIT $3)`,
      [new Date(mark.getTime() - 1000), new Date(T0 + 10 * MIN), SCRAPES],
    );
    const workerEnv = { ...serviceEnv, REFRESH_SCHEDULER_EVERY_SECONDS: "2", SCRAPE_CONCURRENCY: "32", LOG_LEVEL: "info" };
    const workers = await Promise.all([0, 1].map(() => startChild(["src/main/worker.ts"], workerEnv, /workers started/)));
    const cpuBefore = workers.map((w) => cpuMs(w.child.pid!));
    const started = Date.now();
    const progress: Array<[number, number]> = [];
    let done = 0;
    while (Date.now() - started < 900_000) {
      done = Number((await db.query(`SELECT count(*) FROM videos WHERE last_scraped_at >= $1`, [mark])).rows[0].count);
      progress.push([Date.now() - started, done]);
      if (done >= SCRAPES) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const scrapeSeconds = (Date.now() - started) / 1000;
    const workerCpu = workers.reduce((s, w, i) => s + cpuMs(w.child.pid!) - cpuBefore[i]!, 0);
    // Steady rate: between 10 % and 90 % of the items.
    const at = (share: number) => progress.find(([, n]) => n >= share * SCRAPES)?.[0] ?? scrapeSeconds * 1000;
    const steady = (0.8 * SCRAPES) / Math.max(0.001, (at(0.9) - at(0.1)) / 1000);
    const points = Number((await db.query(`SELECT count(*) FROM video_metric_points`)).rows[0].count);
    stopChildren();

    // ---- 3. The spread over a simulated day, from the cadence function.
    const dayStart = T0;
    const perMinute = new Array<number>(1440).fill(0);
    const naive = new Array<number>(1440).fill(0);
    for (const it of items) {
      for (let due = it.next; due < dayStart + DAY; ) {
        perMinute[Math.floor((due - dayStart) / MIN)]!++;
        const interval = refreshInterval({ ageMs: due - it.postedAt, viewsPerHour: null, viewCount: null, planFactor: it.factor });
        due = nextOnGrid(it.id, new Date(due + 30_000), interval).getTime();
      }
      // No phase: every item scraped at T0 (an import), then due an interval after each scrape.
      for (let due = dayStart; due < dayStart + DAY; ) {
        naive[Math.floor((due - dayStart) / MIN)]!++;
        due += refreshInterval({ ageMs: due - it.postedAt, viewsPerHour: null, viewCount: null, planFactor: it.factor }) + 30_000;
      }
    }
    const stats = (xs: number[]) => ({
      min: Math.min(...xs),
      p50: percentile(xs, 50),
      p99: percentile(xs, 99),
      max: Math.max(...xs),
      total: xs.reduce((a, b) => a + b, 0),
    });
    const spread = stats(perMinute);
    const naiveStats = stats(naive.slice(1)); // minute 0 is the import itself
    const hourly = Array.from({ length: 24 }, (_, h) => perMinute.slice(h * 60, h * 60 + 60).reduce((a, b) => a + b, 0));

    // ---- Report.
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const dueRate = avg(minutes.map((m) => m.videos));
    const scale = 10_000_000 / VIDEOS;
    const need10m = (spread.total / DAY) * 1000 * scale; // scrapes per second at 10M
    const perWorkerProcess = steady / 2;
    const execMs = explain["Execution Time"] as number;
    const buffers = (explain.Plan["Shared Hit Blocks"] ?? 0) + (explain.Plan["Shared Read Blocks"] ?? 0);
    const md = `## Adaptive refresh: the scheduler at ${VIDEOS.toLocaleString("en")} tracked videos

Command: \`npx tsx bench/scheduler.ts\` (scale with BENCH_SCHEDULER_VIDEOS, BENCH_SCHEDULER_SCRAPES).
${VIDEOS.toLocaleString("en")} tracked videos (3 % under 2 days old, 7 % up to a week, 15 % up to a month, 75 % up to two years; 100
workspaces, 80 on a plan with refresh factor 1, 15 with 0.5, 5 with 0.25), each scheduled on its own grid as the cadence leaves it in
steady state (default REFRESH_CADENCE \`2d=1h,7d=4h,30d=1d,*=7d\`); ${scheduled.toLocaleString("en")} scheduled; seeded in ${seedSeconds.toFixed(0)} s.

**1. Finding one minute's due items** (the scheduler body, refreshDue, REFRESH_BATCH_SIZE ${config.refresh.batchSize}):

| minute | due items | claim statements | time (claims + enqueue to Redis) |
|---|---|---|---|
${minutes.map((m, i) => `| ${i + 1} | ${m.videos} | ${m.statements} | ${m.ms.toFixed(0)} ms |`).join("\n")}

- About ${dueRate.toFixed(0)} items fall due per minute; taking them costs ${avg(minutes.map((m) => m.statements)).toFixed(1)} claim
  statements (one of them on accounts, which have none here) and ${avg(minutes.map((m) => m.ms)).toFixed(0)} ms with their enqueueing.
  The claims alone (the next minute's ${claimed} items, ${claimStatements} statement(s), no enqueueing): ${claimOnlyMs.toFixed(0)} ms,
  ${((claimOnlyMs / Math.max(1, claimed)) * 1000).toFixed(0)} µs per item.
- One claim of up to ${config.refresh.batchSize} (EXPLAIN ANALYZE, rolled back): ${execMs.toFixed(2)} ms, ${buffers} buffers; its scans:
  ${scans.join(", ")} (the partial index videos_next_refresh_idx holds only scheduled items; no scan of the table).
- Redis: about ${redisPerJob.toFixed(0)} bytes per queued scrape job.

**2. Sustained scrapes/s** (simulated provider, two worker processes with SCRAPE_CONCURRENCY=32, their own scheduler every 2 s):
${SCRAPES.toLocaleString("en")} videos made due at once were all scraped in ${scrapeSeconds.toFixed(1)} s; steady rate **${steady.toFixed(0)} scrapes/s**
(10 % to 90 % of them), ${(workerCpu / Math.max(1, done)).toFixed(2)} ms worker CPU per scrape (two statements each: start, and the one
storing record, day row, point, views24h and outlier score); ${points.toLocaleString("en")} points written in all (other items fell due meanwhile).

**3. Due items per minute over a simulated day** (from the cadence function, ages growing, each item rescheduled 30 s after its
due time): min ${spread.min}, median ${spread.p50}, p99 ${spread.p99}, max ${spread.max} per minute; ${spread.total.toLocaleString("en")} refreshes in the day
(${((spread.total / DAY) * 1000).toFixed(1)}/s on average). Per hour: ${hourly.join(", ")}.
Without the phase (every item scraped at the same minute, as after an import, then due an interval after each scrape), the same
items peak at ${naiveStats.max.toLocaleString("en")} due in one minute (median ${naiveStats.p50}): the bursts a flat timer makes.

**10,000,000 videos on this cadence** (scaling these figures by ${scale.toFixed(0)}): about ${(need10m).toFixed(0)} refreshes/s on average
(${((spread.max * scale) / 60).toFixed(0)}/s in the busiest minute), ${((spread.total * scale) / 1e6).toFixed(0)} million points a day.
- Workers: the simulated provider runs ${perWorkerProcess.toFixed(0)} scrapes/s per worker process here, so ${Math.ceil(need10m / Math.max(1, perWorkerProcess))}
  processes keep up on CPU; a real provider is bound by the platforms instead (yt-dlp takes 1-3 s a scrape and YTDLP_CONCURRENCY runs
  at once per process): at 2 s and 16 at once, ${Math.ceil(need10m / 8)} worker processes, spread over many source addresses, which is where
  the cost and the limits are (proxies, platform rate limits), not in this service.
- Scheduler: ${((need10m * 60) / config.refresh.batchSize).toFixed(0)} claim statements a minute, each an index range scan of the next
  ${config.refresh.batchSize} scheduled items; one scheduler run per minute stays far below its interval. Redis holds the queued jobs
  of at most a few minutes (${((spread.max * scale * 5 * redisPerJob) / 2 ** 20).toFixed(0)} MiB for five busy minutes) when workers keep up.
- PostgreSQL: ${(need10m * 2).toFixed(0)} statements/s for scrapes (two each), each writing the video row (non-HOT: its
  sort indexes change), the day's row and a point: plan for ${(need10m * 6).toFixed(0)} index insertions/s and the WAL that goes with
  them, a primary with fast storage and a replica for reads; the scheduler's claims are negligible next to that.
- History: video_metric_points is partitioned by month (migration 20261126130000_partitioned_history), so retention drops a
  month instead of deleting rows, each partition with the covering primary key; docs/scaling.md weighs a shorter grain at this size.
  At ${((spread.total * scale) / 1e6).toFixed(0)} million points a day and about 100 bytes each with their index entry (bench/history.ts
  measures it), the 30-day window holds about ${((spread.total * scale * 30 * 100) / 2 ** 30).toFixed(0)} GiB, and the daily rows add
  about ${((10_000_000 * 365 * 120) / 2 ** 30).toFixed(0)} GiB a year if every video had one every day (old videos refreshed weekly have far fewer).`;
    console.log(md);
    await writeSection("scheduler", md);
    await queue("scrape")
      .obliterate({ force: true })
      .catch(() => undefined);
  } finally {
    stopChildren();
    await new Promise((r) => setTimeout(r, 500));
    await db.end().catch(() => undefined);
    await closeServiceConnections();
    await dropRedisKeys(REDIS_PREFIX).catch(() => undefined);
    await admin(`DROP DATABASE IF EXISTS "${BENCH_DB}" WITH (FORCE)`).catch(() => undefined);
  }
}

async function usedMemory(r: { info: (section: string) => Promise<string> }): Promise<number> {
  const m = /used_memory:(\d+)/.exec(await r.info("memory"));
  return m ? Number(m[1]) : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runSchedulerBench();
  process.exit(0);
}
