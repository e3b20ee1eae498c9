/**
 * Campaigns and creator payouts against real PostgreSQL, on every door.
 *
 * The seeded campaign: 20 creators (one with a second account), one account in the campaign without
 * a creator, one account outside it; 300 videos over October 2026 in Europe/Paris (the window crosses
 * the switch from summer time) with a month of simulated history inserted by bulk SQL (a point
 * every 6 hours, `simulated` and `ytdlp` sources, some videos with no history before the window,
 * some with none at all), one video added by hand, one excluded by hand, a per-creator override.
 * Its payouts (per video, per creator, totals) equal a HAND-WRITTEN SQL over the same history on
 * GraphQL, REST, MCP and in the export (CSV and XLSX); closing freezes them (a later point changes nothing). Rounding half-up and
 * the caps are checked at their edges; another workspace sees 404; a member may not change a
 * campaign; the budget events are recorded once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { mcpCall as callTool } from "../helpers/mcp.js";
import { newPerson, personClient, PASSWORD } from "../helpers/people.js";
import type { RunningApi } from "../../src/main/server.js";
import { pgPool } from "../../src/infra/db.js";
import { checkCampaignBudgets } from "../../src/domain/campaigns/close.js";
import { notifyEvents } from "../../src/domain/notifications/consume.js";
import { columnNames } from "../../src/domain/exports/stream.js";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await stopAll(api);
});

const P = "/api/v1";
const q = async <T = any>(text: string, params: unknown[] = []) => (await pgPool.query(text, params)).rows as T[];

const mcpCall = (key: string, name: string, args: Record<string, unknown>) => callTool(api.url, key, name, args);

/** `n` accounts tracked by the workspace, by bulk SQL; answers their ids in order. */
async function seedAccounts(workspaceId: string, n: number): Promise<string[]> {
  const prefix = `c${randomUUID().slice(0, 8)}`;
  const rows = await q<{ id: string }>(
    `WITH a AS (
       INSERT INTO accounts (platform, username, display_name, data_source, scrape_status, last_scraped_at)
       SELECT (ARRAY['platformA','platformB','platformC'])[1 + i % 3]::"Platform", $2 || '_' || i, 'Creator ' || i, 'simulated', 'ready', now()
         FROM generate_series(1, $1::int) i RETURNING id, username)
     , t AS (INSERT INTO tracked_accounts (workspace_id, account_id) SELECT $3::uuid, id FROM a)
     SELECT id::text FROM a ORDER BY split_part(username, '_', 2)::int`,
    [n, prefix, workspaceId],
  );
  return rows.map((r) => r.id);
}

/** Videos of accounts (posted at given instants), tracked by the workspace; answers their ids in order. */
async function seedVideos(
  workspaceId: string,
  owners: string[],
  postedAt: Date[],
  opts: { lastScrapedAt?: (Date | null)[]; hashtags?: string[][] } = {},
): Promise<string[]> {
  const rows = await q<{ id: string }>(
    `WITH x AS (SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[], $4::text[]) WITH ORDINALITY AS x(account_id, posted_at, scraped, tags, n)),
     v AS (
       INSERT INTO videos (platform, platform_video_id, url, username, account_id, posted_at, hashtags, view_count, data_source, scrape_status, last_scraped_at)
       SELECT a.platform, $5 || x.n, 'https://video.example.test/' || $5 || x.n, a.username, x.account_id, x.posted_at,
              CASE WHEN x.tags = '' THEN '{}'::text[] ELSE string_to_array(x.tags, ',') END, 0, 'simulated', 'ready', x.scraped
         FROM x JOIN accounts a ON a.id = x.account_id ORDER BY x.n RETURNING id, platform_video_id),
     t AS (INSERT INTO tracked_videos (workspace_id, video_id) SELECT $6::uuid, id FROM v)
     SELECT v.id::text FROM v ORDER BY substring(v.platform_video_id FROM 9)::int`,
    [
      owners,
      postedAt,
      opts.lastScrapedAt ?? postedAt.map(() => new Date()),
      opts.hashtags?.map((h) => h.join(",")) ?? postedAt.map(() => ""),
      randomUUID().replace(/-/g, "").slice(0, 8),
      workspaceId,
    ],
  );
  return rows.map((r) => r.id);
}

async function points(videoId: string, list: [Date, number, string?][]): Promise<void> {
  await q(
    `INSERT INTO video_metric_points (video_id, captured_at, source, view_count) SELECT $1::uuid, at, src, views
       FROM unnest($2::timestamptz[], $3::int8[], $4::text[]) AS x(at, views, src)`,
    [videoId, list.map((p) => p[0]), list.map((p) => p[1]), list.map((p) => p[2] ?? "simulated")],
  );
}

const H = 3_600_000;
const D = 24 * H;
// October 2026 in Europe/Paris: from 2026-10-01 00:00 CEST (UTC+2) to 2026-11-01 00:00 CET (UTC+1).
const S = new Date("2026-09-30T22:00:00Z");
const E = new Date("2026-10-31T23:00:00Z");

/**
 * The hand-written SQL: for the given videos (with their payee and effective rule), views earned from
 * the history with correlated subqueries, the CPM part by integer division, the caps with CASE, the
 * per-creator cap over a running sum in posting order. Written apart from src/domain/campaigns on purpose.
 */
