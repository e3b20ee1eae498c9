/**
 * GraphQL shaped for frontend clients (docs/contract/decisions.md, "GraphQL for frontends"):
 * global object identification for every node type, keyset cursor connections that stay valid when
 * rows are inserted before them, @defer/@stream over HTTP (multipart) and SSE, the workspace's
 * tracked-video stream, trusted documents, and the SQL statements each operation runs (so a
 * regression to N+1 or to reading a row twice fails here).
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { spawnService } from "../helpers/processes.js";
import {
  createAccount,
  createTrackedVideo,
  createVariedVideos,
  trackAccount,
  trackVideo,
  createVideo,
  snapshot,
} from "../folders/fixtures.js";
import { prisma } from "../../src/infra/db.js";
import { grant } from "../../src/domain/credits/service.js";
import type { RunningApi } from "../../src/main/server.js";
import { waitFor } from "../helpers/wait.js";
import { statementsOf } from "../helpers/statements.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

const edgesOf = (connection: { edges: { node: any }[] }) => connection.edges.map((e) => e.node);

/** A workspace with one of everything that is a node. */
async function populated() {
  const ws = await newWorkspace("pro");
  await grant({ workspaceId: ws.workspaceId, amount: 500, idempotencyKey: "frontends", reason: "test" });
  const account = await createAccount();
  await trackAccount(ws.workspaceId, account.id);
  const video = await createTrackedVideo(ws.workspaceId, {
    accountId: account.id,
    description: "What if I told you this? Follow for more.",
  });
  const c = client(api.url, ws.key);
  const folder = (await c.post("/api/v1/folders", { name: "nodes" })).body.data;
  await c.post(`/api/v1/folders/${folder.id}/videos`, { video_ids: [video.id] });
  const analysis = await prisma.videoAnalysis.create({ data: { workspaceId: ws.workspaceId, videoId: video.id, status: "completed" } });
  const search = await prisma.radarSearch.create({
    data: {
      workspaceId: ws.workspaceId,
      query: "q",
      platform: "platformA",
      depth: "quick",
      minViews: "any",
      timePeriod: "any",
      language: "English",
      status: "completed",
      resultCount: 1,
    },
  });
  const result = await prisma.radarResult.create({
    data: {
      searchId: search.id,
      rank: 1,
      platform: "platformA",
      platformVideoId: video.platformVideoId,
      url: video.url,
      score: 0.5,
      matchedQuery: "q",
    },
  });
  return { ws, account, video, folder, analysis, search, result };
}

