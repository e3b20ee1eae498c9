/**
 * Every webhook event's delivery matches the schema the service publishes for it: the
 * OpenAPI document served at GET /api/v1/openapi.json describes each event's POST under `webhooks`;
 * here each event is made by the domain as in production (an analysis completing and
 * failing, a radar search completing and failing, an account scrape discovering a video, a scrape
 * crossing the spike threshold, a charge taking the balance low, a refused addition, a campaign closed
 * past its budget, a test event), delivered by the real
 * worker and sender to a receiver on loopback, its signature checked, and its body validated against
 * that published schema with a JSON Schema 2020-12 validator (Ajv), closed for the check: a field
 * sent but not documented fails it as much as a documented one missing or of another type.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  process.env.WEBHOOK_SECRET_KEY = "test-only-webhook-secret-key-payload-schemas";
});

import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { RunningApi } from "../../src/main/server.js";
import { request, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import { webhooksQueue } from "../../src/jobs/registry.js";
import { HttpWebhookSender } from "../../src/providers/webhooks/http.js";
import { createWebhook, sendTestEvent } from "../../src/domain/webhooks/service.js";
import { WORKSPACE_EVENT_TYPES } from "../../src/domain/shared/workspace-events.js";
import { createSearch } from "../../src/domain/radar/service.js";
import { completeSearch, failSearch, startSearch } from "../../src/domain/radar/lifecycle.js";
import { createSearchInput } from "../../src/domain/radar/inputs.js";
import { parseInput } from "../../src/domain/shared/inputs.js";
import { charge } from "../../src/domain/credits/service.js";
import { advance, analyze, complete, fail, storeTranscript } from "../../src/domain/analysis/service.js";
import { scrapeAccount, scrapeVideo } from "../../src/domain/tracking/scrape-jobs.js";
import { trackAccount } from "../../src/domain/tracking/accounts.js";
import { simulateVideo } from "../../src/providers/scrape/simulated.js";
import type { ScrapedAccount, ScrapeProvider } from "../../src/domain/tracking/ports.js";
import type { JobRun } from "../../src/domain/shared/jobs.js";
import { prisma } from "../../src/infra/db.js";
import { trackedVideo } from "../analysis/fixtures.js";
import { startReceiver, verifySignature, waitFor, type Receiver } from "./receiver.js";

let api: RunningApi;
let receiver: Receiver;
let workers: RunningWorkers;

beforeAll(async () => {
  [api, receiver] = await Promise.all([startTestApi(), startReceiver()]);
  workers = await startWorkers([webhooksQueue(() => new HttpWebhookSender())]);
});
afterAll(async () => {
  await receiver.close();
  await stopAll(api, workers);
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const run = (queuedAt: Date): JobRun => ({ attempt: 1, maxAttempts: 3, starts: 1, queuedAt });

/** Every object of the document that lists its properties, closed to others: what is sent must be what is documented. */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (!node || typeof node !== "object") return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closed(v)]));
  if (out.type === "object" && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** Makes each of the eight events happen in the workspace, the way production makes it. */
async function everyEvent(workspaceId: string): Promise<void> {
  await prisma.workspace.update({ where: { id: workspaceId }, data: { grantedCredits: 1000 } });
  // analysis.completed and analysis.failed
  const done = await analyze(workspaceId, await trackedVideo(workspaceId), {});
  await advance(done.analysisId, "pending", "downloading");
  await storeTranscript(done.analysisId, {
    transcript: "follow for more",
    segments: [],
    transcriptSource: "captions",
    language: "en",
    confidence: null,
    used: true,
    note: null,
  });
  await advance(done.analysisId, "transcribed", "analyzing");
  await complete(
    done.analysisId,
    { hookStyle: "question", hookPhrase: "Why?", ugcFit: "high", ugcConfidence: 80, ctaType: "follow", ctaDestinationUrl: null },
    "heuristic",
  );
  await fail((await analyze(workspaceId, await trackedVideo(workspaceId), {})).analysisId, "the media could not be read");
  // radar.completed and radar.failed
  const input = parseInput(createSearchInput, { query: "sourdough starters", platform: "platformA" });
  const found = await createSearch(workspaceId, input);
  await startSearch(found.searchId);
  await completeSearch(found.searchId, [], "nothing in the catalog yet");
  await failSearch((await createSearch(workspaceId, input)).searchId, "every provider failed");
  // video.spike: a scrape whose views take the outlier score past the threshold
  const owner = await prisma.account.create({ data: { platform: "platformB", username: "schema.spiky" } });
  for (let i = 0; i < 5; i++) {
    await prisma.video.create({
      data: {
        platform: "platformB",
        platformVideoId: `schemaOther${i}`,
        url: "https://example.invalid",
        accountId: owner.id,
        viewCount: 1000,
        postedAt: new Date(Date.now() - (i + 3) * DAY),
      },
    });
  }
  const spiky = await prisma.video.create({
    data: {
      platform: "platformB",
      platformVideoId: "schemaSpike",
      url: "https://www.youtube.com/watch?v=schemaSpike",
      accountId: owner.id,
    },
  });
  await prisma.trackedVideo.create({ data: { workspaceId, videoId: spiky.id } });
  let views = 2000;
  const videos: ScrapeProvider = {
    name: "simulated",
    scrapeVideo: async (ref) => ({
      ...simulateVideo(ref, new Date()),
      viewCount: views,
      username: "schema.spiky",
      postedAt: new Date(Date.now() - 2 * DAY),
    }),
    scrapeAccount: async () => {
      throw new Error("unused");
    },
  };
  let t = Date.now();
  await scrapeVideo(spiky.id, run(new Date(t)), videos, () => new Date((t += HOUR)));
  views = 5000;
  await scrapeVideo(spiky.id, run(new Date(t + 1000)), videos, () => new Date((t += HOUR)));
  // account.video_discovered: an account scrape that lists a video posted since the last one
  await trackAccount(workspaceId, "https://www.youtube.com/@schema.discover", 10);
  const account = await prisma.account.findFirstOrThrow({ where: { username: "schema.discover" } });
  const profile: ScrapedAccount = {
    platform: "platformB",
    username: "schema.discover",
    platformAccountId: null,
    displayName: "",
    avatarUrl: "",
    followerCount: 1,
    videoCount: null,
    totalViews: 10,
  };
  const listed = [{ id: "schemDisc01", postedAt: new Date(Date.now() - DAY) }];
  const accounts: ScrapeProvider = {
    name: "simulated",
    scrapeVideo: async () => {
      throw new Error("unused");
    },
    scrapeAccount: async (_ref, opts) => ({
      account: profile,
      videos: listed.slice(0, opts.maxVideos).map((v) => ({
        ...simulateVideo(
          { platform: "platformB", platformVideoId: v.id, canonicalUrl: `https://www.youtube.com/watch?v=${v.id}` },
          new Date(),
        ),
        username: "schema.discover",
        postedAt: v.postedAt,
        partial: true,
      })),
    }),
  };
  const t1 = new Date();
  await scrapeAccount(account.id, run(t1), accounts, () => t1);
  const posted = new Date(Date.now() + 1000);
  listed.unshift({ id: "schemDisc02", postedAt: posted });
  const t2 = new Date(posted.getTime() + HOUR);
  await scrapeAccount(account.id, run(t2), accounts, () => t2);
  // credits.low: a charge taking the balance below 10 % of the monthly allowance
  await prisma.workspace.update({ where: { id: workspaceId }, data: { grantedCredits: 0 } });
  const { getBalance } = await import("../../src/domain/credits/service.js");
  const left = (await getBalance(workspaceId)).totalRemaining;
  await charge({ workspaceId, amount: Math.max(1, left - 5), idempotencyKey: "schema-low", reason: "test: low balance" });
  // plan.limit_reached: an addition refused by the plan's video tracking limit (a plan whose limit is what is tracked now)
  const { trackedVideoCount } = await prisma.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
  await prisma.plan.create({ data: { name: "schema-full", videoLimit: trackedVideoCount, monthlyCredits: 200 } });
  await prisma.workspace.update({ where: { id: workspaceId }, data: { planName: "schema-full" } });
  const { trackVideo } = await import("../../src/domain/tracking/videos.js");
  await expect(trackVideo(workspaceId, "https://www.youtube.com/watch?v=schemaFull1")).rejects.toMatchObject({
    code: "VIDEO_LIMIT_REACHED",
  });
  // campaign.budget_reached and campaign.closed: an owner closes a campaign whose one video earned past its budget
  const { createCampaign, setVideosByHand } = await import("../../src/domain/campaigns/service.js");
  const { closeCampaign } = await import("../../src/domain/campaigns/close.js");
  const { createCampaignInput } = await import("../../src/domain/campaigns/inputs.js");
  const owner_ = { workspaceId, role: "owner" as const, principal: { kind: "system" as const, label: "schema test" }, clientAddress: null };
  const campaign = await createCampaign(
    owner_,
    parseInput(createCampaignInput, {
      name: "Schema campaign",
      starts_at: "2026-10-01",
      ends_at: "2026-11-01",
      currency: "EUR",
      cpm_minor: 1000,
      budget_minor: 100,
    }),
  );
  const paid = await trackedVideo(workspaceId);
  await setVideosByHand(owner_, campaign.id, [paid], "added");
  await prisma.$executeRaw`INSERT INTO video_metric_points (video_id, captured_at, source, view_count)
    VALUES (${paid}::uuid, '2026-09-30T00:00:00Z', 'simulated', 0), (${paid}::uuid, '2026-10-15T00:00:00Z', 'simulated', 1000)`;
  await closeCampaign(owner_, campaign.id);
}

describe("webhook payloads against their published schemas", () => {
  it("a real delivery of each of the nine events matches the schema GET /api/v1/openapi.json publishes for it", async () => {
    const doc = (await request(api.url, "GET", "/api/v1/openapi.json")).body as { webhooks: Record<string, unknown> };
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WORKSPACE_EVENT_TYPES].sort());
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ ...(closed(doc) as object), $id: "https://video-service.test/openapi.json" });
    const validatorOf = (type: string) =>
      ajv.getSchema(`https://video-service.test/openapi.json#/webhooks/${type}/post/requestBody/content/application~1json/schema`)!;

    const { workspaceId } = await newWorkspace("free", "Schemas");
    const path = "/every-event";
    const { webhook, secret } = await createWebhook(workspaceId, { url: receiver.url(path), events: [...WORKSPACE_EVENT_TYPES] });
    await everyEvent(workspaceId);
    await sendTestEvent(workspaceId, webhook.id);

    const deliveries = await waitFor(
      "a delivery of every event type",
      () => {
        const got = receiver.at(path).map((r) => ({ r, body: JSON.parse(r.body) as { type: string } }));
        return WORKSPACE_EVENT_TYPES.every((type) => got.some((g) => g.body.type === type)) ? got : null;
      },
      30_000,
    );
    for (const type of WORKSPACE_EVENT_TYPES) {
      const { r, body } = deliveries.find((d) => d.body.type === type)!;
      expect(verifySignature(secret, r), `${type}: signature`).toBe(true);
      const validate = validatorOf(type);
      expect(validate, `${type}: a published schema`).toBeTruthy();
      const valid = validate(body);
      expect(valid ? [] : validate.errors, `${type}: ${r.body}`).toEqual([]);
    }
  });
});