async function handPayouts(
  list: { id: string; payee: string; posted: Date; cpm: number | null; capV: number | null; capC: number | null; fee: number }[],
) {
  return q<{ id: string; views: string; payout: string; startAt: Date | null; endAt: Date | null }>(
    `WITH x AS (SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::int8[], $5::int8[], $6::int8[], $7::int8[]) AS x(id, payee, posted, cpm, capv, capc, fee)),
     v AS (
       SELECT x.*,
         (SELECT p.view_count FROM video_metric_points p WHERE p.video_id = x.id AND p.captured_at <= $9 ORDER BY p.captured_at DESC LIMIT 1) AS end_views,
         (SELECT p.captured_at FROM video_metric_points p WHERE p.video_id = x.id AND p.captured_at <= $9 ORDER BY p.captured_at DESC LIMIT 1) AS end_at,
         CASE WHEN x.posted >= $8 THEN 0 ELSE coalesce(
           (SELECT p.view_count FROM video_metric_points p WHERE p.video_id = x.id AND p.captured_at <= $8 ORDER BY p.captured_at DESC LIMIT 1),
           (SELECT p.view_count FROM video_metric_points p WHERE p.video_id = x.id AND p.captured_at > $8 ORDER BY p.captured_at LIMIT 1)) END AS start_views,
         CASE WHEN x.posted >= $8 THEN x.posted ELSE coalesce(
           (SELECT p.captured_at FROM video_metric_points p WHERE p.video_id = x.id AND p.captured_at <= $8 ORDER BY p.captured_at DESC LIMIT 1),
           (SELECT p.captured_at FROM video_metric_points p WHERE p.video_id = x.id AND p.captured_at > $8 ORDER BY p.captured_at LIMIT 1)) END AS start_at
       FROM x),
     e AS (SELECT v.*, CASE WHEN end_views IS NULL OR start_at IS NULL OR end_at < start_at OR end_views < start_views THEN 0 ELSE end_views - start_views END AS views FROM v),
     c AS (SELECT e.*, CASE WHEN cpm IS NULL THEN 0 ELSE (views * cpm + 500) / 1000 END AS cpm_part FROM e),
     a AS (SELECT c.*, (CASE WHEN capv IS NOT NULL AND cpm_part > capv THEN capv ELSE cpm_part END) + fee AS amount FROM c),
     r AS (SELECT a.*, sum(amount) OVER (PARTITION BY payee ORDER BY posted, id) - amount AS before FROM a)
     SELECT id::text, views::text, start_at AS "startAt", end_at AS "endAt", (CASE WHEN capc IS NULL THEN amount WHEN before >= capc THEN 0 WHEN before + amount > capc THEN capc - before ELSE amount END)::text AS payout
       FROM r ORDER BY id`,
    [
      list.map((l) => l.id),
      list.map((l) => l.payee),
      list.map((l) => l.posted),
      list.map((l) => l.cpm),
      list.map((l) => l.capV),
      list.map((l) => l.capC),
      list.map((l) => l.fee),
      S,
      E,
    ],
  );
}

const CAMPAIGN_FIELDS = `id uuid name status currency
  totals { videos viewsEarned payout budgetMinor budgetUsedPercent remainingMinor frozen }
  creators { creator { uuid name } account { uuid } payeeName videos viewsEarned payout creatorCapCut }`;

async function gqlAllRows(key: string, id: string) {
  const rows: any[] = [];
  let after: string | null = null;
  for (;;) {
    const r: any = await gql(
      api.url,
      key,
      `query($id: ID!, $after: String) { campaign(id: $id) { videos(first: 100, after: $after) { totalCount pageInfo { hasNextPage endCursor }
      edges { node { videoId payout viewsEarned cpmAmount feeAmount perVideoCapCut creatorCapCut start { at views source simulated } end { at views source simulated } creator { uuid } } } } } }`,
      { id, after },
    );
    expect(r.body.errors).toBeUndefined();
    const c: any = r.body.data.campaign.videos;
    rows.push(...c.edges.map((e: any) => e.node));
    if (!c.pageInfo.hasNextPage) return { rows, total: c.totalCount };
    after = c.pageInfo.endCursor;
  }
}

async function restAllRows(c: ReturnType<typeof client>, id: string) {
  const rows: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const r = await c.get(`${P}/campaigns/${id}/payouts/videos?limit=100&offset=${offset}`);
    expect(r.status).toBe(200);
    rows.push(...r.body.data);
    if (!r.body.pagination.has_more) return rows;
  }
}