describe("global object identification", () => {
  it("every node type round-trips through node and nodes, by global id; the REST id is its uuid", async () => {
    const p = await populated();
    const r = await gql(
      api.url,
      p.ws.key,
      `{
        workspace { id uuid credits { ledger(first: 1) { edges { node { id uuid } } } } }
        apiKeys(first: 1) { edges { node { id uuid } } }
        videos(first: 1) { edges { node { id uuid account { id uuid } analysis { id uuid } } } }
        folders(first: 1) { edges { node { id uuid } } }
        radarSearches(first: 1) { edges { node { id uuid results(first: 1) { edges { node { id uuid } } } } } }
      }`,
    );
    expect(r.body.errors).toBeUndefined();
    const d = r.body.data;
    const video = edgesOf(d.videos)[0];
    const search = edgesOf(d.radarSearches)[0];
    const objects: [string, { id: string; uuid: string }][] = [
      ["Workspace", d.workspace],
      ["CreditLedgerEntry", edgesOf(d.workspace.credits.ledger)[0]],
      ["ApiKey", edgesOf(d.apiKeys)[0]],
      ["Video", video],
      ["Account", video.account],
      ["VideoAnalysis", video.analysis],
      ["Folder", edgesOf(d.folders)[0]],
      ["RadarSearch", search],
      ["RadarResult", edgesOf(search.results)[0]],
    ];
    expect(objects.map(([, o]) => o.uuid)).toEqual([
      p.ws.workspaceId,
      expect.any(String),
      expect.any(String),
      p.video.id,
      p.account.id,
      p.analysis.id,
      p.folder.id,
      p.search.id,
      p.result.id,
    ]);
    for (const [typename, object] of objects) {
      expect(object.id, typename).not.toBe(object.uuid); // a global id, not the REST id
      const one = await gql(
        api.url,
        p.ws.key,
        `query($id: ID!) { node(id: $id) { __typename id ... on Video { uuid } ... on Folder { uuid } } }`,
        { id: object.id },
      );
      expect(one.body.errors, typename).toBeUndefined();
      expect(one.body.data.node, typename).toMatchObject({ __typename: typename, id: object.id });
    }
    const ids = objects.map(([, o]) => o.id);
    const many = await gql(api.url, p.ws.key, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`, { ids: [...ids].reverse() });
    expect(many.body.data.nodes.map((n: any) => n.id)).toEqual([...ids].reverse());

    // Another workspace sees none of them (null, as for an unknown id); a malformed id is refused.
    const other = await newWorkspace();
    const foreign = await gql(api.url, other.key, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids });
    expect(foreign.body.data.nodes).toEqual(ids.map(() => null));
    const bad = await gql(api.url, p.ws.key, `{ node(id: "not-a-global-id") { id } }`);
    expect(bad.body.errors?.[0]?.extensions?.code ?? bad.body.data?.node ?? null).not.toBe(undefined);
    expect(bad.body.data?.node ?? null).toBeNull();
  });

  it("arguments that take an entity accept its global id or its uuid; another type's global id is VALIDATION_ERROR", async () => {
    const p = await populated();
    const q = `query($id: ID!) { video(id: $id) { uuid } }`;
    const globalId = edgesOf((await gql(api.url, p.ws.key, `{ videos { edges { node { id } } } }`)).body.data.videos)[0].id;
    expect((await gql(api.url, p.ws.key, q, { id: globalId })).body.data.video.uuid).toBe(p.video.id);
    expect((await gql(api.url, p.ws.key, q, { id: p.video.id })).body.data.video.uuid).toBe(p.video.id);
    const folderGlobal = edgesOf((await gql(api.url, p.ws.key, `{ folders { edges { node { id } } } }`)).body.data.folders)[0].id;
    const wrongType = await gql(api.url, p.ws.key, q, { id: folderGlobal });
    expect(wrongType.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
  });
});

describe("cursor connections", () => {
  it("pages stay put while rows are inserted before them: the next page continues where the last ended, forward and backward", async () => {
    const ws = await newWorkspace("pro");
    const first = [];
    for (let i = 0; i < 7; i++) first.push((await createTrackedVideo(ws.workspaceId, { description: `old ${i}` })).id);
    const page = `query($after: String, $first: Int, $last: Int, $before: String) {
      videos(first: $first, after: $after, last: $last, before: $before) {
        totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { uuid } } } }`;
    const one = (await gql(api.url, ws.key, page, { first: 3 })).body.data.videos;
    expect(one.totalCount).toBe(7);
    // Newer videos arrive: they sort before everything already listed.
    for (let i = 0; i < 4; i++) await createTrackedVideo(ws.workspaceId, { description: `new ${i}` });
    const two = (await gql(api.url, ws.key, page, { first: 3, after: one.pageInfo.endCursor })).body.data.videos;
    const three = (await gql(api.url, ws.key, page, { first: 3, after: two.pageInfo.endCursor })).body.data.videos;
    const walked = [...edgesOf(one), ...edgesOf(two), ...edgesOf(three)].map((v) => v.uuid);
    // Newest tracked first: the seven old ones in reverse order of tracking, none twice, none skipped.
    expect(walked).toEqual([...first].reverse());
    expect(three.pageInfo.hasNextPage).toBe(false);
    expect(two.totalCount).toBe(11);
    // Backward from the end of page three: the two before its last item, in list order.
    const back = (await gql(api.url, ws.key, page, { last: 2, before: three.pageInfo.endCursor })).body.data.videos;
    expect(edgesOf(back).map((v) => v.uuid)).toEqual(walked.slice(4, 6));
    expect(back.pageInfo.hasPreviousPage).toBe(true);
    // A cursor that is not one, or a page over 100, is a VALIDATION_ERROR (never clamped).
    for (const vars of [{ first: 3, after: "garbage" }, { first: 101 }, { last: -1 }]) {
      expect((await gql(api.url, ws.key, page, vars)).body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    }
  });

  it("a folder's videos sorted by views keep their order across pages while videos are added before the cursor", async () => {
    const ws = await newWorkspace("pro");
    const account = await createAccount();
    await trackAccount(ws.workspaceId, account.id);
    await createVariedVideos(ws.workspaceId, 12, 7, { accountId: account.id });
    const folder = (await client(api.url, ws.key).post("/api/v1/folders", { name: "sorted" })).body.data;
    await client(api.url, ws.key).post(`/api/v1/folders/${folder.id}/accounts`, { account_ids: [account.id] });
    const q = `query($id: ID!, $after: String) { folder(id: $id) { videos(sort: VIEWS, order: DESC, first: 4, after: $after) {
      pageInfo { endCursor hasNextPage } edges { node { uuid viewCount } } } } }`;
    const seen: { uuid: string; viewCount: number | null }[] = [];
    let after: string | null = null;
    for (let n = 0; n < 4; n++) {
      const r: any = (await gql(api.url, ws.key, q, { id: folder.id, after })).body.data.folder.videos;
      seen.push(...edgesOf(r));
      // A video with more views than any: it sorts first, before every cursor.
      if (n === 0) await createTrackedVideo(ws.workspaceId, { accountId: account.id, viewCount: 999_999_999 });
      if (!r.pageInfo.hasNextPage) break;
      after = r.pageInfo.endCursor;
    }
    const rest = (await client(api.url, ws.key).get(`/api/v1/folders/${folder.id}/videos?sort=views&sort_order=desc&limit=100`)).body.data;
    // REST now lists the new video first; the pages walked before it arrived hold all the others, in REST's order.
    expect(seen.map((v) => v.uuid)).toEqual(rest.slice(1).map((v: any) => v.id));
  });
});

describe("incremental delivery", () => {
  it("@defer over HTTP answers multipart/mixed: the page first, the deferred fields in a later part", async () => {
    const ws = await newWorkspace();
    await createTrackedVideo(ws.workspaceId);
    const res = await fetch(`${api.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${ws.key}`, "content-type": "application/json", accept: "multipart/mixed" },
      body: JSON.stringify({ query: `{ videos { totalCount ... @defer { edges { node { uuid viewCount } } } } }` }),
    });
    expect(res.headers.get("content-type")).toMatch(/^multipart\/mixed/);
    const text = await res.text();
    const parts = text
      .split(/\r?\n---/)
      .map((p) => p.slice(p.indexOf("{")))
      .filter((p) => p.startsWith("{"))
      .map((p) => JSON.parse(p));
    expect(parts[0]).toMatchObject({ data: { videos: { totalCount: 1 } }, hasNext: true });
    expect(parts[0].data.videos.edges).toBeUndefined();
    const deferred = parts.find((p) => p.incremental);
    expect(deferred.incremental[0].data.edges).toHaveLength(1);
    expect(parts.at(-1).hasNext).toBe(false);
  });

  it("@stream over SSE sends the list's first items, then each further item in its own event", async () => {
    const ws = await newWorkspace();
    for (let i = 0; i < 3; i++) await createTrackedVideo(ws.workspaceId);
    const res = await fetch(`${api.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${ws.key}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: `{ videos(first: 3) { edges @stream(initialCount: 1) { node { uuid } } } }` }),
    });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = (await res.text())
      .split("\n\n")
      .map((block) => block.split("\n").find((l) => l.startsWith("data:")))
      .filter((l): l is string => !!l && l.length > 6)
      .map((l) => JSON.parse(l.slice(5)));
    expect(events[0].data.videos.edges).toHaveLength(1);
    const streamed = events
      .slice(1)
      .flatMap((e) => e.incremental ?? [])
      .flatMap((i: any) => i.items ?? []);
    expect(streamed).toHaveLength(2);
  });
});

