/** GraphQL twins of folders and analytics, and proof that nested folder queries are not N+1. */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import type { RunningApi } from "../../src/main/server.js";
import { createAccount, createTrackedVideo, createVariedVideos, snapshot, trackAccount } from "./fixtures.js";
import { statementsOf as countStatements } from "../helpers/statements.js";

let api: RunningApi;
const P = "/api/v1";
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

const NESTED = `{
  folders(first: 100) {
    edges { node {
      uuid name createdAt videoCount accountCount
      accounts { edges { addedAt node { uuid username followerCount type tracking { videoLimit } } } }
    } }
  }
}`;

async function workspaceWithFolders(folderCount: number) {
  const ws = await newWorkspace("pro");
  const c = client(api.url, ws.key);
  for (let i = 0; i < folderCount; i++) {
    const folder = (await c.post(`${P}/folders`, { name: `folder ${i}` })).body.data;
    const accounts = [];
    for (let j = 0; j < 2; j++) {
      const a = await createAccount({ followerCount: 1000 * (i + 1) + j });
      await trackAccount(ws.workspaceId, a.id);
      await createTrackedVideo(ws.workspaceId, { accountId: a.id });
      accounts.push(a.id);
    }
    const v = await createTrackedVideo(ws.workspaceId);
    await c.post(`${P}/folders/${folder.id}/accounts`, { account_ids: accounts });
    await c.post(`${P}/folders/${folder.id}/videos`, { video_ids: [v.id] });
  }
  return ws;
}

