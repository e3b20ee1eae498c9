/**
 * Partitioned history: the migration path from the unpartitioned tables, on a
 * database of its own with data in the old shape. The real `prisma migrate deploy` applies every
 * migration before 20261126130000_partitioned_history, rows are inserted into the old tables, then it
 * applies that migration; the test checks the rows, the keys and constraints, where new points go
 * (monthly partitions made ahead, the DEFAULT partition, moved out of it when their month's partition
 * is made, a month an attached older table covers skipped), the history read's plan (index-only,
 * only the months it needs), and retention by
 * dropping partitions (days rolled up first, strays of the DEFAULT partition deleted).
 *
 * The service's modules are imported only after the migration, pointed at that database.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DB_PREFIX, dropDatabase, urlFor, withAdmin } from "../setup/db-admin.js";
import { queriesOf } from "../helpers/statements.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MIGRATION = "20261126130000_partitioned_history";
const database = `${DB_PREFIX}${inject("runPid")}_partitions_${process.pid}`;
const DAY = 86_400_000;

/** 00:00 UTC of the first day of the month of `at`, plus `months`. */
const monthStart = (at: Date, months = 0) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
const suffix = (at: Date) => `_p${at.toISOString().slice(0, 7).replace("-", "_")}`;
/**
 * The test's clock: 12:00 UTC on the 20th of the current month. The migration lays out partitions around the
 * database's own clock (this month and the ones around it), so the month must be today's; the day is fixed, so
 * that the order of the points the tests write (day 10, "now", the 15th of the retention run) is the same on
 * every day of the month.
 */
const NOW = ((real: Date) => new Date(Date.UTC(real.getUTCFullYear(), real.getUTCMonth(), 20, 12)))(new Date());
/** A point in the month `months` from this one (day 10 at hh:00). */
const inMonth = (months: number, hour = 8) => new Date(monthStart(NOW, months).getTime() + 9 * DAY + hour * 3_600_000);

let dir: string;
let db: pg.Client;

