/**
 * Nested folders, on every door against real PostgreSQL: parents on create and
 * move, the depth bound and cycles (also under concurrent moves), what deleting a parent does to its
 * children, and a folder's analytics and videos with its sub-folders (`includeDescendants`) checked
 * against a hand-written SQL over the same data. Tenancy: another workspace's folder is never a parent
 * and never counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { mcpCall as callTool } from "../helpers/mcp.js";
import type { RunningApi } from "../../src/main/server.js";
import { prisma } from "../../src/infra/db.js";
import { createAccount, createTrackedVideo, createVariedVideos, snapshot, trackAccount } from "./fixtures.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await stopAll(api);
});

const P = "/api/v1";

async function setup() {
  const ws = await newWorkspace("pro");
  return { ws, c: client(api.url, ws.key) };
}

type C = ReturnType<typeof client>;
async function folder(c: C, name: string, parentId?: string | null): Promise<string> {
  const r = await c.post(`${P}/folders`, parentId === undefined ? { name } : { name, parentId });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.id;
}

const mcpCall = (key: string, name: string, args: Record<string, unknown>) => callTool(api.url, key, name, args);

describe("nesting: parents, depth, cycles", () => {
  it("creates under a parent, answers parentId, childCount and ancestors, lists a folder's children", async () => {
    const { c } = await setup();
    const client1 = await folder(c, "Client A");
    const created = await c.post(`${P}/folders`, { name: "Campaign", parentId: client1 });
    expect(created.body.data).toEqual({ id: expect.any(String), name: "Campaign", parentId: client1, createdAt: expect.any(String) });
    const campaign = created.body.data.id;
    const creator = await folder(c, "Creator", campaign);

    const one = await c.get(`${P}/folders/${creator}`);
    expect(one.body.data).toMatchObject({
      id: creator,
      parentId: campaign,
      childCount: 0,
      ancestors: [
        { id: client1, name: "Client A" },
        { id: campaign, name: "Campaign" },
      ],
    });
    expect((await c.get(`${P}/folders/${client1}`)).body.data).toMatchObject({ parentId: null, childCount: 1, ancestors: [] });
    const children = await c.get(`${P}/folders?parentId=${campaign}`);
    expect(children.body.data.map((f: any) => f.id)).toEqual([creator]);
    expect(children.body.pagination.total).toBe(1);
    expect((await c.get(`${P}/folders`)).body.pagination.total).toBe(3);
  });

  it("refuses a sixth level (FOLDER_TOO_DEEP), a cycle (FOLDER_CYCLE) and a parent of another workspace (NOT_FOUND)", async () => {
    const { c } = await setup();
    const chain = [await folder(c, "L1")];
    for (let i = 2; i <= 5; i++) chain.push(await folder(c, `L${i}`, chain[chain.length - 1]));
    const tooDeep = await c.post(`${P}/folders`, { name: "L6", parentId: chain[4] });
    expect(tooDeep.status).toBe(409);
    expect(tooDeep.body.code).toBe("FOLDER_TOO_DEEP");

    // Moving a two-level sub-tree under level 4 would put its child at level 6.
    const top = await folder(c, "T");
    await folder(c, "T child", top);
    const move = await c.patch(`${P}/folders/${top}`, { parentId: chain[3] });
    expect(move.status).toBe(409);
    expect(move.body.code).toBe("FOLDER_TOO_DEEP");
    expect((await c.patch(`${P}/folders/${top}`, { parentId: chain[2] })).status).toBe(200);

    for (const target of [chain[0], chain[2]]) {
      const cycle = await c.patch(`${P}/folders/${chain[0]}`, { parentId: target });
      expect(cycle.status).toBe(409);
      expect(cycle.body.code).toBe("FOLDER_CYCLE");
    }
    const back = await c.patch(`${P}/folders/${top}`, { parentId: null, name: "T again" });
    expect(back.body.data).toEqual({ id: top, name: "T again", parentId: null });

    const other = client(api.url, (await newWorkspace()).key);
    const theirs = await folder(other, "theirs");
    expect((await c.post(`${P}/folders`, { name: "x", parentId: theirs })).status).toBe(404);
    expect((await c.patch(`${P}/folders/${top}`, { parentId: theirs })).status).toBe(404);
    expect((await other.patch(`${P}/folders/${theirs}`, { parentId: top })).status).toBe(404);
    expect((await c.patch(`${P}/folders/${top}`, {})).status).toBe(400);
    expect((await c.patch(`${P}/folders/${top}`, { parentId: "nope" })).body.code).toBe("VALIDATION_ERROR");
  });

  it("two opposite moves at once never make a cycle", async () => {
    const { c } = await setup();
    for (let round = 0; round < 3; round++) {
      const a = await folder(c, `a${round}`);
      const b = await folder(c, `b${round}`);
      const [ab, ba] = await Promise.all([c.patch(`${P}/folders/${a}`, { parentId: b }), c.patch(`${P}/folders/${b}`, { parentId: a })]);
      expect([ab.status, ba.status].sort()).toEqual([200, 409]);
      const rows = await prisma.folder.findMany({ where: { id: { in: [a, b] } }, select: { id: true, parentId: true } });
      expect(rows.filter((r) => r.parentId !== null)).toHaveLength(1);
    }
  });

  it("deleting a folder moves its children up by default, or deletes the whole sub-tree with children=delete", async () => {
    const { c } = await setup();
    const root = await folder(c, "root");
    const mid = await folder(c, "mid", root);
    const leaf1 = await folder(c, "leaf1", mid);
    const leaf2 = await folder(c, "leaf2", mid);
    await folder(c, "deeper", leaf2);
    const moved = await c.delete(`${P}/folders/${mid}`);
    expect(moved.body.data).toEqual({ id: mid, movedUp: 2, deletedDescendants: 0 });
    expect((await c.get(`${P}/folders/${leaf1}`)).body.data.parentId).toBe(root);

    const gone = await c.delete(`${P}/folders/${root}?children=delete`);
    expect(gone.body.data).toEqual({ id: root, movedUp: 0, deletedDescendants: 3 });
    expect((await c.get(`${P}/folders`)).body.pagination.total).toBe(0);
    expect((await c.delete(`${P}/folders/${root}?children=sideways`)).status).toBe(400);
  });
});

describe("includeDescendants: analytics and videos over a sub-tree", () => {
  it("matches a hand-written SQL over the same data, counts each video and account once, and ignores other workspaces", async () => {
    const { ws, c } = await setup();
    // client -> campaign -> creator, plus a sibling campaign; videos direct and through accounts, some in two folders.
    const clientF = await folder(c, "Client");
    const campaign1 = await folder(c, "Campaign 1", clientF);
    const campaign2 = await folder(c, "Campaign 2", clientF);
    const creator = await folder(c, "Creator", campaign1);
    const unrelated = await folder(c, "Unrelated");
    const videos = await createVariedVideos(ws.workspaceId, 27, 34);
    const account = await createAccount();
    await trackAccount(ws.workspaceId, account.id);
    const accountVideos = [
      await createTrackedVideo(ws.workspaceId, { accountId: account.id, viewCount: 50_000_000 }),
      await createTrackedVideo(ws.workspaceId, { accountId: account.id }),
    ];
    const add = (f: string, ids: string[]) => c.post(`${P}/folders/${f}/videos`, { video_ids: ids });
    await add(
      clientF,
      videos.slice(0, 5).map((v) => v.id),
    );
    await add(
      campaign1,
      videos.slice(3, 12).map((v) => v.id),
    );
    await add(
      campaign2,
      videos.slice(10, 18).map((v) => v.id),
    );
    await add(creator, [...videos.slice(16, 22).map((v) => v.id), accountVideos[0]!.id]);
    await add(
      unrelated,
      videos.slice(22).map((v) => v.id),
    );
    await c.post(`${P}/folders/${creator}/accounts`, { account_ids: [account.id] });
    await c.post(`${P}/folders/${campaign2}/accounts`, { account_ids: [account.id] });
    // Another workspace's folder cannot join this tree, and its videos never count.
    const other = await newWorkspace("pro");
    const otherVideo = await createTrackedVideo(other.workspaceId, { viewCount: 10 ** 9 });
    await client(api.url, other.key).post(
      `${P}/folders/${(await client(api.url, other.key).post(`${P}/folders`, { name: "o" })).body.data.id}/videos`,
      { video_ids: [otherVideo.id] },
    );

    const tree = [clientF, campaign1, campaign2, creator];
    // The expectation, written without the service's SQL: the folders are listed by hand.
    const [expected] = await prisma.$queryRawUnsafe<any[]>(
      `WITH ids AS (
         SELECT tv.video_id FROM folder_videos fv JOIN tracked_videos tv ON tv.id = fv.tracked_video_id WHERE fv.folder_id = ANY($1::uuid[])
         UNION
         SELECT v.id FROM folder_accounts fa JOIN tracked_accounts ta ON ta.id = fa.tracked_account_id
           JOIN videos v ON v.account_id = ta.account_id JOIN tracked_videos tv ON tv.video_id = v.id AND tv.workspace_id = ta.workspace_id
          WHERE fa.folder_id = ANY($1::uuid[])
       )
       SELECT count(*)::int AS videos, coalesce(sum(v.view_count), 0)::text AS views, coalesce(sum(v.like_count), 0)::text AS likes,
              coalesce(sum(v.comment_count), 0)::text AS comments, coalesce(sum(v.share_count), 0)::text AS shares,
              coalesce(avg(v.engagement_rate) FILTER (WHERE v.view_count IS NOT NULL), 0)::float8 AS er,
              (SELECT count(DISTINCT tracked_account_id)::int FROM folder_accounts WHERE folder_id = ANY($1::uuid[])) AS accounts,
              (SELECT array_agg(x.id::text ORDER BY x.view_count DESC, x.id) FROM (SELECT v2.id, v2.view_count FROM ids JOIN videos v2 ON v2.id = ids.video_id
                 WHERE v2.view_count IS NOT NULL ORDER BY v2.view_count DESC, v2.id LIMIT 5) x) AS top
         FROM ids JOIN videos v ON v.id = ids.video_id`,
      tree,
    );
    const rest = await c.get(`${P}/folders/${clientF}/analytics?includeDescendants=true`);
    expect(rest.status).toBe(200);
    const a = rest.body.data;
    expect(a.totalVideos).toBe(expected.videos);
    expect(a.totalVideos).toBe(24); // 22 direct videos + both of the account's videos
    expect(a.totalAccounts).toBe(expected.accounts);
    expect(a.totalAccounts).toBe(1);
    expect([a.totalViews, a.totalLikes, a.totalComments, a.totalShares].map(String)).toEqual([
      expected.views,
      expected.likes,
      expected.comments,
      expected.shares,
    ]);
    expect(a.avgEngagementRate).toBeCloseTo(expected.er, 10);
    expect(a.topVideos.map((v: any) => v.id)).toEqual(expected.top);
    expect(a.topVideos[0].id).toBe(accountVideos[0]!.id);

    // Without the flag: the folder's own set only (5 direct videos).
    expect((await c.get(`${P}/folders/${clientF}/analytics`)).body.data.totalVideos).toBe(5);
    expect((await c.get(`${P}/folders/${clientF}/analytics?includeDescendants=maybe`)).status).toBe(400);

    // The videos list agrees, paged.
    const page1 = await c.get(`${P}/folders/${clientF}/videos?includeDescendants=true&limit=20&sort=views`);
    const page2 = await c.get(`${P}/folders/${clientF}/videos?includeDescendants=true&limit=20&offset=20&sort=views`);
    expect(page1.body.total).toBe(24);
    expect(new Set([...page1.body.data, ...page2.body.data].map((v: any) => v.id)).size).toBe(24);

    // GraphQL and MCP answer the same aggregates.
    const g = await gql(
      api.url,
      ws.key,
      `query($id: ID!) { folder(id: $id) { analytics(includeDescendants: true) { totalVideos totalViews totalAccounts }
      videos(includeDescendants: true, first: 1) { totalCount } } }`,
      { id: clientF },
    );
    expect(g.body.data.folder).toEqual({
      analytics: { totalVideos: 24, totalViews: a.totalViews, totalAccounts: 1 },
      videos: { totalCount: 24 },
    });
    const m = await mcpCall(ws.key, "get_folder_analytics", { folder_id: clientF, includeDescendants: true });
    expect(m).toEqual({ isError: false, body: { data: a } });
  });
});

describe("a folder's growth, with its sub-folders", () => {
  it("sums each account's last known values per day over the folder's accounts (each once), on REST, GraphQL and MCP", async () => {
    const { ws, c } = await setup();
    const parent = await folder(c, "Client");
    const child = await folder(c, "Campaign", parent);
    const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
    const [a, b, outside] = [await createAccount(), await createAccount(), await createAccount()];
    for (const acc of [a, b, outside]) await trackAccount(ws.workspaceId, acc.id);
    await snapshot(a.id, day(10), { followers: 100, views: 1000, videos: 1 }); // before the window: carried in
    await snapshot(a.id, day(3), { followers: 150, views: 1500, videos: 2 });
    await snapshot(b.id, day(5), { followers: 10, views: null, videos: 1 }); // no views from its platform: counts 0
    await snapshot(outside.id, day(4), { followers: 99_999, views: 99_999, videos: 99 });
    await c.post(`${P}/folders/${parent}/accounts`, { account_ids: [a.id] });
    await c.post(`${P}/folders/${child}/accounts`, { account_ids: [a.id, b.id] });

    const own = await c.get(`${P}/folders/${parent}/growth?period=7d`);
    expect(own.status).toBe(200);
    const all = await c.get(`${P}/folders/${parent}/growth?period=7d&includeDescendants=true`);
    // Written out by hand: newest first, 7 days, today included.
    const expected = (withB: boolean) =>
      [0, 1, 2, 3, 4, 5, 6].map((back) => {
        const aNow = back <= 3 ? [150, 1500, 2] : [100, 1000, 1];
        const bNow = withB && back <= 5 ? [10, 0, 1] : [0, 0, 0];
        return { date: day(back), totalFollowers: aNow[0]! + bNow[0]!, totalViews: aNow[1]! + bNow[1]!, totalVideos: aNow[2]! + bNow[2]! };
      });
    expect(own.body.data).toEqual(expected(false));
    expect(all.body.data).toEqual(expected(true));
    expect((await c.get(`${P}/folders/${parent}/growth?period=all&includeDescendants=true`)).body.data).toHaveLength(11);

    const g = await gql(
      api.url,
      ws.key,
      `query($id: ID!) { folder(id: $id) { growth(period: LAST_7_DAYS, includeDescendants: true, first: 2) { edges { node { date totalFollowers } } } } }`,
      { id: parent },
    );
    expect(g.body.data.folder.growth.edges.map((e: any) => e.node)).toEqual(
      expected(true)
        .slice(0, 2)
        .map((p) => ({ date: p.date, totalFollowers: p.totalFollowers })),
    );
    expect(await mcpCall(ws.key, "get_folder_growth", { folder_id: parent, period: "7d", includeDescendants: true })).toEqual({
      isError: false,
      body: { data: all.body.data },
    });
    expect((await client(api.url, (await newWorkspace()).key).get(`${P}/folders/${parent}/growth`)).status).toBe(404);
  });
});

describe("a tree read page by page", () => {
  it("folders(order: OLDEST_FIRST) reads in creation order, so a page holds its folders' parents; newest first stays the default", async () => {
    const { ws, c } = await setup();
    const client = await folder(c, "Client");
    const campaign = await folder(c, "Campaign", client);
    const creator = await folder(c, "Creator", campaign);
    const page = async (order: string) =>
      (await gql(api.url, ws.key, `{ folders(first: 2${order}) { edges { node { uuid parentUuid } } pageInfo { endCursor } } }`)).body.data
        .folders;
    const oldest = await page(", order: OLDEST_FIRST");
    expect(oldest.edges.map((e: any) => e.node.uuid)).toEqual([client, campaign]);
    const rest = (
      await gql(
        api.url,
        ws.key,
        `query($after: String) { folders(first: 2, after: $after, order: OLDEST_FIRST) { edges { node { uuid } } } }`,
        { after: oldest.pageInfo.endCursor },
      )
    ).body.data.folders;
    expect(rest.edges.map((e: any) => e.node.uuid)).toEqual([creator]);
    expect((await page("")).edges.map((e: any) => e.node.uuid)).toEqual([creator, campaign]);
  });
});

describe("GraphQL and MCP doors", () => {
  it("children, ancestors, parent, moveFolder and deleteFolder(children:), and MCP create_folder / move_folder", async () => {
    const { ws, c } = await setup();
    const root = await folder(c, "Root");
    const b = await folder(c, "b", root);
    const a = await folder(c, "a", root);
    const leaf = await folder(c, "leaf", a);
    const q = await gql(
      api.url,
      ws.key,
      `query($id: ID!) { folder(id: $id) { name childCount children(first: 10) { totalCount edges { node { uuid name childCount
         children(first: 5) { edges { node { uuid ancestors { uuid name } parent { uuid } parentUuid } } } } } } } }`,
      { id: root },
    );
    expect(q.body.errors).toBeUndefined();
    const kids = q.body.data.folder.children;
    expect(kids.totalCount).toBe(2);
    expect(kids.edges.map((e: any) => e.node.name)).toEqual(["a", "b"]);
    expect(kids.edges[0].node.children.edges[0].node).toEqual({
      uuid: leaf,
      ancestors: [
        { uuid: root, name: "Root" },
        { uuid: a, name: "a" },
      ],
      parent: { uuid: a },
      parentUuid: a,
    });

    const moved = await gql(api.url, ws.key, `mutation($id: ID!, $p: ID) { moveFolder(id: $id, parentId: $p) { uuid parentUuid } }`, {
      id: leaf,
      p: b,
    });
    expect(moved.body.data.moveFolder).toEqual({ uuid: leaf, parentUuid: b });
    const cycle = await gql(api.url, ws.key, `mutation($id: ID!, $p: ID) { moveFolder(id: $id, parentId: $p) { uuid } }`, {
      id: root,
      p: leaf,
    });
    expect(cycle.body.errors![0]!.extensions!.code).toBe("FOLDER_CYCLE");
    const del = await gql(api.url, ws.key, `mutation($id: ID!) { deleteFolder(id: $id, children: DELETE) }`, { id: b });
    expect(del.body.data.deleteFolder).toBe(b);
    expect(await prisma.folder.count({ where: { id: { in: [b, leaf] } } })).toBe(0);

    const created = await mcpCall(ws.key, "create_folder", { name: "from an agent", parentId: a });
    expect(created.body.data).toMatchObject({ name: "from an agent", parentId: a });
    const top = await mcpCall(ws.key, "move_folder", { folder_id: created.body.data.id, parentId: null });
    expect(top.body.data).toEqual({ id: created.body.data.id, name: "from an agent", parentId: null });
    const listed = await mcpCall(ws.key, "list_folders", { parentId: root });
    expect(listed.body.data.map((f: any) => f.id)).toEqual([a]);

    // Another workspace sees none of it.
    const stranger = await newWorkspace();
    const theirs = await gql(api.url, stranger.key, `query($id: ID!) { folder(id: $id) { uuid } }`, { id: root });
    expect(theirs.body.errors![0]!.extensions!.code).toBe("NOT_FOUND");
    expect((await mcpCall(stranger.key, "move_folder", { folder_id: a, parentId: null })).body.code).toBe("NOT_FOUND");
  });
});