describe("GraphQL folders", () => {
  it("a nested folders { accounts { account } videoCount accountCount } query runs the same number of SQL statements for 2 and 12 folders", async () => {
    const small = await workspaceWithFolders(2);
    const large = await workspaceWithFolders(12);
    // Warm up (auth caches nothing, but the first request compiles the schema paths).
    await gql(api.url, small.key, NESTED);
    const a = await countStatements(() => gql(api.url, small.key, NESTED));
    const b = await countStatements(() => gql(api.url, large.key, NESTED));
    expect(a.result.body.errors).toBeUndefined();
    expect(b.result.body.errors).toBeUndefined();
    expect(a.result.body.data.folders.edges).toHaveLength(2);
    expect(b.result.body.data.folders.edges).toHaveLength(12);
    for (const { node: f } of b.result.body.data.folders.edges) {
      expect(f.videoCount).toBe(3);
      expect(f.accountCount).toBe(2);
      expect(f.accounts.edges).toHaveLength(2);
      expect(f.accounts.edges[0].node.username).toMatch(/^creator_/);
    }
    // Same statements whatever the number of folders: no per-folder query. The folders page and its
    // total, every folder's counts (videoCount and accountCount share one read), every folder's
    // accounts. (The API key is admitted through Redis: no statement.)
    expect(b.statements.length).toBe(a.statements.length);
    expect(a.statements.length).toBe(4);
  });

  it("folder queries and mutations go through the folder services (same rules as REST)", async () => {
    const ws = await newWorkspace("pro");
    const created = await gql(api.url, ws.key, `mutation { createFolder(name: "  Launch  ") { id uuid name videoCount accountCount } }`);
    expect(created.body.errors).toBeUndefined();
    const folder = {
      ...created.body.data.createFolder,
      id: created.body.data.createFolder.uuid,
      globalId: created.body.data.createFolder.id,
    };
    expect(folder).toMatchObject({ name: "Launch", videoCount: 0, accountCount: 0 });

    const account = await createAccount();
    await trackAccount(ws.workspaceId, account.id);
    const videos = await createVariedVideos(ws.workspaceId, 12, 5, { accountId: account.id });
    const direct = await createTrackedVideo(ws.workspaceId, { viewCount: 7, likeCount: 7, commentCount: 0, shareCount: 0 });
    const unknown = randomUUID();

    const addV = await gql(
      api.url,
      ws.key,
      `mutation($f: ID!, $ids: [ID!]!) { addVideosToFolder(folderId: $f, videoIds: $ids) { id success error } }`,
      {
        f: folder.globalId,
        ids: [direct.id, unknown],
      },
    );
    expect(addV.body.data.addVideosToFolder).toEqual([
      { id: direct.id, success: true, error: null },
      { id: unknown, success: false, error: "Video not found" },
    ]);
    const addA = await gql(
      api.url,
      ws.key,
      `mutation($f: ID!, $ids: [ID!]!) { addAccountsToFolder(folderId: $f, accountIds: $ids) { id success } }`,
      {
        f: folder.id,
        ids: [account.id],
      },
    );
    expect(addA.body.data.addAccountsToFolder).toEqual([{ id: account.id, success: true }]);

    const q = `query($id: ID!, $after: String) { folder(id: $id) {
      name videoCount accountCount
      accounts { edges { node { uuid } } }
      videos(sort: VIEWS, order: ASC, first: 5, after: $after) { totalCount pageInfo { endCursor } edges { node { uuid viewCount type account { uuid } } } }
      analytics { totalAccounts totalVideos totalViews avgEngagementRate topVideos { uuid viewCount } }
    } }`;
    const first = await gql(api.url, ws.key, q, { id: folder.id });
    const read = await gql(api.url, ws.key, q, { id: folder.id, after: first.body.data.folder.videos.pageInfo.endCursor });
    expect(read.body.errors).toBeUndefined();
    const f = read.body.data.folder;
    expect(f).toMatchObject({ name: "Launch", videoCount: 13, accountCount: 1, accounts: { edges: [{ node: { uuid: account.id } }] } });
    expect(f.videos).toMatchObject({ totalCount: 13 });
    // Same order and totals as REST (the second page of 5).
    const rest = client(api.url, ws.key);
    const restPage = await rest.get(`${P}/folders/${folder.id}/videos?sort=views&sort_order=asc&limit=5&offset=5`);
    expect(f.videos.edges.map((e: any) => e.node.uuid)).toEqual(restPage.body.data.map((v: any) => v.id));
    expect(f.videos.edges.map((e: any) => e.node.viewCount)).toEqual(restPage.body.data.map((v: any) => v.viewCount));
    const restAnalytics = (await rest.get(`${P}/folders/${folder.id}/analytics`)).body.data;
    expect(f.analytics).toEqual({
      totalAccounts: restAnalytics.totalAccounts,
      totalVideos: restAnalytics.totalVideos,
      totalViews: restAnalytics.totalViews,
      avgEngagementRate: restAnalytics.avgEngagementRate,
      topVideos: restAnalytics.topVideos.map((t: any) => ({ uuid: t.id, viewCount: t.viewCount })),
    });
    expect(videos).toHaveLength(12);

    const renamed = await gql(api.url, ws.key, `mutation($id: ID!) { renameFolder(id: $id, name: "Relaunch") { uuid name } }`, {
      id: folder.id,
    });
    expect(renamed.body.data.renameFolder).toEqual({ uuid: folder.id, name: "Relaunch" });
    const removed = await gql(api.url, ws.key, `mutation($f: ID!, $ids: [ID!]!) { removeVideosFromFolder(folderId: $f, videoIds: $ids) }`, {
      f: folder.id,
      ids: [direct.id],
    });
    expect(removed.body.data.removeVideosFromFolder).toBe(1);
    const remA = await gql(
      api.url,
      ws.key,
      `mutation($f: ID!, $ids: [ID!]!) { removeAccountsFromFolder(folderId: $f, accountIds: $ids) { success } }`,
      {
        f: folder.id,
        ids: [account.id],
      },
    );
    expect(remA.body.data.removeAccountsFromFolder).toEqual([{ success: true }]);

    // Validation and isolation, as in REST.
    const errors = [
      await gql(api.url, ws.key, `mutation { createFolder(name: "${"x".repeat(256)}") { id } }`),
      await gql(api.url, ws.key, `mutation { createFolder(name: "   ") { id } }`),
      await gql(api.url, ws.key, `mutation($f: ID!, $ids: [ID!]!) { addVideosToFolder(folderId: $f, videoIds: $ids) { id } }`, {
        f: folder.id,
        ids: Array.from({ length: 51 }, () => randomUUID()),
      }),
      await gql(api.url, ws.key, `query($id: ID!) { folder(id: $id) { videos(first: 101) { totalCount } } }`, { id: folder.id }),
      await gql(api.url, ws.key, `query($id: ID!) { folder(id: $id) { videos(after: "not a cursor") { totalCount } } }`, { id: folder.id }),
      await gql(
        api.url,
        ws.key,
        `query($id: ID!) { folder(id: $id) { videos(startDate: "2026-06-02", endDate: "2026-06-01") { totalCount } } }`,
        { id: folder.id },
      ),
      await gql(api.url, ws.key, `query($id: ID!) { folder(id: $id) { videos(startDate: "June") { totalCount } } }`, { id: folder.id }),
    ];
    for (const e of errors) expect(e.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    const intruder = await newWorkspace();
    for (const query of [
      `query($id: ID!) { folder(id: $id) { id } }`,
      `mutation($id: ID!) { renameFolder(id: $id, name: "x") { id } }`,
      `mutation($id: ID!) { deleteFolder(id: $id) }`,
      `mutation($id: ID!) { addVideosToFolder(folderId: $id, videoIds: ["${direct.id}"]) { id } }`,
      `mutation($id: ID!) { removeAccountsFromFolder(folderId: $id, accountIds: ["${account.id}"]) { id } }`,
    ]) {
      for (const id of [folder.id, randomUUID()]) {
        const r = await gql(api.url, intruder.key, query, { id });
        expect(r.body.errors?.[0]?.extensions?.code, query).toBe("NOT_FOUND");
      }
    }
    expect((await gql(api.url, intruder.key, `{ folders { totalCount edges { node { id } } } }`)).body.data.folders).toEqual({
      totalCount: 0,
      edges: [],
    });

    const deleted = await gql(api.url, ws.key, `mutation($id: ID!) { deleteFolder(id: $id) }`, { id: folder.id });
    expect(deleted.body.data.deleteFolder).toBe(folder.id);
    expect(
      (await gql(api.url, ws.key, `query($id: ID!) { folder(id: $id) { id } }`, { id: folder.id })).body.errors?.[0]?.extensions?.code,
    ).toBe("NOT_FOUND");
  });

  it("topVideos and growth give what REST gives", async () => {
    const ws = await newWorkspace("pro");
    await createVariedVideos(ws.workspaceId, 15, 99);
    const a = await createAccount();
    await trackAccount(ws.workspaceId, a.id);
    const today = new Date().toISOString().slice(0, 10);
    await snapshot(a.id, today, { followers: 42, views: 4200, videos: 3 });
    const rest = client(api.url, ws.key);
    const r = await gql(
      api.url,
      ws.key,
      `{ topVideos(first: 5) { edges { node { uuid engagementRate viewCount } } } growth(period: LAST_7_DAYS) { totalCount edges { node { date totalFollowers totalViews totalVideos } } } }`,
    );
    expect(r.body.errors).toBeUndefined();
    const restTop = (await rest.get(`${P}/analytics/videos/top?limit=5`)).body.data;
    expect(r.body.data.topVideos.edges.map((e: any) => e.node)).toEqual(
      restTop.map((v: any) => ({ uuid: v.id, engagementRate: v.engagementRate, viewCount: v.viewCount })),
    );
    const growth = r.body.data.growth.edges.map((e: any) => e.node);
    expect(growth).toEqual((await rest.get(`${P}/analytics/growth?period=7d`)).body.data);
    expect(r.body.data.growth.totalCount).toBe(7);
    expect(growth[0]).toEqual({ date: today, totalFollowers: 42, totalViews: 4200, totalVideos: 3 });
    // Growth pages by day: the page after the third day starts at the fourth.
    const firstThree = await gql(api.url, ws.key, `{ growth(period: LAST_7_DAYS, first: 3) { pageInfo { endCursor hasNextPage } } }`);
    const next = await gql(
      api.url,
      ws.key,
      `query($a: String) { growth(period: LAST_7_DAYS, first: 10, after: $a) { pageInfo { hasNextPage } edges { node { date } } } }`,
      {
        a: firstThree.body.data.growth.pageInfo.endCursor,
      },
    );
    expect(firstThree.body.data.growth.pageInfo.hasNextPage).toBe(true);
    expect(next.body.data.growth.edges.map((e: any) => e.node.date)).toEqual(growth.slice(3).map((p: any) => p.date));
    expect(next.body.data.growth.pageInfo.hasNextPage).toBe(false);
    const bad = await gql(api.url, ws.key, `{ topVideos(first: 101) { totalCount } }`);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
  });
});