/** `prisma migrate deploy` with the migrations in `dir/migrations` (a config like prisma.config.ts pointing there). */
function migrate(): void {
  const require = createRequire(join(ROOT, "package.json"));
  const config = readFileSync(join(ROOT, "prisma.config.ts"), "utf8")
    .replace(`"prisma/config"`, JSON.stringify(require.resolve("prisma/config")))
    .replace(`"./prisma/migrate-adapter.js"`, JSON.stringify(join(ROOT, "prisma/migrate-adapter.js")))
    .replace(`schema: "prisma/schema"`, `schema: ${JSON.stringify(join(ROOT, "prisma/schema"))}`)
    .replace(`path: "prisma/migrations"`, `path: ${JSON.stringify(join(dir, "migrations"))}`);
  writeFileSync(join(dir, "prisma.config.ts"), config);
  execFileSync("npx", ["prisma", "migrate", "deploy", "--config", join(dir, "prisma.config.ts")], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: urlFor(database) },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

const q = async <T = any>(text: string, values: unknown[] = []) => (await db.query(text, values)).rows as T[];
const POINT_ROWS = `SELECT video_id, captured_at, source, view_count, like_count, comment_count, share_count, bookmark_count FROM video_metric_points ORDER BY 1, 2`;
const ACCOUNT_ROWS = `SELECT account_id, captured_at, source, follower_count, total_views, video_count FROM account_metric_points ORDER BY 1, 2`;
const partitions = async (table: string) =>
  (
    await q<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`,
      [table],
    )
  ).map((r) => r.name);

let video: string;
let other: string;
let account: string;
let before: { points: unknown[]; accounts: unknown[] };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "history-partitions-"));
  mkdirSync(join(dir, "migrations"));
  const all = readdirSync(join(ROOT, "prisma/migrations"));
  expect(all).toContain(MIGRATION);
  for (const name of all.filter((n) => n < MIGRATION))
    cpSync(join(ROOT, "prisma/migrations", name), join(dir, "migrations", name), { recursive: true });
  await dropDatabase(database);
  await withAdmin((c) => c.query(`CREATE DATABASE "${database}"`));
  migrate();

  // Data in the old shape: points over four months (and the day's row of each but one), two videos, an account.
  db = new pg.Client({ connectionString: urlFor(database) });
  await db.connect();
  expect((await q(`SELECT relkind FROM pg_class WHERE relname = 'video_metric_points'`))[0].relkind).toBe("r");
  [{ id: video }, { id: other }] = await q(
    `INSERT INTO videos (platform, platform_video_id, url) VALUES ('platformB', 'hp000000001', 'https://www.youtube.com/watch?v=hp000000001'),
       ('platformB', 'hp000000002', 'https://www.youtube.com/watch?v=hp000000002') RETURNING id`,
  );
  [{ id: account }] = await q(`INSERT INTO accounts (platform, username) VALUES ('platformB', 'partitioned') RETURNING id`);
  for (const [i, months] of [-3, -3, -1, 0].entries()) {
    const at = inMonth(months, 8 + i);
    for (const v of [video, other]) {
      await q(`INSERT INTO video_metric_points VALUES ($1, $2, 'simulated', $3::int8, $3::int8 / 10, NULL, NULL, 1)`, [
        v,
        at,
        1000 * (i + 1),
      ]);
    }
    // The day's row is missing for the oldest day (written by the roll-up before its month is dropped).
    if (months !== -3) {
      await q(
        `INSERT INTO video_snapshots (video_id, day, captured_at, source, view_count, like_count) VALUES ($1, ($2::timestamptz AT TIME ZONE 'UTC')::date, $2, 'simulated', $3::int8, $3::int8 / 10)
         ON CONFLICT (video_id, day) DO UPDATE SET captured_at = EXCLUDED.captured_at, view_count = EXCLUDED.view_count`,
        [video, at, 1000 * (i + 1)],
      );
    }
    await q(`INSERT INTO account_metric_points VALUES ($1, $2, 'simulated', $3, 5, 7)`, [account, at, 10 * (i + 1)]);
  }
  before = { points: await q(POINT_ROWS), accounts: await q(ACCOUNT_ROWS) };

  // That migration, then every later one (as `migrate deploy` does on an upgrade): the service's code below
  // expects today's schema.
  for (const name of all.filter((n) => n >= MIGRATION))
    cpSync(join(ROOT, "prisma/migrations", name), join(dir, "migrations", name), { recursive: true });
  migrate();
  process.env.DATABASE_URL = urlFor(database);
}, 300_000);

afterAll(async () => {
  const { closeDb } = await import("../../src/infra/db.js");
  await closeDb().catch(() => undefined);
  await db?.end().catch(() => undefined);
  await dropDatabase(database);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the migration from unpartitioned tables", () => {
  it("keeps every row, in monthly partitions from the oldest point to next month, and drops the old tables", async () => {
    expect(await q(POINT_ROWS)).toEqual(before.points);
    expect(await q(ACCOUNT_ROWS)).toEqual(before.accounts);
    expect(before.points).toHaveLength(8);
    for (const table of ["video_metric_points", "account_metric_points"]) {
      expect((await q(`SELECT relkind FROM pg_class WHERE relname = $1`, [table]))[0].relkind).toBe("p");
      const months = [-3, -2, -1, 0, 1].map((m) => `${table}${suffix(monthStart(NOW, m))}`);
      expect(await partitions(table)).toEqual([...months, `${table}_default`].sort());
      // Each point sits in its month's partition.
      const misplaced = await q(
        `SELECT tableoid::regclass::text AS part, captured_at FROM ${table} WHERE tableoid::regclass::text <> $1 || '_p' || to_char(captured_at AT TIME ZONE 'UTC', 'YYYY_MM')`,
        [table],
      );
      expect(misplaced).toEqual([]);
    }
    expect(await q(`SELECT relname FROM pg_class WHERE relname LIKE '%unpartitioned%' OR relname LIKE '%captured_brin'`)).toEqual([]);
  });

  it("keeps the keys: the covering primary key (with the partition key) on the parent and every partition, the foreign keys with their cascade", async () => {
    const defs = await q<{ table: string; def: string }>(
      `SELECT conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conrelid IN ('video_metric_points'::regclass, 'account_metric_points'::regclass) ORDER BY 1, 2`,
    );
    expect(defs).toEqual([
      { table: "account_metric_points", def: "FOREIGN KEY (account_id) REFERENCES accounts(id) ON UPDATE CASCADE ON DELETE CASCADE" },
      {
        table: "account_metric_points",
        def: "PRIMARY KEY (account_id, captured_at) INCLUDE (source, follower_count, total_views, video_count)",
      },
      { table: "video_metric_points", def: "FOREIGN KEY (video_id) REFERENCES videos(id) ON UPDATE CASCADE ON DELETE CASCADE" },
      {
        table: "video_metric_points",
        def: "PRIMARY KEY (video_id, captured_at) INCLUDE (source, view_count, like_count, comment_count, share_count, bookmark_count)",
      },
    ]);
    // Every partition has the key's index (an index of the parent's).
    const unindexed = await q(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent IN ('video_metric_points'::regclass, 'account_metric_points'::regclass)
          AND NOT EXISTS (SELECT 1 FROM pg_index x WHERE x.indrelid = c.oid AND x.indisprimary)`,
    );
    expect(unindexed).toEqual([]);
    // The scrape store's upsert (ON CONFLICT on the key) appends nothing twice.
    const at = inMonth(0, 8 + 3);
    const dup = await q(
      `INSERT INTO video_metric_points VALUES ($1, $2, 'simulated', 1, 1, 1, 1, 1) ON CONFLICT (video_id, captured_at) DO NOTHING RETURNING 1`,
      [video, at],
    );
    expect(dup).toEqual([]);
    // A video deleted takes its points with it, from every partition.
    await q(`DELETE FROM videos WHERE id = $1`, [other]);
    expect(await q(`SELECT 1 FROM video_metric_points WHERE video_id = $1`, [other])).toEqual([]);
  });
});

