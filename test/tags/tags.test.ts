/**
 * Tags on every door against real PostgreSQL: create, rename, recolour and delete
 * (names unique without regard to case, colours #rrggbb), bulk tag and untag of videos and accounts,
 * the tag filter of the videos and accounts lists (REST `tag`, GraphQL `tagIds`, MCP `tag`), the
 * counts per tag (group by tag), and tenancy: another workspace's tags and items are never seen.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { mcpCall as callTool } from "../helpers/mcp.js";
import type { RunningApi } from "../../src/main/server.js";
import { createAccount, createTrackedVideo, trackAccount } from "../folders/fixtures.js";

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

const mcpCall = (key: string, name: string, args: Record<string, unknown>) => callTool(api.url, key, name, args);

describe("tags: create, read, update, delete", () => {
  it("creates with a default colour, refuses a name taken in another case, renames, recolours, lists by name and deletes", async () => {
    const { c } = await setup();
    const created = await c.post(`${P}/tags`, { name: "  Brand deal " });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ id: expect.any(String), name: "Brand deal", color: "#64748b", createdAt: expect.any(String) });
    const id = created.body.data.id;
    const clash = await c.post(`${P}/tags`, { name: "BRAND DEAL", color: "#FF0000" });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe("TAG_EXISTS");
    const other = (await c.post(`${P}/tags`, { name: "Aardvark", color: "#FF00aa" })).body.data;
    expect(other.color).toBe("#ff00aa");

    const list = await c.get(`${P}/tags`);
    expect(list.body.data.map((t: any) => t.name)).toEqual(["Aardvark", "Brand deal"]);
    expect(list.body.data[0]).toEqual({ ...other, videoCount: 0, accountCount: 0, totalViews: 0 });

    expect((await c.patch(`${P}/tags/${other.id}`, { name: "brand DEAL" })).body.code).toBe("TAG_EXISTS");
    const updated = await c.patch(`${P}/tags/${id}`, { color: "#00AA00" });
    expect(updated.body.data).toEqual({ ...created.body.data, color: "#00aa00" });
    expect((await c.patch(`${P}/tags/${id}`, { name: "Sponsored" })).body.data.name).toBe("Sponsored");

    for (const bad of [
      { name: "" },
      { name: "x".repeat(51) },
      { name: "ok", color: "red" },
      { name: "ok", color: "#12345" },
      { name: "ok", extra: 1 },
    ]) {
      const r = await c.post(`${P}/tags`, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
    expect((await c.patch(`${P}/tags/${id}`, {})).status).toBe(400);

    expect((await c.delete(`${P}/tags/${id}`)).body.data).toEqual({ id });
    expect((await c.get(`${P}/tags/${id}`)).status).toBe(404);
    expect((await c.delete(`${P}/tags/${id}`)).status).toBe(404);
  });
});

describe("tagging, filtering and grouping by tag", () => {
  it("bulk tags and untags, filters the videos and accounts lists on every door, counts per tag, never across workspaces", async () => {
    const { ws, c } = await setup();
    const hot = (await c.post(`${P}/tags`, { name: "hot" })).body.data.id;
    const client1 = (await c.post(`${P}/tags`, { name: "client 1", color: "#3b82f6" })).body.data.id;
    const videos: { id: string }[] = [];
    for (let i = 0; i < 6; i++) videos.push(await createTrackedVideo(ws.workspaceId, { viewCount: 100 * (i + 1) }));
    const accounts = [];
    for (let i = 0; i < 3; i++) {
      const a = await createAccount();
      await trackAccount(ws.workspaceId, a.id);
      accounts.push(a);
    }
    const stranger = await newWorkspace();
    const theirVideo = await createTrackedVideo(stranger.workspaceId);
    const theirTag = (await client(api.url, stranger.key).post(`${P}/tags`, { name: "hot" })).body.data.id;
    await client(api.url, stranger.key).post(`${P}/tags/${theirTag}/videos`, { video_ids: [theirVideo.id] });

    const tagged = await c.post(`${P}/tags/${hot}/videos`, { video_ids: [videos[0]!.id, videos[1]!.id, videos[2]!.id, theirVideo.id] });
    expect(tagged.body.data).toEqual([
      { id: videos[0]!.id, success: true },
      { id: videos[1]!.id, success: true },
      { id: videos[2]!.id, success: true },
      { id: theirVideo.id, success: false, error: "Video not found" },
    ]);
    // Tagging again is a success and adds nothing.
    expect((await c.post(`${P}/tags/${hot}/videos`, { video_ids: [videos[0]!.id] })).body.data).toEqual([
      { id: videos[0]!.id, success: true },
    ]);
    await c.post(`${P}/tags/${client1}/videos`, { video_ids: [videos[2]!.id, videos[3]!.id] });
    await c.post(`${P}/tags/${client1}/accounts`, { account_ids: [accounts[0]!.id, accounts[1]!.id] });
    expect((await c.post(`${P}/tags/${hot}/videos`, { video_ids: Array.from({ length: 51 }, () => videos[0]!.id) })).status).toBe(400);
    expect((await c.post(`${P}/tags/${theirTag}/videos`, { video_ids: [videos[0]!.id] })).status).toBe(404);

    const ids = (r: any) => r.body.data.map((x: any) => x.id).sort();
    const sorted = (xs: { id: string }[]) => xs.map((x) => x.id).sort();
    // REST: one tag, several tags (any of them), and pagination.total counts the matches.
    const one = await c.get(`${P}/videos?tag=${hot}`);
    expect(ids(one)).toEqual(sorted(videos.slice(0, 3)));
    expect(one.body.pagination.total).toBe(3);
    expect(ids(await c.get(`${P}/videos?tag=${hot}&tag=${client1}`))).toEqual(sorted(videos.slice(0, 4)));
    expect(ids(await c.get(`${P}/videos?tag=${theirTag}`))).toEqual([]);
    expect((await c.get(`${P}/videos?tag=nope`)).body.code).toBe("VALIDATION_ERROR");
    const accs = await c.get(`${P}/accounts?tag=${client1}`);
    expect(ids(accs)).toEqual(sorted(accounts.slice(0, 2)));
    expect(accs.body.pagination.total).toBe(2);

    // Group by tag: counts and views per tag.
    const groups = (await c.get(`${P}/tags`)).body.data;
    expect(groups.map((t: any) => [t.name, t.videoCount, t.accountCount, t.totalViews])).toEqual([
      ["client 1", 2, 2, 300 + 400],
      ["hot", 3, 0, 100 + 200 + 300],
    ]);

    // GraphQL: tagIds on both lists, tags on each item, the tags connection with counts.
    const g = await gql(
      api.url,
      ws.key,
      `query($t: [ID!]) { videos(tagIds: $t, first: 10) { totalCount edges { node { uuid tags { uuid name color } } } }
         accounts(tagIds: $t, first: 10) { totalCount edges { node { uuid tags { name } } } }
         tags(first: 10) { totalCount edges { node { name videoCount accountCount totalViews } } } }`,
      { t: [client1] },
    );
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.videos.totalCount).toBe(2);
    const v2 = g.body.data.videos.edges.find((e: any) => e.node.uuid === videos[2]!.id).node;
    expect(v2.tags.map((t: any) => t.name)).toEqual(["client 1", "hot"]);
    expect(g.body.data.accounts.edges.map((e: any) => e.node.tags)).toEqual([[{ name: "client 1" }], [{ name: "client 1" }]]);
    expect(g.body.data.tags.edges.map((e: any) => e.node)).toEqual(
      groups.map((t: any) => ({ name: t.name, videoCount: t.videoCount, accountCount: t.accountCount, totalViews: t.totalViews })),
    );
    const gBad = await gql(api.url, ws.key, `{ videos(tagIds: ["x"], first: 1) { totalCount } }`);
    expect(gBad.body.errors![0]!.extensions!.code).toBe("VALIDATION_ERROR");

    // MCP: the same filter on list_videos and list_accounts, list_tags grouped, tag_videos.
    expect((await mcpCall(ws.key, "list_videos", { tag: hot })).body.data.map((v: any) => v.id).sort()).toEqual(sorted(videos.slice(0, 3)));
    expect((await mcpCall(ws.key, "list_accounts", { tag: [client1] })).body.pagination.total).toBe(2);
    expect((await mcpCall(ws.key, "list_tags", {})).body.data).toEqual(groups);
    expect((await mcpCall(ws.key, "tag_videos", { tag_id: hot, video_ids: [videos[5]!.id] })).body.data).toEqual([
      { id: videos[5]!.id, success: true },
    ]);
    expect((await mcpCall(stranger.key, "tag_videos", { tag_id: hot, video_ids: [theirVideo.id] })).body.code).toBe("NOT_FOUND");

    // A folder's videos take the same filter (REST `tag`, GraphQL `tagIds`), never with another workspace's tags.
    const folder = (await c.post(`${P}/folders`, { name: "tagged" })).body.data.id;
    await c.post(`${P}/folders/${folder}/videos`, { video_ids: videos.slice(0, 4).map((v) => v.id) });
    const inFolder = await c.get(`${P}/folders/${folder}/videos?tag=${client1}`);
    expect(inFolder.body.data.map((v: any) => v.id).sort()).toEqual(sorted(videos.slice(2, 4)));
    expect(inFolder.body.total).toBe(2);
    expect((await c.get(`${P}/folders/${folder}/videos?tag=${theirTag}`)).body.total).toBe(0);
    const gFolder = await gql(
      api.url,
      ws.key,
      `query($f: ID!, $t: [ID!]) { folder(id: $f) { videos(tagIds: $t, first: 10) { totalCount } } }`,
      { f: folder, t: [hot] },
    );
    expect(gFolder.body.data.folder.videos.totalCount).toBe(3);

    // Untag: REST and GraphQL; the items stay tracked.
    expect((await c.delete(`${P}/tags/${hot}/videos`, { video_ids: [videos[0]!.id, videos[4]!.id] })).body.data).toEqual({ removed: 1 });
    const un = await gql(api.url, ws.key, `mutation($t: ID!, $a: [ID!]!) { untagAccounts(tagId: $t, accountIds: $a) }`, {
      t: client1,
      a: [accounts[0]!.id],
    });
    expect(un.body.data.untagAccounts).toBe(1);
    expect((await c.get(`${P}/accounts?tag=${client1}`)).body.pagination.total).toBe(1);
    expect((await c.get(`${P}/videos`)).body.pagination.total).toBe(6);

    // The stranger's own lists: their tag holds their video only.
    const theirs = await client(api.url, stranger.key).get(`${P}/videos?tag=${theirTag}&tag=${hot}`);
    expect(ids(theirs)).toEqual([theirVideo.id]);
    const theirGroups = (await client(api.url, stranger.key).get(`${P}/tags`)).body.data;
    expect(theirGroups.map((t: any) => [t.name, t.videoCount])).toEqual([["hot", 1]]);
  });

  it("GraphQL creates, updates and deletes tags with the domain's validation", async () => {
    const { ws } = await setup();
    const made = await gql(api.url, ws.key, `mutation { createTag(name: "Q4", color: "#ABCDEF") { id uuid name color } }`);
    expect(made.body.data.createTag).toMatchObject({ name: "Q4", color: "#abcdef" });
    const dup = await gql(api.url, ws.key, `mutation { createTag(name: "q4") { id } }`);
    expect(dup.body.errors![0]!.extensions!.code).toBe("TAG_EXISTS");
    const bad = await gql(api.url, ws.key, `mutation { createTag(name: "x", color: "blue") { id } }`);
    expect(bad.body.errors![0]!.extensions!.code).toBe("VALIDATION_ERROR");
    const upd = await gql(api.url, ws.key, `mutation($id: ID!) { updateTag(id: $id, name: "Q1") { name color } }`, {
      id: made.body.data.createTag.id,
    });
    expect(upd.body.data.updateTag).toEqual({ name: "Q1", color: "#abcdef" });
    const del = await gql(api.url, ws.key, `mutation($id: ID!) { deleteTag(id: $id) }`, { id: made.body.data.createTag.uuid });
    expect(del.body.data.deleteTag).toBe(made.body.data.createTag.uuid);
  });
});