describe("live data for a dashboard", () => {
  it("trackedVideosChanged streams ADDED, UPDATED and REMOVED for the workspace's videos only", async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const c = createClient({
      url: api.url.replace("http", "ws") + "/graphql",
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ws.key}` },
      retryAttempts: 0,
      lazy: true,
    });
    const seen: any[] = [];
    const got = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const t = setInterval(() => seen.length >= n && (clearInterval(t), resolve()), 20);
        setTimeout(() => (clearInterval(t), reject(new Error(`only ${JSON.stringify(seen)}`))), 10_000);
      });
    c.subscribe(
      { query: `subscription { trackedVideosChanged { change videoId video { uuid } } }` },
      { next: (v: any) => seen.push(v.data?.trackedVideosChanged ?? v), error: () => undefined, complete: () => undefined },
    );
    await new Promise((r) => setTimeout(r, 300)); // the subscription reaches Redis
    const mine = (await client(api.url, ws.key).post("/api/v1/videos", { url: "https://youtu.be/dashboard01" })).body.data.videoId;
    await client(api.url, other.key).post("/api/v1/videos", { url: "https://youtu.be/dashboard02" }); // not ours: never seen
    const { announceVideo } = await import("../../src/domain/tracking/events.js");
    await announceVideo(mine, "ready"); // what a scrape announces
    // `video` is read when a change is delivered (null once untracked): untrack only once the update has arrived.
    await got(2);
    await client(api.url, ws.key).post("/api/v1/videos/bulk-untrack", { ids: [mine] });
    await got(3);
    await c.dispose();
    expect(seen).toEqual([
      { change: "ADDED", videoId: mine, video: { uuid: mine } },
      { change: "UPDATED", videoId: mine, video: { uuid: mine } },
      { change: "REMOVED", videoId: mine, video: null },
    ]);
  });
});

describe("live accounts list", () => {
  it("trackedAccountsChanged streams ADDED, UPDATED (with the numbers a row shows) and REMOVED for the workspace's accounts only", async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const c = createClient({
      url: api.url.replace("http", "ws") + "/graphql",
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ws.key}` },
      retryAttempts: 0,
      lazy: true,
    });
    const seen: any[] = [];
    c.subscribe(
      { query: `subscription { trackedAccountsChanged { change accountId account { uuid username scrapeStatus } } }` },
      { next: (v: any) => seen.push(v.data?.trackedAccountsChanged ?? v), error: () => undefined, complete: () => undefined },
    );
    await new Promise((r) => setTimeout(r, 300)); // the subscription reaches Redis
    const { trackAccount, untrackAccount } = await import("../../src/domain/tracking/accounts.js");
    const { announceAccount } = await import("../../src/domain/tracking/events.js");
    await trackAccount(ws.workspaceId, "https://www.youtube.com/@livelist", 1);
    await trackAccount(other.workspaceId, "https://www.youtube.com/@notours", 1); // never seen
    const account = await prisma.account.findFirstOrThrow({ where: { username: "livelist" } });
    await announceAccount(account.id, "ready"); // what a scrape announces
    // `account` is read when a change is delivered: untrack only once the update has arrived.
    await waitFor("the update", () => seen.length >= 2, 10_000, 20);
    await untrackAccount(ws.workspaceId, account.id);
    await waitFor("three changes", () => seen.length >= 3, 10_000, 20);
    await new Promise((r) => setTimeout(r, 200)); // room for a wrong fourth change
    await c.dispose();
    expect(seen.map((e) => [e.change, e.accountId, e.account?.username ?? null])).toEqual([
      ["ADDED", account.id, "livelist"],
      ["UPDATED", account.id, "livelist"],
      ["REMOVED", account.id, null],
    ]);
  });
});