describe("partitions made ahead, and the DEFAULT partition", () => {
  it("takes a point no month covers, and moves it into its month when that partition is made (also from several callers at once)", async () => {
    const far = inMonth(4);
    await q(`INSERT INTO video_metric_points VALUES ($1, $2, 'simulated', 5, NULL, NULL, NULL, NULL)`, [video, far]);
    expect((await q(`SELECT tableoid::regclass::text AS part FROM video_metric_points WHERE captured_at = $1`, [far]))[0].part).toBe(
      "video_metric_points_default",
    );
    const { ensureHistoryPartitions } = await import("../../src/domain/tracking/history-partitions.js");
    // Three months on, with a 30-day window: the months from the window's start to the next one.
    const later = new Date(monthStart(NOW, 3).getTime() + 20 * DAY);
    const results = await Promise.all([ensureHistoryPartitions(later, 30), ensureHistoryPartitions(later, 30)]);
    const expected = [2, 3, 4].map((m) => `video_metric_points${suffix(monthStart(NOW, m))}`);
    expect(results[0].partitions.filter((p) => p.startsWith("video_"))).toEqual(expected);
    expect(await partitions("video_metric_points")).toEqual(expect.arrayContaining(expected));
    expect((await q(`SELECT tableoid::regclass::text AS part FROM video_metric_points WHERE captured_at = $1`, [far]))[0].part).toBe(
      `video_metric_points${suffix(monthStart(NOW, 4))}`,
    );
    expect(await q(`SELECT count(*)::int AS n FROM video_metric_points_default`)).toEqual([{ n: 0 }]);
  });
});

describe("a month another partition covers", () => {
  it("is skipped (an older table attached whole, docs/scaling.md), the other months made", async () => {
    const [from, to] = [monthStart(NOW, 10), monthStart(NOW, 12)];
    await q(`CREATE TABLE legacy_points (LIKE video_metric_points INCLUDING DEFAULTS)`);
    await q(
      `ALTER TABLE video_metric_points ATTACH PARTITION legacy_points FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`,
    );
    const { ensureHistoryPartitions } = await import("../../src/domain/tracking/history-partitions.js");
    // The window of the 21st of month 10 starts in month 9; months 10 and 11 are the attached table's.
    const r = await ensureHistoryPartitions(new Date(from.getTime() + 20 * DAY), 30);
    expect(r.partitions).toEqual([
      ...[9].map((m) => `video_metric_points${suffix(monthStart(NOW, m))}`),
      ...[9, 10, 11].map((m) => `account_metric_points${suffix(monthStart(NOW, m))}`),
    ]);
    expect(await partitions("video_metric_points")).not.toContain(`video_metric_points${suffix(from)}`);
    await q(`INSERT INTO video_metric_points VALUES ($1, $2, 'simulated', 8, NULL, NULL, NULL, NULL)`, [
      video,
      new Date(from.getTime() + DAY),
    ]);
    expect((await q(`SELECT tableoid::regclass::text AS part FROM video_metric_points WHERE view_count = 8`))[0].part).toBe(
      "legacy_points",
    );
  });
});

