/**
 * GraphQL twins of the tracking routes (same services), nested relations batched per page (no
 * N+1), tenant isolation, and `videoUpdated` delivered over graphql-ws from a worker running in
 * another process.
 */
import pg from "pg";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { spawnService } from "../helpers/processes.js";
import { prisma } from "../../src/infra/db.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import { trackingJobs } from "../helpers/jobs.js";
import type { RunningApi } from "../../src/main/server.js";
import { waitUntil } from "../helpers/wait.js";

let api: RunningApi;
let workers: RunningWorkers | null = null;

beforeAll(async () => {
  api = await startTestApi();
  await prisma.plan.create({ data: { name: "tiny", videoLimit: 2, monthlyCredits: 0 } });
});
afterAll(() => stopAll(api, ...(workers ? [workers] : [])));

const VIDEO_FIELDS = `uuid type platformVideoId url description hashtags viewCount likeCount commentCount shareCount bookmarkCount
  engagementRate postedAt thumbnailUrl username displayName canonicalAccountId musicName musicAuthor musicCoverUrl
  scrapeStatus scrapeError lastScrapedAt dataSource`;

function wsClient(key: string) {
  return createClient({
    url: api.url.replace("http", "ws") + "/graphql",
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
    lazy: true,
  });
}

/** Counts the SQL statements this process sends while `fn` runs (the in-process API's queries); their texts go to `texts`. */
async function countQueries(fn: () => Promise<unknown>, texts: string[] = []): Promise<number> {
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  let n = 0;
  proto.query = function (this: unknown, ...args: unknown[]) {
    n++;
    const q = args[0] as string | { text?: string };
    texts.push(typeof q === "string" ? q : (q?.text ?? ""));
    return original.apply(this, args);
  };
  try {
    await fn();
  } finally {
    proto.query = original;
  }
  return n;
}

