/**
 * The yt-dlp outbound budget (YTDLP_CALLS_PER_MINUTE): one count per platform in Redis, shared by
 * every limiter on the same Redis and prefix (here two instances on two connections, as two worker
 * processes have); a call past the budget waits for the next window, or fails retryable when that
 * is beyond its longest wait; and the yt-dlp providers take a turn, for the right platform, before
 * every run.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { redisOutboundBudget, type OutboundBudget } from "../../src/providers/outbound-budget.js";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import { YtdlpScrapeProvider } from "../../src/providers/scrape/ytdlp.js";
import { loadConfig } from "../../src/config.js";
import type { Platform } from "../../src/domain/shared/platform.js";

const connections: Redis[] = [];
const connection = () => {
  const r = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
  connections.push(r);
  return r;
};
afterAll(async () => {
  for (const r of connections) await r.quit();
});

/** Two limiters (two "processes") on one Redis and one prefix. */
function pair(perWindow: Partial<Record<Platform, number>>, windowSeconds: number, maxWaitMs: number): [OutboundBudget, OutboundBudget] {
  const keyPrefix = `${process.env.REDIS_PREFIX}:budget:${randomBytes(4).toString("hex")}`;
  return [0, 1].map(() => redisOutboundBudget({ redis: connection(), keyPrefix, perWindow, windowSeconds, maxWaitMs })) as [
    OutboundBudget,
    OutboundBudget,
  ];
}

const outcome = (p: Promise<void>) =>
  p.then(
    () => "ok" as const,
    (e: unknown) => e,
  );

describe("the yt-dlp outbound budget", () => {
  it("holds across two limiter instances: 5 per window in all, the rest refused (retryable) when they may not wait", async () => {
    const [a, b] = pair({ platformA: 5 }, 60, 0);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => outcome((i % 2 ? a : b).take("platformA"))));
    expect(results.filter((r) => r === "ok")).toHaveLength(5);
    const refused = results.filter((r) => r !== "ok") as ProviderError[];
    expect(refused).toHaveLength(7);
    for (const e of refused) {
      expect(e).toBeInstanceOf(ProviderError);
      expect(e.retryable).toBe(true);
      expect(e.message).toMatch(/platformA call budget \(5 per 60 s\) is spent/);
    }
  });

  it("each platform has its own budget, and 0 is none", async () => {
    const [a, b] = pair({ platformA: 1, platformB: 2, platformC: 0 }, 60, 0);
    await a.take("platformA");
    await expect(b.take("platformA")).rejects.toThrow(/spent/);
    await a.take("platformB");
    await b.take("platformB");
    await expect(a.take("platformB")).rejects.toThrow(/spent/);
    for (let i = 0; i < 20; i++) await (i % 2 ? a : b).take("platformC");
  });

  it("a call past the budget waits for the next window (the two instances together never exceed it)", async () => {
    const [a, b] = pair({ platformA: 2 }, 1, 10_000);
    const started: number[] = [];
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).take("platformA").then(() => started.push(Date.now() - t0))));
    started.sort((x, y) => x - y);
    // 2 at once, 2 in the next second, 2 in the one after: never more than 2 in one window.
    expect(started.slice(0, 2).every((t) => t < 900)).toBe(true);
    expect(started[2]!).toBeGreaterThanOrEqual(700);
    expect(started[4]!).toBeGreaterThanOrEqual(1700);
  });

  it("a waiting call stops when its signal aborts", async () => {
    const [a] = pair({ platformA: 1 }, 60, 120_000);
    await a.take("platformA");
    const controller = new AbortController();
    const waiting = outcome(a.take("platformA", controller.signal));
    setTimeout(() => controller.abort(), 50);
    const e = (await waiting) as ProviderError;
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.message).toMatch(/cancelled while it waited/);
  });

  it("the yt-dlp scrape provider takes a turn for the video's platform before each run", async () => {
    const dir = await mkdtemp(join(tmpdir(), "budget-"));
    try {
      const fake = join(dir, "yt-dlp");
      await writeFile(fake, "#!/bin/sh\nexit 1\n");
      await chmod(fake, 0o755);
      const taken: Platform[] = [];
      const budget: OutboundBudget = { take: async (platform) => void taken.push(platform) };
      const scraper = new YtdlpScrapeProvider({ path: fake, timeoutMs: 5000, concurrency: 1, budget });
      await expect(
        scraper.scrapeVideo({
          platform: "platformB",
          platformVideoId: "dQw4w9WgXcQ",
          canonicalUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        } as never),
      ).rejects.toThrow();
      expect(taken).toEqual(["platformB"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("is configured by YTDLP_CALLS_PER_MINUTE with per-platform overrides", () => {
    const c = loadConfig({
      ...process.env,
      SCRAPE_PROVIDER: "simulated",
      YTDLP_CALLS_PER_MINUTE: "30",
      YTDLP_CALLS_PER_MINUTE_BY_PLATFORM: "platformC=5, platformB=0",
    });
    expect(c.programs.ytdlpCallsPerMinute).toEqual({ platformA: 30, platformB: 0, platformC: 5 });
    expect(loadConfig({ ...process.env, SCRAPE_PROVIDER: "simulated" }).programs.ytdlpCallsPerMinute).toEqual({
      platformA: 60,
      platformB: 60,
      platformC: 60,
    });
    expect(() => loadConfig({ ...process.env, YTDLP_CALLS_PER_MINUTE_BY_PLATFORM: "myspace=3" })).toThrow(
      /YTDLP_CALLS_PER_MINUTE_BY_PLATFORM/,
    );
  });
});
