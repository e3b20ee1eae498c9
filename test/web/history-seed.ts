/**
 * A month of simulated history for a tracked video or account, before its one real scrape: daily rows
 * and points, and hourly points over the last day, rising to its scraped numbers. The history chart
 * (and the README's screenshot of it) then shows a curve, not one dot. Marked `simulated`, like
 * every number of these tests.
 */

/** Where each kind's history lives, and the metrics its chart draws (they rise; the others stay null). */
const KINDS = {
  video: {
    items: "videos",
    handle: "platform_video_id",
    key: "video_id",
    points: "video_metric_points",
    daily: "video_snapshots",
    metrics: ["view_count", "like_count"],
  },
  account: {
    items: "accounts",
    handle: "username",
    key: "account_id",
    points: "account_metric_points",
    daily: "account_snapshots",
    metrics: ["follower_count", "total_views"],
  },
} as const;

/** `handle`: the video's platform id, or the account's username. */
export async function seedRisingHistory(kind: keyof typeof KINDS, handle: string): Promise<void> {
  const t = KINDS[kind];
  const { pgPool } = await import("../../src/infra/db.js");
  const columns = t.metrics.join(", ");
  const { rows } = await pgPool.query<Record<string, string>>(`SELECT id, ${columns} FROM ${t.items} WHERE ${t.handle} = $1`, [handle]);
  const item = rows[0]!;
  const valuesAt = (f: number) => t.metrics.map((m) => Math.round(Number(item[m]) * f));
  const HOUR = 3_600_000;
  const now = Date.now();
  const today = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate());
  // Share of today's numbers reached `hoursAgo` hours ago: fast early growth, flattening.
  const share = (hoursAgo: number) => 1 - 0.7 * Math.pow(hoursAgo / (31 * 24), 0.6);
  const insertPoint = (at: Date, f: number) =>
    pgPool.query(
      `INSERT INTO ${t.points} (${t.key}, captured_at, source, ${columns}) VALUES ($1, $2, 'simulated', $3, $4) ON CONFLICT DO NOTHING`,
      [item.id, at, ...valuesAt(f)],
    );
  for (let d = 30; d >= 1; d--) {
    const noon = new Date(today - d * 24 * HOUR + 12 * HOUR);
    const f = share((now - noon.getTime()) / HOUR);
    await insertPoint(noon, f);
    await pgPool.query(
      `INSERT INTO ${t.daily} (${t.key}, day, captured_at, source, ${columns}) VALUES ($1, $2::date, $3, 'simulated', $4, $5) ON CONFLICT DO NOTHING`,
      [item.id, noon.toISOString().slice(0, 10), noon, ...valuesAt(f)],
    );
  }
  for (let h = 30; h >= 1; h--) {
    const at = new Date(now - h * HOUR - 17 * 60_000);
    await insertPoint(at, share(h + 0.3));
  }
}