describe("a seeded campaign: 20 creators, 300 videos, a month of history", () => {
  it("pays what the hand-written SQL says on GraphQL, REST and MCP, and freezes on closing", async () => {
    const ws = await newWorkspace("pro", "Campaigns");
    const c = client(api.url, ws.key);
    const accounts = await seedAccounts(ws.workspaceId, 23); // 0..19: creators 0..19; 20: creator 0's second; 21: member without creator; 22: outside
    const posted: Date[] = [];
    const owners: string[] = [];
    const scraped: (Date | null)[] = [];
    for (let j = 0; j < 300; j++) {
      owners.push(accounts[j % 22]!);
      // From 5 days before the window to 4 days after it, on odd minutes (never on a point).
      posted.push(new Date(S.getTime() - 5 * D + ((j * 7919) % (40 * 24 * 60)) * 60_000 + 30_000));
      scraped.push(j % 10 === 0 ? new Date(Date.now() - 2 * D) : new Date());
    }
    for (let j = 0; j < 5; j++) {
      owners.push(accounts[22]!);
      posted.push(new Date(S.getTime() + (j + 1) * D));
      scraped.push(new Date());
    }
    const videos = await seedVideos(ws.workspaceId, owners, posted, { lastScrapedAt: scraped });
    // History: a point every 6 hours from the later of posting and 10 days before the window to 3 days after it, views growing with
    // age at a rate per video; every 25th video's history starts 3 days into the window, every 50th (from 1) has none at all.
    const t0 = Date.now();
    await q(
      `INSERT INTO video_metric_points (video_id, captured_at, source, view_count)
       SELECT v.id, g, CASE WHEN x.n % 3 = 0 THEN 'ytdlp' ELSE 'simulated' END,
              floor((50 + (x.n * 7919) % 500) * extract(epoch FROM g - v.posted_at) / 3600 + power(extract(epoch FROM g - v.posted_at) / 3600, 2) * 0.3)::int8
         FROM unnest($1::uuid[]) WITH ORDINALITY AS x(id, n) JOIN videos v ON v.id = x.id
         CROSS JOIN LATERAL generate_series(
           date_trunc('hour', CASE WHEN x.n % 25 = 0 THEN $2::timestamptz + interval '3 days' ELSE greatest(v.posted_at, $2::timestamptz - interval '10 days') END) + interval '1 hour',
           $3::timestamptz + interval '3 days', interval '6 hours') g
        WHERE x.n % 50 <> 1 AND g > v.posted_at`,
      [videos, S, E],
    );
    expect(Date.now() - t0).toBeLessThan(10_000);

    const creators: string[] = [];
    for (let k = 0; k < 20; k++) {
      const made = await c.post(`${P}/creators`, { name: `Creator ${String(k).padStart(2, "0")}`, contact: `c${k}@example.test` });
      expect(made.status).toBe(201);
      creators.push(made.body.data.id);
      const assigned = await c.post(`${P}/creators/${made.body.data.id}/accounts`, {
        account_ids: k === 0 ? [accounts[0], accounts[20]] : [accounts[k]],
      });
      expect(assigned.body.data.every((r: any) => r.success)).toBe(true);
    }
    // An account belongs to at most one creator.
    expect((await c.post(`${P}/creators/${creators[1]}/accounts`, { account_ids: [accounts[0]] })).body.data[0]).toEqual({
      id: accounts[0],
      success: false,
      error: "Account belongs to another creator",
    });

    const RULE = { cpm_minor: 250, cap_per_video_minor: 40_000, cap_per_creator_minor: 150_000, fee_per_video_minor: 500 };
    const made = await c.post(`${P}/campaigns`, {
      name: "October UGC",
      starts_at: "2026-10-01",
      ends_at: "2026-11-01T00:00",
      time_zone: "Europe/Paris",
      currency: "eur",
      budget_minor: 5_000_000,
      ...RULE,
    });
    expect(made.status).toBe(201);
    const camp = made.body.data;
    expect(camp).toMatchObject({
      startsAt: "2026-10-01T00:00:00",
      endsAt: "2026-11-01T00:00:00",
      startsAtUtc: S.toISOString(),
      endsAtUtc: E.toISOString(),
      currency: "EUR",
    });
    const members = await c.post(`${P}/campaigns/${camp.id}/members`, { creator_ids: creators, account_ids: [accounts[21]] });
    expect(members.body.data.every((r: any) => r.success)).toBe(true);
    const handAdded = videos[301]!;
    const excluded = videos.find((_v, j) => j < 300 && posted[j]! >= S && posted[j]! < E && j % 22 === 3)!;
    expect((await c.post(`${P}/campaigns/${camp.id}/videos`, { video_ids: [handAdded] })).body.data[0].success).toBe(true);
    expect((await c.post(`${P}/campaigns/${camp.id}/excluded-videos`, { video_ids: [excluded] })).body.data[0].success).toBe(true);
    const OVERRIDE = { cpm_minor: 400, cap_per_video_minor: null, cap_per_creator_minor: null, fee_per_video_minor: null };
    expect(
      (
        await c.raw("PUT", `${P}/campaigns/${camp.id}/creators/${creators[3]}/rule`, {
          rawBody: JSON.stringify(OVERRIDE),
          headers: { "content-type": "application/json" },
        })
      ).status,
    ).toBe(200);

    // What qualifies, by construction, and each video's payee and rule.
    const expected = videos
      .map((id, j) => ({ id, j, owner: owners[j]!, posted: posted[j]! }))
      .filter((v) => (v.j < 300 && v.posted >= S && v.posted < E && v.id !== excluded) || v.id === handAdded)
      .map((v) => {
        const a = accounts.indexOf(v.owner);
        const creator = a === 20 ? creators[0]! : a < 20 ? creators[a]! : null;
        const r = creator === creators[3] ? OVERRIDE : RULE;
        return {
          id: v.id,
          creator,
          payee: creator ?? v.owner,
          posted: v.posted,
          cpm: r.cpm_minor,
          capV: r.cap_per_video_minor,
          capC: r.cap_per_creator_minor,
          fee: r.fee_per_video_minor ?? 0,
        };
      });
    expect(expected.length).toBeGreaterThan(200);
    const hand = await handPayouts(expected);
    const handById = new Map(hand.map((h) => [h.id, { views: Number(h.views), payout: Number(h.payout) }]));
    const handTotal = hand.reduce((s, h) => s + Number(h.payout), 0);
    const handByCreator = new Map<string, number>();
    for (const e of expected) handByCreator.set(e.payee, (handByCreator.get(e.payee) ?? 0) + handById.get(e.id)!.payout);
    // The caps do bite in this data (otherwise the test would not test them).
    expect(hand.some((h) => Number(h.payout) === 150_000 - 0) || [...handByCreator.values()].some((v) => v === 150_000)).toBe(true);

    // GraphQL: every row, its evidence, the creators and the totals.
    const g = await gqlAllRows(ws.key, camp.id);
    expect(g.total).toBe(expected.length);
    expect(new Map(g.rows.map((r) => [r.videoId, { views: r.viewsEarned, payout: r.payout }]))).toEqual(handById);
    for (const r of g.rows) {
      expect(r.payout).toBe(r.cpmAmount + r.feeAmount - r.creatorCapCut);
      if (r.end) expect(r.end.simulated).toBe(r.end.source === "simulated");
    }
    // Every video here was posted inside the window: its start is 0 views at posting; its end the last point at or before the end.
    const handRow = new Map(hand.map((h) => [h.id, h]));
    for (const r of g.rows) {
      expect(r.start).toMatchObject({ views: 0, source: "posting", simulated: false });
      // The evidence is the hand-written SQL's two points.
      expect(new Date(r.start.at).getTime()).toBe(handRow.get(r.videoId)!.startAt!.getTime());
      expect(r.end === null ? null : new Date(r.end.at).getTime()).toBe(handRow.get(r.videoId)!.endAt?.getTime() ?? null);
    }
    expect(g.rows.filter((r) => r.end === null).length).toBeGreaterThan(0); // the videos without any history: 0 views, the fee only
    expect(new Set(g.rows.map((r) => r.end?.source))).toEqual(new Set(["simulated", "ytdlp", undefined]));
    const gc = await gql(
      api.url,
      ws.key,
      `query($id: ID!) { campaign(id: $id) { ${CAMPAIGN_FIELDS} spendOverTime { at payout } staleVideos { videoId } } }`,
      { id: camp.id },
    );
    expect(gc.body.errors).toBeUndefined();
    const gcamp = gc.body.data.campaign;
    expect(gcamp.totals).toMatchObject({
      videos: expected.length,
      payout: handTotal,
      frozen: false,
      budgetMinor: 5_000_000,
      remainingMinor: 5_000_000 - handTotal,
    });
    expect(gcamp.creators.reduce((s: number, r: any) => s + r.payout, 0)).toBe(handTotal);
    expect(new Map(gcamp.creators.map((r: any) => [r.creator?.uuid ?? r.account.uuid, r.payout]))).toEqual(handByCreator);
    // The spend over time: one point per local day (31), growing, ending at the total.
    expect(gcamp.spendOverTime).toHaveLength(31);
    expect(gcamp.spendOverTime.at(-1)).toEqual({ at: E.toISOString(), payout: handTotal });
    for (let i = 1; i < 31; i++) expect(gcamp.spendOverTime[i].payout).toBeGreaterThanOrEqual(gcamp.spendOverTime[i - 1].payout);
    const staleExpected = expected
      .filter((e) => videos.indexOf(e.id) % 10 === 0)
      .map((e) => e.id)
      .sort();
    expect(gcamp.staleVideos.map((v: any) => v.videoId).sort()).toEqual(staleExpected);

    // REST: the same rows and payouts.
    const restRows = await restAllRows(c, camp.id);
    expect(new Map(restRows.map((r) => [r.videoId, { views: r.viewsEarned, payout: r.payout }]))).toEqual(handById);
    const payouts = await c.get(`${P}/campaigns/${camp.id}/payouts`);
    expect(payouts.body.data.totals).toMatchObject({ payout: handTotal, videos: expected.length, currency: "EUR", frozen: false });
    expect(new Map(payouts.body.data.creators.map((r: any) => [r.creatorId ?? r.accountId, r.payout]))).toEqual(handByCreator);

    // MCP: what do we owe creator 7?
    const owe = await mcpCall(ws.key, "get_campaign_payouts", { campaign_id: camp.id, creator_id: creators[7] });
    expect(owe.isError).toBe(false);
    expect(owe.body.data.creators).toEqual([expect.objectContaining({ creatorId: creators[7], payout: handByCreator.get(creators[7]!) })]);
    expect(owe.body.data.videos.reduce((s: number, r: any) => s + r.payout, 0)).toBe(handByCreator.get(creators[7]!));
    const all = await mcpCall(ws.key, "get_campaign_payouts", { campaign_id: camp.id });
    expect(all.body.data.totals.payout).toBe(handTotal);
    expect((await mcpCall(ws.key, "list_campaigns", {})).body.data.map((x: any) => x.id)).toEqual([camp.id]);
    expect((await mcpCall(ws.key, "list_creators", { limit: 100 })).body.data).toHaveLength(20);

    // Closing freezes: a later point inside the window, a changed point and a new member change nothing.
    const closed = await c.post(`${P}/campaigns/${camp.id}/close`);
    expect(closed.status).toBe(200);
    expect(closed.body.data.status).toBe("closed");
    const moved = expected[0]!.id;
    await q(`UPDATE video_metric_points SET view_count = view_count + 1000000 WHERE video_id = $1`, [moved]);
    await points(moved, [[new Date(E.getTime() - 60_000), 99_000_000, "ytdlp"]]);
    const after = await c.get(`${P}/campaigns/${camp.id}/payouts`);
    expect(after.body.data.totals).toMatchObject({ payout: handTotal, frozen: true });
    expect(new Map((await restAllRows(c, camp.id)).map((r) => [r.videoId, { views: r.viewsEarned, payout: r.payout }]))).toEqual(handById);
    const gAfter = await gql(
      api.url,
      ws.key,
      `query($id: ID!) { campaign(id: $id) { status totals { payout frozen } spendOverTime { at payout } staleVideos { videoId } } }`,
      { id: camp.id },
    );
    expect(gAfter.body.data.campaign).toEqual({
      status: "CLOSED",
      totals: { payout: handTotal, frozen: true },
      spendOverTime: gcamp.spendOverTime,
      staleVideos: [],
    });
    expect((await mcpCall(ws.key, "get_campaign_payouts", { campaign_id: camp.id })).body.data.totals.payout).toBe(handTotal);
    expect((await c.post(`${P}/campaigns/${camp.id}/close`)).body.code).toBe("CAMPAIGN_CLOSED");
    expect((await c.patch(`${P}/campaigns/${camp.id}`, { name: "x" })).status).toBe(409);
    expect((await c.post(`${P}/campaigns/${camp.id}/videos`, { video_ids: [moved] })).body.code).toBe("CAMPAIGN_CLOSED");
    // The export for finance (kind campaign_payouts): every frozen row as CSV and as XLSX, the same payouts.
    const file = (format: string) =>
      fetch(`${api.url}${P}/campaigns/${camp.id}/payouts/videos?format=${format}`, { headers: { authorization: `Bearer ${ws.key}` } });
    const csv = await file("csv");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="campaign-payouts-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toBe(columnNames("campaign_payouts").join(","));
    const csvRows = parse(text, { columns: true }) as Record<string, string>[];
    expect(new Map(csvRows.map((r) => [r.videoId, { views: Number(r.viewsEarned), payout: Number(r.payout) }]))).toEqual(handById);
    expect(new Set(csvRows.map((r) => r.currency))).toEqual(new Set(["EUR"]));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await (await file("xlsx")).arrayBuffer()) as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(columnNames("campaign_payouts"));
    let xlsxTotal = 0;
    for (let i = 2; i <= sheet.rowCount; i++) xlsxTotal += Number(sheet.getRow(i).getCell(header.indexOf("payout") + 1).value);
    expect([sheet.rowCount - 1, xlsxTotal]).toEqual([expected.length, handTotal]);
    const events = await q<{ type: string; data: any }>(
      `SELECT type, data FROM workspace_events WHERE workspace_id = $1 ORDER BY created_at`,
      [ws.workspaceId],
    );
    expect(events.find((e) => e.type === "campaign.closed")?.data).toMatchObject({
      campaignId: camp.id,
      payoutMinor: handTotal,
      currency: "EUR",
      videos: expected.length,
    });
  });
});