describe("workspace events", () => {
  it("workspaceEvents streams the workspace's events (the webhooks' source) with their id, and never another workspace's", async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const c = createClient({
      url: api.url.replace("http", "ws") + "/graphql",
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ws.key}` },
      retryAttempts: 0,
      lazy: true,
    });
    const seen: any[] = [];
    c.subscribe(
      { query: `subscription { workspaceEvents { id type data at } }` },
      { next: (v: any) => seen.push(v.data?.workspaceEvents ?? v), error: (e) => seen.push({ error: e }), complete: () => undefined },
    );
    await new Promise((r) => setTimeout(r, 300)); // the subscription reaches Redis
    const { emitWorkspaceEvents } = await import("../../src/domain/webhooks/outbox.js");
    await emitWorkspaceEvents([{ workspaceId: other.workspaceId, type: "video.spike", data: { videoId: "not-ours" } }]);
    await emitWorkspaceEvents([{ workspaceId: ws.workspaceId, type: "video.spike", data: { videoId: "ours", outlierScore: 4.5 } }]);
    await waitFor("the workspace's event", () => seen.length >= 1, 10_000, 20);
    await new Promise((r) => setTimeout(r, 200)); // room for a wrong second event
    await c.dispose();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ type: "VIDEO_SPIKE", data: { videoId: "ours", outlierScore: 4.5 } });
    const stored = await prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text FROM workspace_events WHERE workspace_id = $1::uuid`,
      ws.workspaceId,
    );
    expect(seen[0].id).toBe(stored[0]!.id);
    expect(Date.parse(seen[0].at)).not.toBeNaN();
  });
});

