/**
 * Accounts bounded by the plan: four parallel POST /accounts with video_limit 500 on a
 * workspace with one slot left used to queue about 2,000 scrapes (each account listed, stored and
 * queued a scrape for 500 videos, most of which the workspace could never track). Now the account
 * scrape lists, stores and queues only what the workspace may still track, and an account waiting for
 * its first videos holds one of the additions remaining (README, "Plans and credits").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { jobRun } from "../helpers/jobs.js";
import { createTrackedVideo } from "../folders/fixtures.js";
import { prisma } from "../../src/infra/db.js";
import { queue } from "../../src/infra/queues.js";
import { SCRAPE_ACCOUNT, SCRAPE_VIDEO } from "../../src/domain/tracking/jobs.js";
import { scrapeAccount } from "../../src/domain/tracking/scrape-jobs.js";
import { createScrapeProvider } from "../../src/main/providers.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
  await prisma.plan.create({ data: { name: "two-slots", videoLimit: 2, monthlyCredits: 0 } });
});
afterAll(() => stopAll(api));

const jobsNamed = async (name: string) =>
  (await queue("scrape").getJobs(["waiting", "delayed", "prioritized"])).filter((j) => j.name === name);

describe("an account's discovered videos count toward what the workspace may make the service scrape", () => {
  it("four parallel POST /accounts (video_limit 500) with one slot left: one account, one listed video, one video scrape", async () => {
    const { key, workspaceId } = await newWorkspace("two-slots");
    await createTrackedVideo(workspaceId);
    const c = client(api.url, key);
    const before = new Set((await jobsNamed(SCRAPE_VIDEO)).map((j) => j.id));

    const answers = await Promise.all(
      ["one", "two", "three", "four"].map((name) =>
        c.post("/api/v1/accounts", { url: `https://www.tiktok.com/@bound.${name}`, video_limit: 500 }),
      ),
    );
    for (const a of answers) expect(a.status).toBe(201);
    const added = answers.flatMap((a) => a.body.data.added);
    const failed = answers.flatMap((a) => a.body.data.failed);
    expect(added).toHaveLength(1);
    expect(failed).toHaveLength(3);

    // The account's scrape (the job it queued, run here): it lists one video, the one slot left.
    const [accountJob] = await jobsNamed(SCRAPE_ACCOUNT);
    const accountId = accountJob!.data.accountId as string;
    await scrapeAccount(accountId, jobRun(), createScrapeProvider());
    const stored = await prisma.video.count({ where: { accountId } });
    expect(stored).toBe(1);
    const newScrapes = (await jobsNamed(SCRAPE_VIDEO)).filter((j) => !before.has(j.id));
    expect(newScrapes.length).toBeLessThanOrEqual(1);
    const limits = (await c.get("/api/v1/workspace")).body.data.limits;
    expect(limits).toMatchObject({ video_limit: 2, video_slots_used: 2, additions_remaining: 0 });

    // No slot left: another account is refused, and a second scrape of the account lists nothing new.
    const more = await c.post("/api/v1/accounts", { url: "https://www.tiktok.com/@bound.five", video_limit: 500 });
    expect(more.body.data.failed).toEqual(["bound.five"]);
    await scrapeAccount(accountId, jobRun(0, 5, "again"), createScrapeProvider(), () => new Date(Date.now() + 3_600_000));
    expect(await prisma.video.count({ where: { accountId } })).toBe(1);
  });

  it("a plan with room: the account's videos up to its video_limit, as before", async () => {
    const { key } = await newWorkspace("free");
    const c = client(api.url, key);
    const r = await c.post("/api/v1/accounts", { url: "https://www.tiktok.com/@bound.roomy", video_limit: 5 });
    expect(r.body.data.added).toEqual(["bound.roomy"]);
    const account = await prisma.account.findFirstOrThrow({ where: { username: "bound.roomy" } });
    await scrapeAccount(account.id, jobRun(), createScrapeProvider());
    expect(await prisma.video.count({ where: { accountId: account.id } })).toBe(5);
    // A second account while the first one's videos are tracked is accepted (room remains).
    expect((await c.post("/api/v1/accounts", { url: "https://www.tiktok.com/@bound.second" })).body.data.added).toEqual(["bound.second"]);
  });
});