describe("GraphQL tracking (needs a worker)", () => {
  beforeAll(async () => {
    workers = await startWorkers([{ ...trackingJobs(), schedules: [] }]);
  });
  afterAll(async () => {
    await workers?.close();
    workers = null;
  });

  it("trackVideo, video and videos: the same rules and fields as REST", async () => {
    const ws = await newWorkspace();
    const r = await gql(api.url, ws.key, `mutation($url: String!) { trackVideo(url: $url) { trackedVideoId videoId isNew } }`, {
      url: "https://www.tiktok.com/@gql.user/video/7312345678901234567",
    });
    expect(r.body.errors).toBeUndefined();
    const { videoId, isNew } = r.body.data.trackVideo;
    expect(isNew).toBe(true);
    const v = await waitUntil(
      "the GraphQL answer",
      () => gql(api.url, ws.key, `query($id: ID!) { video(id: $id) { ${VIDEO_FIELDS} } }`, { id: videoId }),
      (x) => x.body.data?.video?.scrapeStatus === "READY",
    );
    const video = v.body.data.video;
    expect(video).toMatchObject({ uuid: videoId, type: "PLATFORM_A", username: "gql.user", dataSource: "simulated", scrapeError: null });
    expect(video.url).toBe("https://www.tiktok.com/@gql.user/video/7312345678901234567");
    expect(Number.isInteger(video.viewCount)).toBe(true);
    expect(typeof video.engagementRate).toBe("number");
    const rest = await fetch(`${api.url}/api/v1/videos/${videoId}`, { headers: { authorization: `Bearer ${ws.key}` } }).then((x) =>
      x.json(),
    );
    expect(video.viewCount).toBe(rest.data.viewCount);
    expect(video.engagementRate).toBe(rest.data.engagementRate);

    const again = await gql(
      api.url,
      ws.key,
      `mutation { trackVideo(url: "https://tiktok.com/@gql.user/video/7312345678901234567") { videoId } }`,
    );
    expect(again.body.errors?.[0]?.extensions?.code).toBe("ALREADY_TRACKED");
    const bad = await gql(api.url, ws.key, `mutation { trackVideo(url: "https://www.tiktok.com/@gql.user") { videoId } }`);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe("INVALID_URL");
    expect(bad.body.errors?.[0]?.message).toContain("https://youtu.be/<id>");

    await gql(api.url, ws.key, `mutation { trackVideo(url: "https://youtu.be/gqlvideo002") { videoId } }`);
    const page = await gql(
      api.url,
      ws.key,
      `{ videos(first: 1) { totalCount pageInfo { hasNextPage endCursor } edges { node { uuid type } } } }`,
    );
    expect(page.body.data.videos).toMatchObject({
      totalCount: 2,
      pageInfo: { hasNextPage: true },
      edges: [{ node: { type: "PLATFORM_B" } }],
    });
    const last = await gql(
      api.url,
      ws.key,
      `query($after: String) { videos(first: 1, after: $after) { pageInfo { hasNextPage } edges { node { uuid } } } }`,
      {
        after: page.body.data.videos.pageInfo.endCursor,
      },
    );
    expect(last.body.data.videos).toEqual({ pageInfo: { hasNextPage: false }, edges: [{ node: { uuid: videoId } }] });
    const badPage = await gql(api.url, ws.key, `{ videos(first: 101) { totalCount } }`);
    expect(badPage.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
  });

  it("trackVideo at the plan's limit is VIDEO_LIMIT_REACHED; trackAccount then lands in failed", async () => {
    const ws = await newWorkspace("tiny");
    for (const id of ["limit000001", "limit000002"]) {
      expect(
        (await gql(api.url, ws.key, `mutation { trackVideo(url: "https://youtu.be/${id}") { videoId } }`)).body.errors,
      ).toBeUndefined();
    }
    const over = await gql(api.url, ws.key, `mutation { trackVideo(url: "https://youtu.be/limit000003") { videoId } }`);
    expect(over.body.errors?.[0]?.extensions?.code).toBe("VIDEO_LIMIT_REACHED");
    const acc = await gql(
      api.url,
      ws.key,
      `mutation { trackAccount(url: "https://www.youtube.com/@nolimit") { added alreadyTracked failed } }`,
    );
    expect(acc.body.data.trackAccount).toEqual({ added: [], alreadyTracked: [], failed: ["nolimit"] });
  });

  it("trackAccount, accounts, account with its videos, accountVideos with dates, untrackVideos and untrackAccount", async () => {
    const ws = await newWorkspace();
    const t = await gql(
      api.url,
      ws.key,
      `mutation { trackAccount(url: "https://www.instagram.com/gql.creator/", videoLimit: 5) { added alreadyTracked failed } }`,
    );
    expect(t.body.data.trackAccount).toEqual({ added: ["gql.creator"], alreadyTracked: [], failed: [] });
    const badLimit = await gql(
      api.url,
      ws.key,
      `mutation { trackAccount(url: "https://www.instagram.com/other", videoLimit: 501) { added } }`,
    );
    expect(badLimit.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");

    const list = await waitUntil(
      "the GraphQL answer",
      () =>
        gql(
          api.url,
          ws.key,
          `{ accounts { totalCount pageInfo { hasNextPage } edges { node { uuid type username scrapeStatus followerCount
          tracking { videoLimit trackedAt } videos(first: 100) { totalCount edges { node { uuid type canonicalAccountId postedAt } } } } } } }`,
        ),
      (x) => x.body.data?.accounts?.edges?.[0]?.node?.scrapeStatus === "READY",
    );
    const account = list.body.data.accounts.edges[0].node;
    expect(list.body.data.accounts).toMatchObject({ totalCount: 1, pageInfo: { hasNextPage: false } });
    expect(account).toMatchObject({ type: "PLATFORM_C", username: "gql.creator", tracking: { videoLimit: 5 } });
    const videos = account.videos.edges.map((e: any) => e.node);
    expect(videos).toHaveLength(5);
    expect(account.videos.totalCount).toBe(5);
    expect(videos.every((v: any) => v.canonicalAccountId === account.uuid && v.type === "PLATFORM_C")).toBe(true);
    const accountId = account.uuid;

    const one = await gql(
      api.url,
      ws.key,
      `query($id: ID!) { account(id: $id) { uuid username videos(first: 1) { pageInfo { endCursor } } } }`,
      { id: accountId },
    );
    const after = one.body.data.account.videos.pageInfo.endCursor;
    const two = await gql(
      api.url,
      ws.key,
      `query($id: ID!, $after: String) { account(id: $id) { videos(first: 2, after: $after) { edges { node { uuid } } } } }`,
      { id: accountId, after },
    );
    expect(two.body.data.account.videos.edges.map((e: any) => e.node.uuid)).toEqual(videos.slice(1, 3).map((v: any) => v.uuid));

    const day = videos[2].postedAt.slice(0, 10);
    const dated = await gql(
      api.url,
      ws.key,
      `query($id: ID!, $d: String) { account(id: $id) { videos(startDate: $d, endDate: $d, first: 100) { totalCount edges { node { uuid postedAt } } } } }`,
      {
        id: accountId,
        d: day,
      },
    );
    const datedVideos = dated.body.data.account.videos;
    expect(datedVideos.edges.every((e: any) => e.node.postedAt.startsWith(day))).toBe(true);
    expect(datedVideos.totalCount).toBe(videos.filter((v: any) => v.postedAt.startsWith(day)).length);
    const badDate = await gql(api.url, ws.key, `query($id: ID!) { account(id: $id) { videos(startDate: "2026-13-01") { totalCount } } }`, {
      id: accountId,
    });
    expect(badDate.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    const tooMany = await gql(api.url, ws.key, `query($id: ID!) { account(id: $id) { videos(first: 500) { totalCount } } }`, {
      id: accountId,
    });
    expect(tooMany.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");

    // The page's relations load with it (one query for the page, not one per video).
    const withAccount = await gql(api.url, ws.key, `{ videos(first: 100) { edges { node { uuid account { uuid username } } } } }`);
    const listed = withAccount.body.data.videos.edges.map((e: any) => e.node);
    expect(listed).toHaveLength(5);
    expect(listed.every((v: any) => v.account.uuid === accountId && v.account.username === "gql.creator")).toBe(true);

    const ids = videos.map((v: any) => v.uuid);
    const unknown = "0f0e0d0c-0b0a-4909-8807-060504030201";
    const u = await gql(api.url, ws.key, `mutation($ids: [ID!]!) { untrackVideos(ids: $ids) { id success error } }`, {
      ids: [ids[0], unknown, ids[0]],
    });
    expect(u.body.data.untrackVideos).toEqual([
      { id: ids[0], success: true, error: null },
      { id: unknown, success: false, error: "Video not found." },
      { id: ids[0], success: false, error: expect.stringMatching(/duplicate/i) },
    ]);
    const many = await gql(api.url, ws.key, `mutation($ids: [ID!]!) { untrackVideos(ids: $ids) { id } }`, {
      ids: Array.from({ length: 51 }, () => unknown),
    });
    expect(many.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");

    const del = await gql(api.url, ws.key, `mutation($id: ID!) { untrackAccount(id: $id) }`, { id: accountId });
    expect(del.body.data.untrackAccount).toBe(accountId);
    expect((await gql(api.url, ws.key, `{ videos { totalCount } }`)).body.data.videos.totalCount).toBe(4);
    const gone = await gql(api.url, ws.key, `query($id: ID!) { account(id: $id) { id } }`, { id: accountId });
    expect(gone.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("nested relations load with the page: the statement count does not grow with the number of accounts", async () => {
    const ws = await newWorkspace();
    for (const name of ["plan.one", "plan.two", "plan.three", "plan.four"]) {
      await gql(api.url, ws.key, `mutation { trackAccount(url: "https://www.tiktok.com/@${name}", videoLimit: 3) { added } }`);
    }
    await waitUntil(
      "the GraphQL answer",
      () => gql(api.url, ws.key, `{ accounts { edges { node { scrapeStatus } } } }`),
      (x) => x.body.data?.accounts?.edges?.length === 4 && x.body.data.accounts.edges.every((e: any) => e.node.scrapeStatus === "READY"),
    );
    await workers?.close(); // keep the worker's statements out of the count
    workers = null;
    const query = (first: number) =>
      `{ accounts(first: ${first}) { edges { node { username videos { edges { node { uuid account { username } } } } } } } }`;
    let one: any, four: any;
    const n1 = await countQueries(async () => (one = await gql(api.url, ws.key, query(1))));
    const n4 = await countQueries(async () => (four = await gql(api.url, ws.key, query(4))));
    expect(one.body.data.accounts.edges).toHaveLength(1);
    expect(four.body.data.accounts.edges).toHaveLength(4);
    expect(four.body.data.accounts.edges.every((e: any) => e.node.videos.edges.length === 3)).toBe(true);
    // The accounts page and its count + every account's videos in one read; each video's account is
    // already loaded (the page's accounts), so it is not read again. (The API key is admitted
    // through Redis: no statement.)
    expect(n1).toBe(3);
    expect(n4).toBe(n1);

    // The tracked-video list with each video's account: the page, its total and the accounts in one
    // statement (the accounts come with the page and fill the Account loader). The same accounts,
    // field for field, as the loader's own read answers them (`nodes`, through accountsByIds).
    const ACCOUNT =
      "uuid username displayName followerCount lastScrapedAt createdAt nextRefreshAt tracking { trackedAccountId videoLimit trackedAt }";
    let page: any;
    const nPage = await countQueries(
      async () =>
        (page = await gql(api.url, ws.key, `{ videos(first: 12) { totalCount edges { node { uuid account { id ${ACCOUNT} } } } } }`)),
    );
    expect(nPage).toBe(1);
    const accounts = page.body.data.videos.edges.map((e: any) => e.node.account);
    expect(accounts).toHaveLength(12);
    expect(accounts.every((a: any) => a !== null)).toBe(true);
    const ids = [...new Set(accounts.map((a: any) => a.id))];
    const loaded = await gql(api.url, ws.key, `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Account { id ${ACCOUNT} } } }`, { ids });
    const byId = new Map(loaded.body.data.nodes.map((a: any) => [a.id, a]));
    for (const a of accounts) expect(a).toEqual(byId.get(a.id));
    // Through a fragment too; without `account`, the page's statement alone as before.
    expect(
      await countQueries(() =>
        gql(api.url, ws.key, `{ videos(first: 12) { edges { node { ...V } } } } fragment V on Video { account { username } }`),
      ),
    ).toBe(1);
    expect(await countQueries(() => gql(api.url, ws.key, `{ videos(first: 12) { edges { node { uuid } } } }`))).toBe(1);

    // Asking only the account's own fields, the page reads only their columns (no tracking join), still one
    // statement, and answers what the whole read answers.
    const OWN = "id uuid type url username displayName followerCount";
    const texts: string[] = [];
    let part: any;
    const nPart = await countQueries(
      async () => (part = await gql(api.url, ws.key, `{ videos(first: 12) { edges { node { uuid account { ${OWN} } } } } }`)),
      texts,
    );
    expect(nPart).toBe(1);
    expect(texts[0]).toMatch(/follower_count/);
    expect(texts[0]).not.toMatch(/avatar_url|tracked_accounts ta|ta\.rules/);
    const own = await gql(api.url, ws.key, `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Account { ${OWN} } } }`, { ids });
    const ownById = new Map(own.body.data.nodes.map((a: any) => [a.id, a]));
    for (const e of part.body.data.videos.edges) expect(e.node.account).toEqual(ownById.get(e.node.account.id));

    // A part is never what a later read of the same account or video finds: in one request with the partial
    // page, the accounts by id (the Account loader) and the page's videos by id (the Video loader, which
    // the page primes with its rows) answer every field, the tracking too.
    const WHOLE = "id avatarUrl videoCount totalViews tracking { videoLimit }";
    const videoIds = page.body.data.videos.edges.map((e: any) => e.node.uuid);
    const mixed = await gql(
      api.url,
      ws.key,
      `query($ids: [ID!]!, $videos: [ID!]!) {
        videos(first: 12) { edges { node { account { username } } } }
        nodes(ids: $ids) { ... on Account { ${WHOLE} } }
        again: videos(first: 12) { edges { node { uuid account { ${WHOLE} } } } }
        each: nodes(ids: $videos) { ... on Video { account { ${WHOLE} } } }
      }`,
      { ids, videos: await globalVideoIds(ws.key, videoIds) },
    );
    expect(mixed.body.errors).toBeUndefined();
    const whole = await gql(api.url, ws.key, `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Account { ${WHOLE} } } }`, { ids });
    const wholeById = new Map(whole.body.data.nodes.map((a: any) => [a.id, a]));
    expect(mixed.body.data.nodes).toEqual(whole.body.data.nodes);
    for (const e of mixed.body.data.again.edges) expect(e.node.account).toEqual(wholeById.get(e.node.account.id));
    for (const v of mixed.body.data.each) expect(v.account).toEqual(wholeById.get(v.account.id));
  });
});

/** The global IDs (`Video:<uuid>`) of these videos, as the list answers them. */
async function globalVideoIds(key: string, uuids: string[]): Promise<string[]> {
  const r = await gql(api.url, key, `{ videos(first: 100) { edges { node { id uuid } } } }`);
  const byUuid = new Map(r.body.data.videos.edges.map((e: any) => [e.node.uuid, e.node.id]));
  return uuids.map((u) => byUuid.get(u) as string);
}

describe("GraphQL tenant isolation", () => {
  it("another workspace's video and account ids are NOT_FOUND, also for the subscription", async () => {
    const owner = await newWorkspace();
    const videoId = (await gql(api.url, owner.key, `mutation { trackVideo(url: "https://youtu.be/isolated001") { videoId } }`)).body.data
      .trackVideo.videoId;
    await gql(api.url, owner.key, `mutation { trackAccount(url: "https://www.youtube.com/@isolated") { added } }`);
    const accountId = (await prisma.account.findFirstOrThrow({ where: { username: "isolated" } })).id;
    const other = await newWorkspace();
    for (const [q, vars] of [
      [`query($id: ID!) { video(id: $id) { id } }`, { id: videoId }],
      [`query($id: ID!) { account(id: $id) { id } }`, { id: accountId }],
      [`mutation($id: ID!) { untrackAccount(id: $id) }`, { id: accountId }],
    ] as const) {
      const r = await gql(api.url, other.key, q, vars);
      expect(r.body.errors?.[0]?.extensions?.code, q).toBe("NOT_FOUND");
    }
    expect((await gql(api.url, other.key, `{ videos { totalCount } accounts { totalCount } }`)).body.data).toEqual({
      videos: { totalCount: 0 },
      accounts: { totalCount: 0 },
    });
    const u = await gql(api.url, other.key, `mutation($ids: [ID!]!) { untrackVideos(ids: $ids) { success } }`, { ids: [videoId] });
    expect(u.body.data.untrackVideos).toEqual([{ success: false }]);

    const c = wsClient(other.key);
    const outcome = await new Promise<any>((resolve) => {
      c.subscribe(
        { query: `subscription($id: ID!) { videoUpdated(videoId: $id) { id } }`, variables: { id: videoId } },
        {
          next: (v) => resolve(v),
          error: (e) => resolve({ error: e }),
          complete: () => resolve("complete"),
        },
      );
    });
    expect(JSON.stringify(outcome)).toMatch(/NOT_FOUND|not found/);
    await c.dispose();
  });
});

describe("videoUpdated across processes", () => {
  it("a graphql-ws client receives the video as a worker in another process scrapes it", async () => {
    const ws = await newWorkspace();
    // No worker in this process: the video stays queued until the other process scrapes it.
    const { videoId } = (
      await gql(api.url, ws.key, `mutation { trackVideo(url: "https://www.youtube.com/shorts/crossproc01") { videoId } }`)
    ).body.data.trackVideo;
    const c = wsClient(ws.key);
    const seen: any[] = [];
    const ready = new Promise<any>((resolve, reject) => {
      c.subscribe(
        {
          query: `subscription($id: ID!) { videoUpdated(videoId: $id) { uuid scrapeStatus viewCount dataSource } }`,
          variables: { id: videoId },
        },
        {
          next: (v: any) => {
            seen.push(v.data?.videoUpdated);
            if (v.data?.videoUpdated?.scrapeStatus === "READY") resolve(v.data.videoUpdated);
          },
          error: reject,
          complete: () => undefined,
        },
      );
    });
    await new Promise((r) => setTimeout(r, 500)); // let the subscription reach Redis
    expect((await prisma.video.findUniqueOrThrow({ where: { id: videoId } })).scrapeStatus).toBe("queued");
    const worker = await spawnService("worker");
    try {
      const v = await ready;
      expect(v).toMatchObject({ uuid: videoId, scrapeStatus: "READY", dataSource: "simulated" });
      expect(Number.isInteger(v.viewCount)).toBe(true);
      expect(seen.every((x) => x.uuid === videoId)).toBe(true);
      // The current state first (queued, never scraped), then the scrape's changes.
      expect(seen[0]).toMatchObject({ uuid: videoId, scrapeStatus: "QUEUED", viewCount: null });
    } finally {
      await c.dispose();
      await worker.stop();
    }
  }, 90_000);
});

describe("accountUpdated", () => {
  it("sends the tracked account now, then as its scrape changes it; another workspace's account is NOT_FOUND", async () => {
    const ws = await newWorkspace();
    await gql(api.url, ws.key, `mutation { trackAccount(url: "https://www.youtube.com/@livewire", videoLimit: 2) { added } }`);
    const accountId = (await prisma.account.findFirstOrThrow({ where: { username: "livewire" } })).id;

    const other = wsClient((await newWorkspace()).key);
    const refused = await new Promise<unknown>((resolve) => {
      other.subscribe(
        { query: `subscription($id: ID!) { accountUpdated(accountId: $id) { id } }`, variables: { id: accountId } },
        { next: resolve, error: resolve, complete: () => resolve("complete") },
      );
    });
    expect(JSON.stringify(refused)).toMatch(/NOT_FOUND|not found/);
    await other.dispose();

    const c = wsClient(ws.key);
    const seen: any[] = [];
    const ready = new Promise<any>((resolve, reject) => {
      c.subscribe(
        {
          query: `subscription($id: ID!) { accountUpdated(accountId: $id) { id username scrapeStatus followerCount } }`,
          variables: { id: accountId },
        },
        {
          next: (v: any) => {
            seen.push(v.data?.accountUpdated);
            if (v.data?.accountUpdated?.scrapeStatus === "READY") resolve(v.data.accountUpdated);
          },
          error: reject,
          complete: () => undefined,
        },
      );
    });
    await waitUntil(
      "the current state",
      () => seen.length,
      (n) => n > 0,
    ); // first, once listening is confirmed
    expect(seen[0]).toMatchObject({ username: "livewire", scrapeStatus: "QUEUED", followerCount: null });
    workers ??= await startWorkers([{ ...trackingJobs(), schedules: [] }]);
    try {
      const a = await ready;
      expect(Number.isInteger(a.followerCount)).toBe(true);
      expect(seen.map((x) => x.scrapeStatus)).toContain("SCRAPING");
    } finally {
      await c.dispose();
    }
  }, 30_000);
});
