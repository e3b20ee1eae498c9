/**
 * The growth delta tables (migration 20261122060000_growth_deltas) stay exact whoever writes
 * snapshots or trackings, in any order, concurrently. After every step the stored rows are compared
 * with a brute-force computation from the snapshots and trackings as they are in the database, and
 * growth() with the day-by-day brute force (each tracked account's latest snapshot on or before the
 * day, nulls as 0).
 */
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, pgPool, prisma } from "../../src/infra/db.js";
import { growth } from "../../src/domain/analytics/service.js";
import { fillDailySnapshots, storeScrapedAccount } from "../../src/domain/tracking/scrape-store.js";
import { newWorkspace } from "../helpers/api.js";
import { createAccount, dayDate, rng, snapshot, trackAccount } from "../folders/fixtures.js";

afterAll(async () => {
  await closeDb();
});

const DAY = 86_400_000;
const utcDay = (offsetDays: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + offsetDays * DAY).toISOString().slice(0, 10);
};

interface Snap {
  accountId: string;
  day: string;
  f: number;
  v: number;
  n: number;
}

async function snapshotsOf(accountIds: string[]): Promise<Snap[]> {
  const rows = await prisma.accountSnapshot.findMany({
    where: { accountId: { in: accountIds } },
    orderBy: [{ accountId: "asc" }, { day: "asc" }],
  });
  return rows.map((r) => ({
    accountId: r.accountId,
    day: r.day.toISOString().slice(0, 10),
    f: Number(r.followerCount ?? 0n),
    v: Number(r.totalViews ?? 0n),
    n: Number(r.videoCount ?? 0n),
  }));
}

/** Per account, each snapshot minus the previous one (the first: its values). */
function accountDeltas(snaps: Snap[]) {
  const out: { accountId: string; day: string; f: number; v: number; n: number }[] = [];
  let prev: Snap | undefined;
  for (const s of snaps) {
    const p = prev && prev.accountId === s.accountId ? prev : { f: 0, v: 0, n: 0 };
    out.push({ accountId: s.accountId, day: s.day, f: s.f - p.f, v: s.v - p.v, n: s.n - p.n });
    prev = s;
  }
  return out;
}

const key = (r: { day: string }) => r.day;
const sortByDay = <T extends { day: string }>(xs: T[]) => [...xs].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

/** Brute force of both tables and of growth('all') for the given workspaces (and every account they or `accounts` name). */
async function expectExact(workspaceIds: string[], accounts: string[] = []) {
  const tracked = await prisma.trackedAccount.findMany({ where: { workspaceId: { in: workspaceIds } } });
  const accountIds = [...new Set([...tracked.map((t) => t.accountId), ...accounts])];
  const snaps = await snapshotsOf(accountIds);
  const deltas = accountDeltas(snaps);

  const storedAccount = await prisma.accountGrowthDelta.findMany({
    where: { accountId: { in: accountIds } },
    orderBy: [{ accountId: "asc" }, { day: "asc" }],
  });
  expect(
    storedAccount.map((r) => ({
      accountId: r.accountId,
      day: r.day.toISOString().slice(0, 10),
      f: Number(r.followers),
      v: Number(r.views),
      n: Number(r.videos),
    })),
  ).toEqual(deltas);

  for (const ws of workspaceIds) {
    const mine = new Set(tracked.filter((t) => t.workspaceId === ws).map((t) => t.accountId));
    const byDay = new Map<string, { day: string; snapshots: number; f: number; v: number; n: number }>();
    for (const d of deltas) {
      if (!mine.has(d.accountId)) continue;
      const row = byDay.get(d.day) ?? { day: d.day, snapshots: 0, f: 0, v: 0, n: 0 };
      row.snapshots++;
      row.f += d.f;
      row.v += d.v;
      row.n += d.n;
      byDay.set(d.day, row);
    }
    const stored = await prisma.workspaceGrowthDelta.findMany({ where: { workspaceId: ws }, orderBy: { day: "asc" } });
    expect(
      stored.map((r) => ({
        day: r.day.toISOString().slice(0, 10),
        snapshots: r.snapshots,
        f: Number(r.followers),
        v: Number(r.views),
        n: Number(r.videos),
      })),
    ).toEqual(sortByDay([...byDay.values()]));

    // growth('all') against the day-by-day brute force (independent of the delta tables).
    const mineSnaps = snaps.filter((s) => mine.has(s.accountId));
    const first = mineSnaps.map((s) => s.day).sort()[0];
    const expected = [];
    if (first !== undefined && first <= utcDay(0)) {
      for (let t = Date.parse(`${utcDay(0)}T00:00:00Z`); t >= Date.parse(`${first}T00:00:00Z`); t -= DAY) {
        const day = new Date(t).toISOString().slice(0, 10);
        const point = { date: day, totalFollowers: 0, totalViews: 0, totalVideos: 0 };
        for (const acc of mine) {
          const latest = mineSnaps.filter((s) => s.accountId === acc && s.day <= day).at(-1);
          if (!latest) continue;
          point.totalFollowers += latest.f;
          point.totalViews += latest.v;
          point.totalVideos += latest.n;
        }
        expected.push(point);
      }
    }
    expect(await growth(ws, "all")).toEqual(expected);
    // A fixed window starts from the totals carried in from before it.
    expect(await growth(ws, "7d")).toEqual(
      expected.length >= 7
        ? expected.slice(0, 7)
        : [
            ...expected,
            ...Array.from({ length: 7 - expected.length }, (_, i) => ({
              date: utcDay(-expected.length - i),
              totalFollowers: 0,
              totalViews: 0,
              totalVideos: 0,
            })),
          ],
    );
  }
}