describe("trusted documents", () => {
  it("GRAPHQL_PERSISTED_ONLY accepts the manifest's operations by documentId (or APQ hash) and refuses any other", async () => {
    const ws = await newWorkspace();
    const dir = await mkdtemp(join(tmpdir(), "persisted-"));
    const manifest = join(dir, "persisted.json");
    await writeFile(manifest, JSON.stringify({ abc123: "query Plan { workspace { plan } }" }));
    const only = await spawnService("api", { GRAPHQL_PERSISTED_OPERATIONS: manifest, GRAPHQL_PERSISTED_ONLY: "true" });
    try {
      const post = (body: unknown) =>
        fetch(`${only.url}/graphql`, {
          method: "POST",
          headers: { authorization: `Bearer ${ws.key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<any>);
      expect((await post({ documentId: "abc123" })).data).toEqual({ workspace: { plan: "free" } });
      expect((await post({ extensions: { persistedQuery: { version: 1, sha256Hash: "abc123" } } })).data).toEqual({
        workspace: { plan: "free" },
      });
      const arbitrary = await post({ query: "{ workspace { plan } }" });
      expect(arbitrary.data ?? null).toBeNull();
      expect(arbitrary.errors?.[0]?.message).toMatch(/persisted/i);
      const unknown = await post({ documentId: "nope" });
      expect(unknown.errors?.[0]?.message).toMatch(/PersistedQueryNotFound/);
    } finally {
      await only.stop();
    }
  });
});

describe("statements per operation (a regression to N+1 or to a double read fails here)", () => {
  it("each operation runs a fixed number of statements, whatever the page size", async () => {
    const ws = await newWorkspace("pro");
    const accounts = [];
    for (let i = 0; i < 6; i++) {
      const a = await createAccount();
      await trackAccount(ws.workspaceId, a.id);
      accounts.push(a);
      for (let j = 0; j < 3; j++) await createTrackedVideo(ws.workspaceId, { accountId: a.id });
    }
    const shared = await createVideo({ accountId: accounts[0]!.id });
    await trackVideo(ws.workspaceId, shared.id);
    for (const a of accounts) await snapshot(a.id, new Date().toISOString().slice(0, 10), { followers: 1, views: 1, videos: 1 });
    const operations: [string, (n: number) => string, number][] = [
      // the page with its total, in one statement
      ["videos", (n) => `{ videos(first: ${n}) { totalCount edges { node { uuid viewCount } } } }`, 1],
      // + every video's account, in the page's own statement
      ["videos with accounts", (n) => `{ videos(first: ${n}) { totalCount edges { node { uuid account { uuid username } } } } }`, 1],
      // + every video's latest analysis in one read
      [
        "videos with accounts and analyses",
        (n) => `{ videos(first: ${n}) { edges { node { uuid account { uuid } analysis { uuid } } } } }`,
        2,
      ],
      // accounts page + its total; every account's videos; those videos' accounts are the page's (already loaded)
      [
        "accounts with videos",
        (n) =>
          `{ accounts(first: ${n}) { totalCount edges { node { uuid videos(first: 2) { totalCount edges { node { uuid account { uuid } } } } } } } }`,
        4,
      ],
      ["top videos", (n) => `{ topVideos(first: ${n}) { edges { node { uuid } } } }`, 1],
    ];
    // the key's first use reads it from the database and stamps lastUsedAt; later requests find it in Redis
    await gql(api.url, ws.key, "{ workspace { plan } }");
    for (const [name, query, expected] of operations) {
      const small = await statementsOf(() => gql(api.url, ws.key, query(2)));
      const large = await statementsOf(() => gql(api.url, ws.key, query(6)));
      expect(small.result.body.errors, name).toBeUndefined();
      expect(small.statements.length, `${name}: ${small.statements.join("\n---\n")}`).toBe(expected);
      expect(large.statements.length, name).toBe(expected);
    }
  });
});
