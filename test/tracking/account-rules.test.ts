/**
 * Account tracking rules, pause and resume, retry of a failed sync, through the
 * real discovery path: the account's scrape job body with the simulated scrape provider (a stand-in
 * that fails, for the failed sync), REST, GraphQL and MCP over the same domain functions; tenancy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { client, gql, newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";
import { jobRun } from "../helpers/jobs.js";
import { prisma } from "../../src/infra/db.js";
import { queue } from "../../src/infra/queues.js";
import { SCRAPE_ACCOUNT, SCRAPE_VIDEO } from "../../src/domain/tracking/jobs.js";
import { refreshDue, scrapeAccount } from "../../src/domain/tracking/scrape-jobs.js";
import { createScrapeProvider } from "../../src/main/providers.js";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import { canonicalAccountUrl } from "../../src/domain/shared/platform.js";
import type { ScrapeProvider } from "../../src/domain/tracking/ports.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
let mcp: Client | null = null;
beforeAll(async () => {
  api = await startTestApi();
  await prisma.plan.create({ data: { name: "rules-plan", videoLimit: 30, monthlyCredits: 0 } });
});
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await stopAll(api);
});

const put = (key: string, path: string, body: unknown) => request(api.url, "PUT", path, { key, body });
const scrapeJobs = async (name: string) =>
  (await queue("scrape").getJobs(["waiting", "delayed", "prioritized"])).filter((j) => j.name === name);

async function trackedAccount(key: string, username: string, videoLimit: number): Promise<string> {
  const r = await client(api.url, key).post("/api/v1/accounts", { url: `https://www.tiktok.com/@${username}`, video_limit: videoLimit });
  expect(r.body.data.added).toEqual([username]);
  return (await prisma.account.findFirstOrThrow({ where: { username } })).id;
}

describe("an account's rules decide which of its videos are tracked", () => {
  let key: string;
  let accountId: string;
  let excluded: string;
  let skippedIds: string[];

  it("an excluded hashtag keeps the account's videos that carry it out, and they take no slot", async () => {
    ({ key } = await newWorkspace("rules-plan"));
    const username = "rules.creator";
    accountId = await trackedAccount(key, username, 10);

    // What the simulated listing of the account holds (deterministic): a hashtag some of its videos carry and others not.
    const provider = createScrapeProvider();
    const listing = await provider.scrapeAccount(
      { platform: "platformA", username, canonicalUrl: canonicalAccountUrl({ platform: "platformA", username }) },
      { maxVideos: 10 },
    );
    const counts = new Map<string, number>();
    for (const v of listing.videos) for (const t of v.hashtags) counts.set(t, (counts.get(t) ?? 0) + 1);
    excluded = [...counts].sort((a, b) => b[1] - a[1]).find(([, n]) => n < listing.videos.length)![0];
    const carrying = listing.videos.filter((v) => v.hashtags.includes(excluded)).length;
    expect(carrying).toBeGreaterThan(0);

    // Set with a # and capitals: stored as the service stores hashtags.
    const set = await put(key, `/api/v1/accounts/${accountId}/rules`, { excludeHashtags: [`#${excluded.toUpperCase()}`] });
    expect(set.status).toBe(200);
    expect(set.body.data.rules).toEqual({
      includeHashtags: [],
      excludeHashtags: [excluded],
      includeWords: [],
      excludeWords: [],
      minDurationSeconds: null,
      postedAfter: null,
    });

    await scrapeAccount(accountId, jobRun(), provider);

    const tracked = await prisma.trackedVideo.findMany({
      where: { video: { accountId } },
      select: { video: { select: { hashtags: true } } },
    });
    expect(tracked).toHaveLength(listing.videos.length - carrying);
    expect(tracked.every((t) => !t.video.hashtags.includes(excluded))).toBe(true);
    const limits = (await client(api.url, key).get("/api/v1/workspace")).body.data.limits;
    expect(limits.video_slots_used).toBe(listing.videos.length - carrying);

    // Listed with the reason; no scrape of its own is queued for a skipped video (nobody tracks it).
    const skipped = await client(api.url, key).get(`/api/v1/accounts/${accountId}/skipped-videos`);
    expect(skipped.status).toBe(200);
    expect(skipped.body.pagination.total).toBe(carrying);
    for (const s of skipped.body.data) {
      expect(s).toMatchObject({ rule: "excludeHashtags", reason: `Has #${excluded}, which this account's rules exclude.` });
      expect(s.url).toMatch(/^https:\/\/www\.tiktok\.com\/@rules\.creator\/video\//);
    }
    skippedIds = skipped.body.data.map((s: { videoId: string }) => s.videoId);
    const videoJobs = (await scrapeJobs(SCRAPE_VIDEO)).map((j) => j.data.videoId as string);
    expect(videoJobs.filter((id) => skippedIds.includes(id))).toEqual([]);

    // A second scrape (a refresh) skips the same videos once, keeping when they were first skipped.
    await scrapeAccount(accountId, jobRun(0, 5, "again"), provider, () => new Date(Date.now() + 3_600_000));
    const again = await client(api.url, key).get(`/api/v1/accounts/${accountId}/skipped-videos`);
    expect(again.body.data.map((s: { videoId: string; skippedAt: string }) => [s.videoId, s.skippedAt])).toEqual(
      skipped.body.data.map((s: { videoId: string; skippedAt: string }) => [s.videoId, s.skippedAt]),
    );
  });

  it("GraphQL and MCP read and write the same rules; bad rules are refused on every door", async () => {
    const q = await gql(
      api.url,
      key,
      `query($id: ID!) { account(id: $id) { tracking { rules { excludeHashtags minDurationSeconds } pausedAt
      skippedVideos(first: 2) { totalCount edges { node { rule reason url } } } } } }`,
      { id: accountId },
    );
    expect(q.body.errors).toBeUndefined();
    const tracking = q.body.data.account.tracking;
    expect(tracking.rules).toEqual({ excludeHashtags: [excluded], minDurationSeconds: null });
    expect(tracking.pausedAt).toBeNull();
    expect(tracking.skippedVideos.totalCount).toBe(skippedIds.length);
    expect(tracking.skippedVideos.edges[0].node.rule).toBe("EXCLUDE_HASHTAGS");

    const m = await gql(
      api.url,
      key,
      `mutation($id: ID!) { setAccountRules(id: $id, rules: { includeWords: ["Recipe"], minDurationSeconds: 30, postedAfter: "2026-01-01" }) {
      tracking { rules { includeWords excludeHashtags minDurationSeconds postedAfter } } } }`,
      { id: accountId },
    );
    expect(m.body.errors).toBeUndefined();
    expect(m.body.data.setAccountRules.tracking.rules).toEqual({
      includeWords: ["recipe"],
      excludeHashtags: [],
      minDurationSeconds: 30,
      postedAfter: "2026-01-01",
    });

    for (const bad of [
      { excludeHashtags: ["#no spaces"] },
      { minDurationSeconds: 0 },
      { postedAfter: "2026-02-30" },
      { surprise: true },
      { includeWords: "one" },
    ]) {
      const r = await put(key, `/api/v1/accounts/${accountId}/rules`, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
    const g = await gql(api.url, key, `mutation($id: ID!) { setAccountRules(id: $id, rules: { minDurationSeconds: -5 }) { uuid } }`, {
      id: accountId,
    });
    expect(g.body.errors![0]!.extensions!.code).toBe("VALIDATION_ERROR");

    mcp = new Client({ name: "account-rules-test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
    );
    const tool = (await mcp.callTool({ name: "set_account_rules", arguments: { account_id: accountId, excludeHashtags: [excluded] } })) as {
      structuredContent: any;
      isError?: boolean;
    };
    expect(tool.isError).toBeFalsy();
    expect(tool.structuredContent.data.rules.excludeHashtags).toEqual([excluded]);
    const listed = (await mcp.callTool({ name: "list_account_skipped_videos", arguments: { account_id: accountId } })) as {
      structuredContent: any;
    };
    expect(listed.structuredContent.pagination.total).toBe(skippedIds.length);
  });

  it("pause takes the account off the schedule and stops discovery; resume makes it due and queues its scrape", async () => {
    const scheduled = await prisma.account.findUniqueOrThrow({ where: { id: accountId } });
    expect(scheduled.nextRefreshAt).not.toBeNull();

    const paused = await client(api.url, key).post(`/api/v1/accounts/${accountId}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body.data.pausedAt).not.toBeNull();
    expect((await prisma.account.findUniqueOrThrow({ where: { id: accountId } })).nextRefreshAt).toBeNull();
    // Pausing again keeps the first time.
    expect((await client(api.url, key).post(`/api/v1/accounts/${accountId}/pause`)).body.data.pausedAt).toBe(paused.body.data.pausedAt);

    // A month later the scheduler still takes nothing of it; a scrape caused otherwise tracks nothing for the paused workspace.
    const later = new Date(Date.now() + 30 * 86_400_000);
    expect((await refreshDue(later)).accounts).toBe(0);
    await prisma.trackedAccount.updateMany({ where: { accountId }, data: { rules: {}, videoLimit: 20 } });
    const before = await prisma.trackedVideo.count({ where: { video: { accountId } } });
    const run = await scrapeAccount(
      accountId,
      jobRun(0, 5, "while-paused"),
      createScrapeProvider(),
      () => new Date(Date.now() + 7_200_000),
    );
    expect(run.tracked).toBe(0);
    expect(await prisma.trackedVideo.count({ where: { video: { accountId } } })).toBe(before);
    expect((await prisma.account.findUniqueOrThrow({ where: { id: accountId } })).nextRefreshAt).toBeNull();

    const jobsBefore = (await scrapeJobs(SCRAPE_ACCOUNT)).filter((j) => j.data.accountId === accountId).length;
    const resumed = await client(api.url, key).post(`/api/v1/accounts/${accountId}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.pausedAt).toBeNull();
    const due = (await prisma.account.findUniqueOrThrow({ where: { id: accountId } })).nextRefreshAt!;
    expect(due.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await scrapeJobs(SCRAPE_ACCOUNT)).filter((j) => j.data.accountId === accountId)).toHaveLength(jobsBefore + 1);
    expect((await refreshDue(new Date())).accounts).toBe(1);
  });
});

describe("a failed sync shows why and is retried once", () => {
  const failing: ScrapeProvider = {
    name: "simulated",
    scrapeVideo: () => Promise.reject(new ProviderError("simulated", "the profile is private", false)),
    scrapeAccount: () => Promise.reject(new ProviderError("simulated", "the profile is private", false)),
  };

  it("the reason is shown, two retries queue one scrape, and another workspace sees none of it", async () => {
    const { key } = await newWorkspace("rules-plan");
    const accountId = await trackedAccount(key, "rules.private", 5);
    await expect(scrapeAccount(accountId, jobRun(), failing)).rejects.toThrow("the profile is private");

    const shown = await client(api.url, key).get(`/api/v1/accounts/${accountId}`);
    expect(shown.body.data).toMatchObject({ scrapeStatus: "failed", scrapeError: "simulated: the profile is private" });

    const jobsOf = async () => (await scrapeJobs(SCRAPE_ACCOUNT)).filter((j) => j.data.accountId === accountId).length;
    const before = await jobsOf();
    const [a, b] = await Promise.all([1, 2].map(() => client(api.url, key).post(`/api/v1/accounts/${accountId}/retry`)));
    expect([a!.status, b!.status]).toEqual([202, 202]);
    expect([a!.body.data.queued, b!.body.data.queued].sort()).toEqual([false, true]);
    expect(await jobsOf()).toBe(before + 1);
    expect(a!.body.data.account.scrapeStatus).toBe("queued");
    // Asked again (GraphQL): nothing more is queued.
    const g = await gql(api.url, key, `mutation($id: ID!) { retryAccountSync(id: $id) { queued account { scrapeStatus scrapeError } } }`, {
      id: accountId,
    });
    expect(g.body.data.retryAccountSync).toEqual({
      queued: false,
      account: { scrapeStatus: "QUEUED", scrapeError: "simulated: the profile is private" },
    });
    expect(await jobsOf()).toBe(before + 1);

    // Tenancy: another workspace reaches none of the account's controls.
    const other = await newWorkspace("rules-plan");
    const c = client(api.url, other.key);
    for (const r of [
      await c.get(`/api/v1/accounts/${accountId}/skipped-videos`),
      await put(other.key, `/api/v1/accounts/${accountId}/rules`, {}),
      await c.post(`/api/v1/accounts/${accountId}/pause`),
      await c.post(`/api/v1/accounts/${accountId}/resume`),
      await c.post(`/api/v1/accounts/${accountId}/retry`),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.code).toBe("NOT_FOUND");
    }
    const og = await gql(api.url, other.key, `mutation($id: ID!) { pauseAccount(id: $id) { uuid } }`, { id: accountId });
    expect(og.body.errors![0]!.extensions!.code).toBe("NOT_FOUND");
    expect(await jobsOf()).toBe(before + 1);
    expect((await prisma.trackedAccount.findFirstOrThrow({ where: { accountId } })).pausedAt).toBeNull();
  });
});