describe("rounding and caps at their edges", () => {
  async function edgeCampaign() {
    const ws = await newWorkspace("pro", "Edges");
    const c = client(api.url, ws.key);
    const [acc] = await seedAccounts(ws.workspaceId, 1);
    const creator = (await c.post(`${P}/creators`, { name: "Edge" })).body.data.id;
    await c.post(`${P}/creators/${creator}/accounts`, { account_ids: [acc] });
    // Four videos posted before the window, in this order; their views earned: 1500, 1499, 2500, 3500.
    const vids = await seedVideos(
      ws.workspaceId,
      [acc!, acc!, acc!, acc!],
      [1, 2, 3, 4].map((i) => new Date(S.getTime() - i * D)),
    );
    const earned = [1500, 1499, 2500, 3500];
    for (const [i, v] of vids.entries()) {
      await points(v, [
        [new Date(S.getTime() - H), 7], // before the start point: not used
        [S, 1000, "ytdlp"], // exactly at the start: used
        [E, 1000 + earned[i]!, "simulated"], // exactly at the end: used
        [new Date(E.getTime() + 1), 10_000_000], // a millisecond after the end: not used
      ]);
    }
    const camp = (
      await c.post(`${P}/campaigns`, {
        name: "Edges",
        starts_at: S.toISOString().slice(0, 19),
        ends_at: E.toISOString().slice(0, 19),
        time_zone: "UTC",
        currency: "USD",
        cpm_minor: 1,
      })
    ).body.data;
    await c.post(`${P}/campaigns/${camp.id}/members`, { creator_ids: [creator] });
    // Posted before the window: they count only when added by hand, and their start is the last point at or before the start.
    expect((await c.get(`${P}/campaigns/${camp.id}/payouts`)).body.data.totals.videos).toBe(0);
    await c.post(`${P}/campaigns/${camp.id}/videos`, { video_ids: vids });
    const rows = async () => {
      const r = await c.get(`${P}/campaigns/${camp.id}/payouts/videos?limit=100`);
      return new Map(r.body.data.map((x: any) => [x.videoId, x]));
    };
    return { c, camp, vids, rows };
  }

  it("rounds half-up per row (1.5 → 2, 1.499 → 1, 2.5 → 3, 3.5 → 4) from the points exactly at the window's ends", async () => {
    const { c, camp, vids, rows } = await edgeCampaign();
    const r = await rows();
    expect(vids.map((v) => (r.get(v) as any).cpmAmount)).toEqual([2, 1, 3, 4]);
    const first = r.get(vids[0]!) as any;
    expect(first.start).toEqual({ at: S.toISOString(), views: 1000, source: "ytdlp", simulated: false });
    expect(first.end).toEqual({ at: E.toISOString(), views: 2500, source: "simulated", simulated: true });
    const t = (await c.get(`${P}/campaigns/${camp.id}/payouts`)).body.data.totals;
    // Totals are the sum of the rounded rows (10), not the rounded sum (8.999 → 9).
    expect(t.payout).toBe(10);
    // No history at or before the start (tracked late): the first point after it is the start (never invented views).
    await q(`DELETE FROM video_metric_points WHERE video_id = $1 AND captured_at <= $2`, [vids[0], S]);
    await points(vids[0]!, [[new Date(S.getTime() + H), 1100, "ytdlp"]]);
    const late = (await rows()).get(vids[0]!) as any;
    expect([late.start, late.viewsEarned, late.cpmAmount]).toEqual([
      { at: new Date(S.getTime() + H).toISOString(), views: 1100, source: "ytdlp", simulated: false },
      1400,
      1,
    ]);
  });

  it("a CPM and a view count past any real payout give the bounded amount (10^12 per video), never a 500", async () => {
    const { c, camp, vids, rows } = await edgeCampaign();
    expect((await c.patch(`${P}/campaigns/${camp.id}`, { cpm_minor: 1_000_000_000_000 })).status).toBe(200);
    // 2·10^10 views × 10^12 per 1,000 is 2·10^19: past int8. Each video's CPM part stops at 10^12.
    await q(`UPDATE video_metric_points SET view_count = 20000000000 WHERE video_id = $1 AND captured_at = $2`, [vids[0], E]);
    const r = await rows();
    expect(vids.map((v) => (r.get(v) as any).cpmAmount)).toEqual(Array(4).fill(1_000_000_000_000));
    const totals = await c.get(`${P}/campaigns/${camp.id}/payouts`);
    expect([totals.status, totals.body.data.totals.payout]).toEqual([200, 4_000_000_000_000]);
    expect((await c.patch(`${P}/campaigns/${camp.id}`, { cpm_minor: 1_000_000_000_001 })).body.code).toBe("VALIDATION_ERROR");
  });

  it("caps per video and per creator at exact boundaries; the creator cap is spread in posting order", async () => {
    const { c, camp, vids, rows } = await edgeCampaign();
    // cpm 1000: CPM parts 1500, 1499, 2500, 3500; cap per video exactly 2500: the third is not cut, the fourth is cut by 1000.
    await c.patch(`${P}/campaigns/${camp.id}`, { cpm_minor: 1000, cap_per_video_minor: 2500 });
    let r = await rows();
    expect(vids.map((v) => [(r.get(v) as any).cpmAmount, (r.get(v) as any).perVideoCapCut])).toEqual([
      [1500, 0],
      [1499, 0],
      [2500, 0],
      [2500, 1000],
    ]);
    // Sum 7999 + fees 4 × 1 = 8003. A creator cap of exactly 8003 cuts nothing; 8002 cuts 1 from the last row (posted first → paid first).
    await c.patch(`${P}/campaigns/${camp.id}`, { fee_per_video_minor: 1, cap_per_creator_minor: 8003 });
    r = await rows();
    expect(vids.map((v) => (r.get(v) as any).creatorCapCut)).toEqual([0, 0, 0, 0]);
    await c.patch(`${P}/campaigns/${camp.id}`, { cap_per_creator_minor: 8002 });
    r = await rows();
    // Posting order: vids[3] (4 days before), vids[2], vids[1], vids[0] last.
    expect(vids.map((v) => (r.get(v) as any).creatorCapCut)).toEqual([1, 0, 0, 0]);
    await c.patch(`${P}/campaigns/${camp.id}`, { cap_per_creator_minor: 3000 });
    r = await rows();
    expect(vids.map((v) => (r.get(v) as any).payout)).toEqual([0, 0, 0, 2501].map((x, i) => (i === 2 ? 499 : x)));
    const p = (await c.get(`${P}/campaigns/${camp.id}/payouts`)).body.data;
    expect(p.creators[0]).toMatchObject({ payout: 3000, amountBeforeCreatorCap: 8003, creatorCapCut: 5003 });
    expect(p.totals.payout).toBe(3000);
  });
});