const upsertSql = (onConflict: string) => `
  INSERT INTO account_snapshots (account_id, day, captured_at, source, follower_count, total_views, video_count)
  SELECT * FROM unnest($1::uuid[], $2::date[], $3::timestamptz[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[])
  ON CONFLICT (account_id, day) ${onConflict}`;
const DO_UPDATE = `DO UPDATE SET captured_at = EXCLUDED.captured_at, follower_count = EXCLUDED.follower_count,
    total_views = EXCLUDED.total_views, video_count = EXCLUDED.video_count`;

/** One statement writing several snapshots (with DO UPDATE: some may be inserts, some updates of the same account). */
async function upsert(
  rows: { accountId: string; day: string; f: number | null; v: number | null; n: number | null }[],
  client: { query: typeof pgPool.query } = pgPool,
  onConflict = DO_UPDATE,
) {
  await client.query(upsertSql(onConflict), [
    rows.map((r) => r.accountId),
    rows.map((r) => r.day),
    rows.map((r) => `${r.day}T06:00:00Z`),
    rows.map(() => "simulated"),
    rows.map((r) => r.f),
    rows.map((r) => r.v),
    rows.map((r) => r.n),
  ]);
}

describe("growth deltas", () => {
  it("out-of-order snapshots and backfills, with nulls", async () => {
    const { workspaceId } = await newWorkspace();
    const [a, b] = await Promise.all([createAccount(), createAccount()]);
    await trackAccount(workspaceId, a.id);
    await trackAccount(workspaceId, b.id);
    const steps: [string, number, number | null, number | null, number | null][] = [
      [a.id, -3, 300, 3000, 3],
      [a.id, -20, 100, 1000, 1],
      [b.id, -10, 50, null, 7],
      [a.id, -10, 200, null, 2], // between two existing snapshots of A, on a day B also has one
      [a.id, -30, 10, 10, null], // before the first
      [b.id, 0, 70, 700, null],
      [a.id, 2, 999, 999, 9], // in the future: stored, outside every window
      [b.id, -5, null, null, null],
    ];
    for (const [acc, off, f, v, n] of steps) {
      await snapshot(acc, utcDay(off), { followers: f, views: v, videos: n });
      await expectExact([workspaceId]);
    }
    // One statement inserting several days of one account out of order.
    await upsert([
      { accountId: a.id, day: utcDay(-1), f: 310, v: 3100, n: 4 },
      { accountId: a.id, day: utcDay(-25), f: 50, v: 500, n: 1 },
      { accountId: a.id, day: utcDay(-15), f: 150, v: 1500, n: 1 },
      { accountId: b.id, day: utcDay(-40), f: 5, v: 5, n: 5 },
    ]);
    await expectExact([workspaceId]);
  });

  it("same-day upserts: the scrape path, one statement mixing inserts and updates of one account, UPDATE of values and of the day", async () => {
    const { workspaceId } = await newWorkspace();
    const a = await createAccount();
    await trackAccount(workspaceId, a.id);
    const scraped = (followers: number | null, views: number | null, videos: number | null) => ({
      platform: a.platform,
      username: a.username,
      platformAccountId: null,
      displayName: "",
      avatarUrl: "",
      followerCount: followers,
      videoCount: videos,
      totalViews: views,
    });
    const now = Date.now(); // createAccount stored last_scraped_at = now: later scrapes
    await snapshot(a.id, utcDay(-2), { followers: 10, views: 100, videos: 1 });
    expect(await storeScrapedAccount(a.id, scraped(20, 200, 2), { source: "simulated", now: new Date(now + 1000) })).toBe(true);
    await expectExact([workspaceId]);
    expect(await storeScrapedAccount(a.id, scraped(25, null, 3), { source: "simulated", now: new Date(now + 2000) })).toBe(true); // same day, later scrape wins
    await expectExact([workspaceId]);
    // The daily job: the account already has today's snapshot (DO NOTHING) — nothing changes.
    await fillDailySnapshots(new Date(now + 3000));
    await expectExact([workspaceId]);

    // INSERT ... ON CONFLICT DO UPDATE firing both the INSERT and the UPDATE triggers for one account.
    await upsert([
      { accountId: a.id, day: utcDay(-2), f: 11, v: 110, n: 1 }, // update
      { accountId: a.id, day: utcDay(-4), f: 5, v: 50, n: 0 }, // insert before it
      { accountId: a.id, day: utcDay(-1), f: 15, v: null, n: 2 }, // insert after it
      { accountId: a.id, day: utcDay(0), f: 30, v: 300, n: 4 }, // update
    ]);
    await expectExact([workspaceId]);

    await prisma.accountSnapshot.updateMany({
      where: { accountId: a.id, day: dayDate(utcDay(-1)) },
      data: { followerCount: null, totalViews: 1 },
    });
    await expectExact([workspaceId]);
    // Moving a snapshot to another day (and one to another account).
    await prisma.accountSnapshot.updateMany({ where: { accountId: a.id, day: dayDate(utcDay(-4)) }, data: { day: dayDate(utcDay(-8)) } });
    await expectExact([workspaceId]);
    const b = await createAccount();
    await prisma.accountSnapshot.updateMany({ where: { accountId: a.id, day: dayDate(utcDay(-2)) }, data: { accountId: b.id } });
    await expectExact([workspaceId], [b.id]);
    // An UPDATE that changes no metric changes nothing.
    await prisma.accountSnapshot.updateMany({ where: { accountId: a.id }, data: { source: "ytdlp" } });
    await expectExact([workspaceId]);
  });

  it("snapshot deletion: middle, first, last, all", async () => {
    const { workspaceId } = await newWorkspace();
    const [a, b] = await Promise.all([createAccount(), createAccount()]);
    await trackAccount(workspaceId, a.id);
    await trackAccount(workspaceId, b.id);
    for (const off of [-12, -9, -6, -3, 0])
      await snapshot(a.id, utcDay(off), { followers: 100 + off * off, views: 1000 - off, videos: -off });
    await snapshot(b.id, utcDay(-9), { followers: 7, views: 70, videos: 1 });
    await expectExact([workspaceId]);
    for (const off of [-6, -12, 0]) {
      await prisma.accountSnapshot.deleteMany({ where: { accountId: a.id, day: dayDate(utcDay(off)) } });
      await expectExact([workspaceId]);
    }
    await prisma.accountSnapshot.deleteMany({ where: { accountId: a.id } });
    await expectExact([workspaceId]);
    await prisma.accountSnapshot.deleteMany({ where: { accountId: b.id } });
    await expectExact([workspaceId]);
    expect(await prisma.workspaceGrowthDelta.count({ where: { workspaceId } })).toBe(0);
    expect(await growth(workspaceId, "all")).toEqual([]);
  });

  it("tracking and untracking, two workspaces sharing an account, account and workspace deletion (cascades)", async () => {
    const [w1, w2] = [(await newWorkspace()).workspaceId, (await newWorkspace()).workspaceId];
    const [shared, own1, own2] = await Promise.all([createAccount(), createAccount(), createAccount()]);
    const r = rng(7);
    for (const acc of [shared, own1, own2]) {
      for (let off = -60; off <= 0; off += r.int(1, 9))
        await snapshot(acc.id, utcDay(off), { followers: r.int(0, 1000), views: r.int(0, 1) ? r.int(0, 1e6) : null, videos: r.int(0, 50) });
    }
    await expectExact([w1, w2]); // nothing tracked yet: no rows
    expect(await prisma.workspaceGrowthDelta.count({ where: { workspaceId: { in: [w1, w2] } } })).toBe(0);

    await trackAccount(w1, shared.id);
    await trackAccount(w1, own1.id);
    await trackAccount(w2, shared.id);
    await trackAccount(w2, own2.id);
    await expectExact([w1, w2]);

    // A new snapshot of the shared account reaches both workspaces.
    await snapshot(shared.id, utcDay(-61), { followers: 1, views: 1, videos: 1 });
    await expectExact([w1, w2]);

    // Untracking in one workspace leaves the other as it was.
    await prisma.trackedAccount.deleteMany({ where: { workspaceId: w1, accountId: shared.id } });
    await expectExact([w1, w2]);
    await trackAccount(w1, shared.id, 10);
    await expectExact([w1, w2]);
    // Changing only the video limit changes nothing; moving a tracking to another account does.
    await prisma.trackedAccount.updateMany({ where: { workspaceId: w1 }, data: { videoLimit: 20 } });
    await expectExact([w1, w2]);
    await prisma.trackedAccount.updateMany({ where: { workspaceId: w1, accountId: own1.id }, data: { accountId: own2.id } });
    await expectExact([w1, w2]);

    // Deleting an account cascades to its snapshots and trackings.
    await prisma.account.delete({ where: { id: shared.id } });
    await expectExact([w1, w2], [shared.id]);
    expect(await prisma.accountGrowthDelta.count({ where: { accountId: shared.id } })).toBe(0);

    // Deleting a workspace cascades to its trackings: its rows go, the other workspace's stay.
    await prisma.workspace.delete({ where: { id: w1 } });
    expect(await prisma.workspaceGrowthDelta.count({ where: { workspaceId: w1 } })).toBe(0);
    await expectExact([w2]);
  });

  it("concurrent snapshot writes, deletions and trackings on shared accounts stay exact", async () => {
    const [w1, w2] = [(await newWorkspace()).workspaceId, (await newWorkspace()).workspaceId];
    const accounts = await Promise.all(Array.from({ length: 4 }, () => createAccount()));
    await trackAccount(w1, accounts[0]!.id);
    await trackAccount(w1, accounts[1]!.id);
    await trackAccount(w2, accounts[1]!.id);
    await trackAccount(w2, accounts[2]!.id);
    const r = rng(42);
    // Each task: one transaction with one statement of the kinds the service issues (a scrape's
    // one-row upsert, the daily job's insert-only batch in account order, a deletion, a tracking or
    // untracking), then a short sleep holding its locks, so that many overlap (pgPool has 20
    // connections, 12 run at once). See prisma/schema/analytics.prisma on statements firing two growth triggers.
    const task = async (i: number) => {
      const acc = accounts[r.int(0, 3)]!.id;
      const kind = r.int(0, 9);
      const row = () => ({
        accountId: kind < 5 ? acc : accounts[r.int(0, 3)]!.id,
        day: utcDay(-r.int(0, 30)),
        f: r.int(0, 5000),
        v: r.int(0, 3) ? r.int(0, 1e7) : null,
        n: r.int(0, 99),
      });
      const rows = kind < 5 ? [row()] : Array.from({ length: r.int(2, 5) }, row);
      const batch = [...new Map(rows.map((x) => [`${x.accountId}:${x.day}`, x])).values()].sort((x, y) =>
        `${x.accountId}:${x.day}` < `${y.accountId}:${y.day}` ? -1 : 1,
      );
      const delDay = utcDay(-r.int(0, 30));
      const client = await pgPool.connect();
      try {
        await client.query("BEGIN");
        if (kind < 5) await upsert(batch, client);
        else if (kind < 8) await upsert(batch, client, "DO NOTHING");
        else if (kind === 8) await client.query(`DELETE FROM account_snapshots WHERE account_id = $1 AND day = $2`, [acc, delDay]);
        else if (i % 2 === 0)
          await client.query(`DELETE FROM tracked_accounts WHERE workspace_id = $1 AND account_id = $2`, [w1, accounts[3]!.id]);
        else
          await client.query(`INSERT INTO tracked_accounts (workspace_id, account_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
            w1,
            accounts[3]!.id,
          ]);
        await client.query(`SELECT pg_sleep(${r.int(0, 20) / 1000})`);
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK");
        throw e;
      } finally {
        client.release();
      }
    };
    let next = 0;
    const TASKS = 160;
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        while (next < TASKS) await task(next++);
      }),
    );
    expect(await prisma.accountSnapshot.count({ where: { accountId: { in: accounts.map((a) => a.id) } } })).toBeGreaterThan(40);
    await expectExact(
      [w1, w2],
      accounts.map((a) => a.id),
    );
  }, 120_000);
});