describe("the history read", () => {
  it("is an index-only scan of the months it covers (the statement the service sends, EXPLAINed)", async () => {
    const { createWorkspace } = await import("../../src/domain/workspace/service.js");
    const { historyRange, videoHistory } = await import("../../src/domain/tracking/history.js");
    const ws = await createWorkspace({ name: "partitions" });
    await q(`INSERT INTO tracked_videos (workspace_id, video_id) VALUES ($1, $2)`, [ws.workspace.id, video]);
    await q(`INSERT INTO video_metric_points VALUES ($1, $2, 'simulated', 6, NULL, NULL, NULL, NULL)`, [
      video,
      new Date(NOW.getTime() - 60_000),
    ]);
    // Other videos' points every 6 hours over two months, so that the planner weighs a table of some size.
    const others = await q<{ id: string }>(
      `INSERT INTO videos (platform, platform_video_id, url) SELECT 'platformB', 'hq' || lpad(i::text, 9, '0'), 'https://www.youtube.com/watch?v=hq' || lpad(i::text, 9, '0')
         FROM generate_series(1, 100) i RETURNING id`,
    );
    await q(
      `INSERT INTO video_metric_points SELECT v, $2::timestamptz - h * interval '6 hours', 'simulated', h, h, h, NULL, NULL FROM unnest($1::uuid[]) v, generate_series(1, 240) h`,
      [others.map((o) => o.id), NOW],
    );
    await q(`VACUUM ANALYZE video_metric_points`);
    // A range inside this month and the one before (the points part reads only those two partitions).
    const start = new Date(Math.max(monthStart(NOW, -1).getTime() + 5 * DAY, NOW.getTime() - 29 * DAY));
    const range = historyRange(
      { interval: "hour", start_date: new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate())) },
      NOW,
    );
    const { result, queries } = await queriesOf(() => videoHistory(ws.workspace.id, video, range));
    expect(result.points.length).toBeGreaterThan(0);
    const read = queries.find((x) => x.text.includes("video_metric_points"))!;
    const plan = (await q<{ "QUERY PLAN": string }>(`EXPLAIN (COSTS OFF) ${read.text}`, read.values))
      .map((r) => r["QUERY PLAN"])
      .join("\n");
    const scans = [...plan.matchAll(/(\w[\w ]*Scan) using (video_metric_points\w*)/g)].map((m) => `${m[1]!.trim()} ${m[2]}`);
    const months = [range.fullFrom > range.from ? range.fullFrom : range.from, NOW].map(
      (d) => `video_metric_points${suffix(monthStart(d))}_pkey`,
    );
    expect(scans.sort(), plan).toEqual([...new Set(months)].map((m) => `Index Only Scan ${m}`).sort());
    expect(plan).not.toMatch(/video_metric_points_default/);
  });
});

describe("retention (job prune-history)", () => {
  it("drops the months wholly before the window (their days rolled up first), keeps the others, deletes the DEFAULT partition's old strays", async () => {
    const { pruneHistory } = await import("../../src/domain/tracking/history-partitions.js");
    const stray = new Date(monthStart(NOW, -30).getTime() + 3_600_000);
    await q(`INSERT INTO video_metric_points VALUES ($1, $2, 'simulated', 7, NULL, NULL, NULL, NULL)`, [video, stray]);
    const oldDayRow = async () =>
      q(
        `SELECT view_count::int AS v, captured_at FROM video_snapshots WHERE video_id = $1 AND day = ($2::timestamptz AT TIME ZONE 'UTC')::date`,
        [video, inMonth(-3, 8)],
      );
    expect(await oldDayRow()).toEqual([]);

    // On the 15th of this month with a 2-day window: the months before this one end before the window.
    const now = new Date(monthStart(NOW).getTime() + 14 * DAY + 12 * 3_600_000);
    const r = await pruneHistory(now, 2);
    expect(r.dropped.sort()).toEqual(
      ["video_metric_points", "account_metric_points"].flatMap((t) => [-3, -2, -1].map((m) => `${t}${suffix(monthStart(NOW, m))}`)).sort(),
    );
    expect(r.strays).toBe(1);
    expect(await q(`SELECT view_count::int AS v FROM video_metric_points WHERE video_id = $1 ORDER BY captured_at`, [video])).toEqual([
      { v: 4000 },
      { v: 6 },
      { v: 5 },
      { v: 8 },
    ]);
    expect(await q(`SELECT count(*)::int AS n FROM account_metric_points`)).toEqual([{ n: 1 }]);
    // The first point's day had no row: the roll-up wrote it (the day's last point: the second, 2000) before the drop; the stray's too.
    expect(await oldDayRow()).toEqual([{ v: 2000, captured_at: inMonth(-3, 9) }]);
    expect(await q(`SELECT view_count::int AS v FROM video_snapshots WHERE video_id = $1 AND captured_at = $2`, [video, stray])).toEqual([
      { v: 7 },
    ]);
    expect(await partitions("video_metric_points")).not.toContain(`video_metric_points${suffix(monthStart(NOW, -1))}`);
    // A point of a dropped month arriving late lands in the DEFAULT partition: an insert never fails.
    await q(`INSERT INTO video_metric_points VALUES ($1, $2, 'simulated', 9, NULL, NULL, NULL, NULL)`, [video, inMonth(-2)]);
    expect(await pruneHistory(now, 2)).toEqual({ dropped: [], strays: 1 });
  });
});