describe("tenancy, roles, validation and budget events", () => {
  it("another workspace sees 404; a member may read but not change; inputs are checked; 80 % and 100 % are announced once", async () => {
    const ws = await newWorkspace("pro", "Mine");
    const other = await newWorkspace("pro", "Other");
    const c = client(api.url, ws.key);
    const o = client(api.url, other.key);
    const [acc] = await seedAccounts(ws.workspaceId, 1);
    const [v] = await seedVideos(ws.workspaceId, [acc!], [new Date(S.getTime() + D)]);
    await points(v!, [[new Date(S.getTime() + 2 * D), 10_000]]);
    const creator = (await c.post(`${P}/creators`, { name: "Mine" })).body.data.id;
    await c.post(`${P}/creators/${creator}/accounts`, { account_ids: [acc] });
    const camp = (
      await c.post(`${P}/campaigns`, {
        name: "Budget",
        starts_at: "2026-10-01",
        ends_at: "2026-11-01",
        currency: "EUR",
        cpm_minor: 850,
        budget_minor: 10_000,
      })
    ).body.data;
    await c.post(`${P}/campaigns/${camp.id}/members`, { creator_ids: [creator] });

    // Tenancy: 404 on every door, and the other workspace's ids are "not found" in bulk writes.
    expect((await o.get(`${P}/campaigns/${camp.id}`)).status).toBe(404);
    expect((await o.get(`${P}/campaigns/${camp.id}/payouts`)).status).toBe(404);
    expect((await o.get(`${P}/creators/${creator}`)).status).toBe(404);
    expect((await o.post(`${P}/campaigns/${camp.id}/close`)).status).toBe(404);
    expect((await o.get(`${P}/campaigns/${camp.id}/payouts/videos?format=csv`)).status).toBe(404);
    expect((await o.get(`${P}/campaigns/${camp.id}/spend`)).status).toBe(404);
    const og = await gql(api.url, other.key, `query($id: ID!) { campaign(id: $id) { id } }`, { id: camp.id });
    expect(og.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const mine = await gql(api.url, ws.key, `query($id: ID!) { campaign(id: $id) { id } }`, { id: camp.id });
    const node = await gql(api.url, other.key, `query($id: ID!) { node(id: $id) { id } }`, { id: mine.body.data.campaign.id });
    expect(node.body.data.node).toBeNull();
    expect((await mcpCall(other.key, "get_campaign_payouts", { campaign_id: camp.id })).isError).toBe(true);
    const oc = (await o.post(`${P}/campaigns`, { name: "Theirs", starts_at: "2026-10-01", ends_at: "2026-11-01", currency: "EUR" })).body
      .data;
    expect((await o.post(`${P}/campaigns/${oc.id}/members`, { creator_ids: [creator], account_ids: [acc] })).body.data).toEqual([
      { id: creator, success: false, error: "Creator not found" },
      { id: acc, success: false, error: "Account not found" },
    ]);
    expect((await o.post(`${P}/campaigns/${oc.id}/videos`, { video_ids: [v] })).body.data[0].success).toBe(false);

    // Validation.
    for (const bad of [
      { name: "x", starts_at: "2026-10-01", ends_at: "2026-09-01", currency: "EUR" },
      { name: "x", starts_at: "2026-10-01", ends_at: "2027-12-01", currency: "EUR" },
      { name: "x", starts_at: "2026-02-30", ends_at: "2026-03-01", currency: "EUR" },
      { name: "x", starts_at: "2026-10-01", ends_at: "2026-11-01", currency: "EURO" },
      // Three letters of no currency (ISO 4217's codes only).
      { name: "x", starts_at: "2026-10-01", ends_at: "2026-11-01", currency: "ZZZ" },
      // Inside the spring-forward gap of Europe/Paris: 02:30 is read as 03:30, after the end at 03:10.
      { name: "x", starts_at: "2026-03-29T02:30", ends_at: "2026-03-29T03:10", currency: "EUR", time_zone: "Europe/Paris" },
      { name: "x", starts_at: "2026-10-01", ends_at: "2026-11-01", currency: "EUR", time_zone: "Mars/Olympus" },
      { name: "x", starts_at: "2026-10-01", ends_at: "2026-11-01", currency: "EUR", cpm_minor: -1 },
      { name: "x", starts_at: "2026-10-01", ends_at: "2026-11-01", currency: "EUR", cpm_minor: 1.5 },
    ]) {
      const r = await c.post(`${P}/campaigns`, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
    expect((await c.patch(`${P}/campaigns/${camp.id}`, { starts_at: "2026-12-01" })).body.code).toBe("VALIDATION_ERROR");
    // Two changes of the period's ends at once, each valid alone and not together: checked one after the
    // other under the row's lock (each used to pass, and together broke the table's period rule: a 500).
    const stored = (await c.get(`${P}/campaigns/${camp.id}`)).body.data;
    // 31 days: 30 days later ends (61 days) or 330 days earlier starts (361) is valid alone, both (391) is not.
    const later = new Date(Date.parse(`${stored.endsAt}Z`) + 30 * 86_400_000).toISOString().slice(0, 10);
    const earlier = new Date(Date.parse(`${stored.startsAt}Z`) - 330 * 86_400_000).toISOString().slice(0, 10);
    const racing = await Promise.all([
      c.patch(`${P}/campaigns/${camp.id}`, { ends_at: later }),
      c.patch(`${P}/campaigns/${camp.id}`, { starts_at: earlier }),
    ]);
    expect(racing.map((r) => r.status).sort()).toEqual([200, 400]);
    expect((await c.patch(`${P}/campaigns/${camp.id}`, { starts_at: stored.startsAt, ends_at: stored.endsAt })).status).toBe(200);

    // A member reads, and may not change a campaign (FORBIDDEN on GraphQL and REST).
    const email = `member-${randomUUID().slice(0, 8)}@example.test`;
    await newPerson(email, ws.workspaceId, "member");
    const person = personClient(api.url);
    await person.signIn(email, PASSWORD);
    const read = await person.gql(
      `query($id: ID!) { campaign(id: $id) { name totals { payout } } }`,
      { id: camp.id },
      { workspace: ws.workspaceId },
    );
    expect(read.body.data.campaign).toEqual({ name: "Budget", totals: { payout: 8500 } });
    const close = await person.gql(`mutation($id: ID!) { closeCampaign(id: $id) { id } }`, { id: camp.id }, { workspace: ws.workspaceId });
    expect(close.body.errors[0].extensions.code).toBe("FORBIDDEN");
    const create = await person.gql(
      `mutation { createCampaign(input: { name: "m", startsAt: "2026-10-01", endsAt: "2026-11-01", currency: "EUR" }) { id } }`,
      {},
      { workspace: ws.workspaceId },
    );
    expect(create.body.errors[0].extensions.code).toBe("FORBIDDEN");
    // ... but may manage creators.
    const made = await person.gql(`mutation { createCreator(name: "By a member") { uuid } }`, {}, { workspace: ws.workspaceId });
    expect(made.body.errors).toBeUndefined();
    // ... except where it changes what an active campaign pays: the accounts or the deletion of a creator taking part.
    const paid = await person.gql(
      `mutation($c: ID!, $a: [ID!]!) { unassignCreatorAccounts(creatorId: $c, accountIds: $a) }`,
      { c: creator, a: [acc] },
      { workspace: ws.workspaceId },
    );
    expect(paid.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const gone = await person.send("DELETE", `${P}/creators/${creator}`, {
      headers: { "x-workspace-id": ws.workspaceId, "x-requested-with": "dashboard" },
    });
    expect([gone.status, gone.body.code]).toEqual([403, "FORBIDDEN"]);
    const free = await person.gql(
      `mutation($c: ID!, $a: [ID!]!) { assignCreatorAccounts(creatorId: $c, accountIds: $a) { success error } }`,
      { c: made.body.data.createCreator.uuid, a: [acc] },
      { workspace: ws.workspaceId },
    );
    // The account belongs to a creator the campaign pays: giving it to another creator would redirect its payout.
    expect(free.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await c.get(`${P}/creators/${creator}`)).status).toBe(200);

    // Budget: 8,500 of 10,000 = 85 %: one 80 % event, once.
    await checkCampaignBudgets();
    await checkCampaignBudgets();
    const budgetEvents = async () =>
      (
        await q<{ data: any }>(
          `SELECT data FROM workspace_events WHERE workspace_id = $1 AND type = 'campaign.budget_reached' ORDER BY created_at`,
          [ws.workspaceId],
        )
      ).map((e) => e.data);
    expect(await budgetEvents()).toEqual([
      { campaignId: camp.id, name: "Budget", percent: 80, budgetMinor: 10_000, spentMinor: 8500, currency: "EUR" },
    ]);
    // More views: 100 % on the next check, once.
    await points(v!, [[new Date(S.getTime() + 3 * D), 12_000]]);
    await checkCampaignBudgets();
    await checkCampaignBudgets();
    expect((await budgetEvents()).map((e) => [e.percent, e.spentMinor])).toEqual([
      [80, 8500],
      [100, 10_200],
    ]);
    // The bell gets them through the alert rule "Campaign budget reached" (the notifications consumer, run here by hand).
    const ids = await q<{ id: string }>(
      `SELECT id::text FROM workspace_events WHERE workspace_id = $1 AND type = 'campaign.budget_reached'`,
      [ws.workspaceId],
    );
    await notifyEvents(ids.map((r) => r.id));
    const bell = await person.gql(`{ notifications(first: 5) { edges { node { rule title } } } }`, {}, { workspace: ws.workspaceId });
    expect(bell.body.data.notifications.edges.map((e: any) => e.node).sort((a: any, b: any) => a.title.localeCompare(b.title))).toEqual([
      { rule: "CAMPAIGN_BUDGET_REACHED", title: 'Campaign "Budget" reached 100 % of its budget' },
      { rule: "CAMPAIGN_BUDGET_REACHED", title: 'Campaign "Budget" reached 80 % of its budget' },
    ]);
  });
});

describe("GraphQL mutations and which videos count", () => {
  it("creates, changes (null clears), filters by hashtag and tag, adds, excludes and resets by hand, overrides a creator's rule and closes", async () => {
    const ws = await newWorkspace("pro", "GraphQL campaigns");
    const c = client(api.url, ws.key);
    const g = async (query: string, variables: Record<string, unknown> = {}) => {
      const r = await gql(api.url, ws.key, query, variables);
      expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
      return r.body.data as any;
    };
    const [acc, outsider] = await seedAccounts(ws.workspaceId, 2);
    const inside = (h: number) => new Date(S.getTime() + h * H + 30_000);
    const vids = await seedVideos(ws.workspaceId, [acc!, acc!, acc!, outsider!], [inside(1), inside(2), inside(3), inside(4)], {
      hashtags: [["Promo"], ["#promo", "x"], ["other"], ["promo"]],
    });
    for (const v of vids) await points(v, [[new Date(S.getTime() + 10 * D), 2000]]);
    const tag = (await c.post(`${P}/tags`, { name: "paid" })).body.data.id;
    await c.post(`${P}/tags/${tag}/videos`, { video_ids: [vids[1], vids[2]] });

    const creator = (await g(`mutation { createCreator(name: "Gql", contact: "g@example.test") { id uuid } }`)).createCreator;
    expect(
      (
        await g(`mutation($c: ID!, $a: [ID!]!) { assignCreatorAccounts(creatorId: $c, accountIds: $a) { id success } }`, {
          c: creator.id,
          a: [acc],
        })
      ).assignCreatorAccounts,
    ).toEqual([{ id: acc, success: true }]);
    const made = (
      await g(
        `mutation($i: CampaignInput!) { createCampaign(input: $i) { id uuid timeZone startsAtUtc rule { cpmMinor feePerVideoMinor } status } }`,
        {
          i: {
            name: "G",
            startsAt: "2026-10-01T00:00",
            endsAt: "2026-10-31T00:00",
            timeZone: "Europe/Paris",
            currency: "usd",
            cpmMinor: 1000,
            hashtag: "#PROMO",
          },
        },
      )
    ).createCampaign;
    expect(made).toMatchObject({
      timeZone: "Europe/Paris",
      startsAtUtc: S.toISOString(),
      rule: { cpmMinor: 1000, feePerVideoMinor: null },
      status: "ACTIVE",
    });
    await g(`mutation($id: ID!, $c: [ID!]) { addCampaignMembers(campaignId: $id, creatorIds: $c) { success } }`, {
      id: made.id,
      c: [creator.id],
    });
    const videosOf = async () =>
      (
        await g(`query($id: ID!) { campaign(id: $id) { videos(first: 10) { edges { node { videoId payout } } } } }`, { id: made.id })
      ).campaign.videos.edges
        .map((e: any) => e.node.videoId)
        .sort();
    // Hashtag "promo" (any case, with or without #): the first two of the member's videos; not the outsider's.
    expect(await videosOf()).toEqual([vids[0], vids[1]].sort());
    // Hashtag and tag: only the second. Then the hashtag cleared (null): the tag alone.
    await g(`mutation($id: ID!, $i: CampaignInput!) { updateCampaign(id: $id, input: $i) { id } }`, { id: made.id, i: { tagId: tag } });
    expect(await videosOf()).toEqual([vids[1]]);
    const cleared = await g(`mutation($id: ID!, $i: CampaignInput!) { updateCampaign(id: $id, input: $i) { hashtag tag { uuid } } }`, {
      id: made.id,
      i: { hashtag: null },
    });
    expect(cleared.updateCampaign).toEqual({ hashtag: null, tag: { uuid: tag } });
    expect(await videosOf()).toEqual([vids[1], vids[2]].sort());
    // By hand: the outsider's video added, the second excluded; reset brings it back.
    await g(`mutation($id: ID!, $v: [ID!]!) { addCampaignVideos(campaignId: $id, videoIds: $v) { success } }`, {
      id: made.id,
      v: [vids[3]],
    });
    await g(`mutation($id: ID!, $v: [ID!]!) { excludeCampaignVideos(campaignId: $id, videoIds: $v) { success } }`, {
      id: made.id,
      v: [vids[1]],
    });
    expect(await videosOf()).toEqual([vids[2], vids[3]].sort());
    expect(
      (await g(`mutation($id: ID!, $v: [ID!]!) { resetCampaignVideos(campaignId: $id, videoIds: $v) }`, { id: made.id, v: [vids[1]] }))
        .resetCampaignVideos,
    ).toBe(1);
    expect(await videosOf()).toEqual([vids[1], vids[2], vids[3]].sort());
    // The creator's own rule replaces the campaign's for their videos (not for the outsider's).
    await g(
      `mutation($id: ID!, $c: ID!) { setCampaignCreatorRule(campaignId: $id, creatorId: $c, rule: { feePerVideoMinor: 7 }) { rule { feePerVideoMinor cpmMinor } } }`,
      {
        id: made.id,
        c: creator.id,
      },
    );
    const detail = (
      await g(
        `query($id: ID!) { campaign(id: $id) { creators { payeeName payout videos } totals { payout } members { kind creator { uuid } } creatorRules { creator { uuid } } } }`,
        {
          id: made.id,
        },
      )
    ).campaign;
    expect(detail.creators).toEqual(
      expect.arrayContaining([
        { payeeName: "Gql", payout: 14, videos: 2 },
        { payeeName: expect.stringMatching(/^@/), payout: 2000, videos: 1 },
      ]),
    );
    expect(detail.totals.payout).toBe(2014);
    expect(detail.members).toEqual([{ kind: "CREATOR", creator: { uuid: creator.uuid } }]);
    expect(detail.creatorRules).toEqual([{ creator: { uuid: creator.uuid } }]);
    // Validation through GraphQL: the same VALIDATION_ERROR as REST.
    const bad = await gql(api.url, ws.key, `mutation($i: CampaignInput!) { createCampaign(input: $i) { id } }`, {
      i: { name: "x", startsAt: "2026-10-01", endsAt: "2026-10-02", currency: "EUR", timeZone: "Nowhere/Else" },
    });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    // The same rules as REST's: a code of no currency, a period inside a clock change's gap.
    for (const i of [
      { name: "x", startsAt: "2026-10-01", endsAt: "2026-10-02", currency: "ZZZ" },
      { name: "x", startsAt: "2026-03-29T02:30", endsAt: "2026-03-29T03:10", currency: "EUR", timeZone: "Europe/Paris" },
    ]) {
      const r = await gql(api.url, ws.key, `mutation($i: CampaignInput!) { createCampaign(input: $i) { id } }`, { i });
      expect(r.body.errors?.[0]?.extensions?.code, JSON.stringify(i)).toBe("VALIDATION_ERROR");
    }
    // A money field that is not an integer is refused by the Count scalar: VALIDATION_ERROR too, nothing written.
    const notMoney = await gql(api.url, ws.key, `mutation($i: CampaignInput!) { createCampaign(input: $i) { id } }`, {
      i: { name: "x", startsAt: "2026-10-01", endsAt: "2026-10-02", currency: "EUR", budgetMinor: "..", cpmMinor: 1.5 },
    });
    expect(notMoney.body.errors?.length).toBeGreaterThan(0);
    for (const e of notMoney.body.errors ?? []) expect(e.extensions?.code).toBe("VALIDATION_ERROR");
    const closed = await g(`mutation($id: ID!) { closeCampaign(id: $id) { status closedAt totals { payout frozen } } }`, { id: made.id });
    expect(closed.closeCampaign).toMatchObject({ status: "CLOSED", totals: { payout: 2014, frozen: true } });
    const again = await gql(api.url, ws.key, `mutation($id: ID!) { closeCampaign(id: $id) { id } }`, { id: made.id });
    expect(again.body.errors?.[0]?.extensions?.code).toBe("CAMPAIGN_CLOSED");
    const list = await g(
      `{ campaigns(first: 5, status: CLOSED) { totalCount edges { node { uuid } } } creators(first: 5) { totalCount edges { node { name accountIds } } } }`,
    );
    expect(list.campaigns).toEqual({ totalCount: 1, edges: [{ node: { uuid: made.uuid } }] });
    expect(list.creators).toEqual({ totalCount: 1, edges: [{ node: { name: "Gql", accountIds: [acc] } }] });
  });
});
