import { describe, expect, it } from "vitest";
import { parseAccountUrl, parseVideoUrl } from "../../src/domain/tracking/urls.js";
import { isPlatformVideoId } from "../../src/domain/shared/platform.js";
import { createScrapeProvider } from "../../src/main/providers.js";
import { SIMULATED_LABEL, SimulatedScrapeProvider } from "../../src/providers/scrape/simulated.js";
import type { ScrapedVideo, VideoRef } from "../../src/domain/tracking/ports.js";
import { YtdlpScrapeProvider } from "../../src/providers/scrape/ytdlp.js";

const NOW = new Date("2026-11-22T12:00:00Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const at = (date: Date) => new SimulatedScrapeProvider({ now: () => date });

const REFS: VideoRef[] = [
  parseVideoUrl("https://www.tiktok.com/@chef.marta/video/7350269128141550069"),
  parseVideoUrl("https://www.youtube.com/shorts/aBcD3fGh1jK"),
  parseVideoUrl("https://www.instagram.com/reel/C5aB3dEfGhI/"),
];

/** Many refs of every platform, with ids of the platform's own form. */
function manyRefs(n: number): VideoRef[] {
  return Array.from({ length: n }, (_, i) => {
    const platform = (["platformA", "platformB", "platformC"] as const)[i % 3];
    const id = platform === "platformA" ? String(7_300_000_000_000_000_000n + BigInt(i) * 7919n) : `v${String(i).padStart(10, "0")}`;
    const url =
      platform === "platformA"
        ? `https://www.tiktok.com/@user${i}/video/${id}`
        : platform === "platformB"
          ? `https://youtu.be/${id}`
          : `https://www.instagram.com/reel/${id}/`;
    return parseVideoUrl(url);
  });
}

const COUNTS = ["viewCount", "likeCount", "commentCount", "shareCount", "bookmarkCount"] as const;

describe("simulated scrape provider", () => {
  it("is named simulated and labels what it makes", async () => {
    const provider = at(NOW);
    expect(provider.name).toBe("simulated");
    for (const ref of REFS) {
      expect((await provider.scrapeVideo(ref)).displayName.endsWith(SIMULATED_LABEL)).toBe(true);
    }
    const { account } = await provider.scrapeAccount(parseAccountUrl("https://www.youtube.com/@sweetbytes"), { maxVideos: 1 });
    expect(account.displayName).toBe(`Sweetbytes ${SIMULATED_LABEL}`);
  });

  it("is deterministic: two instances agree on every field, different ids differ", async () => {
    for (const ref of REFS) {
      expect(await at(NOW).scrapeVideo(ref)).toEqual(await at(new Date(NOW)).scrapeVideo(ref));
    }
    const [a, b] = await Promise.all(manyRefs(2).map((r) => at(NOW).scrapeVideo(r)));
    expect(a.description === b.description && a.viewCount === b.viewCount).toBe(false);
  });

  it("keeps the ids, the canonical URL and the handle of the ref", async () => {
    const video = await at(NOW).scrapeVideo(REFS[0]);
    expect(video).toMatchObject({
      platform: "platformA",
      platformVideoId: "7350269128141550069",
      url: "https://www.tiktok.com/@chef.marta/video/7350269128141550069",
      username: "chef.marta",
      displayName: `Chef Marta ${SIMULATED_LABEL}`,
    });
  });

  it("counts never go down between two scrapes, and they do grow", async () => {
    const refs = manyRefs(300);
    const times = [NOW, new Date(+NOW + HOUR), new Date(+NOW + DAY), new Date(+NOW + 30 * DAY), new Date(+NOW + 400 * DAY)];
    const series = await Promise.all(times.map((t) => Promise.all(refs.map((r) => at(t).scrapeVideo(r)))));
    for (let i = 0; i < refs.length; i++) {
      for (let t = 1; t < times.length; t++) {
        for (const field of COUNTS) {
          const before = series[t - 1][i][field];
          const after = series[t][i][field];
          if (before === null || after === null) {
            expect(after).toBe(before);
          } else {
            expect(after).toBeGreaterThanOrEqual(before);
          }
        }
      }
      expect(series[4][i].viewCount!).toBeGreaterThan(series[0][i].viewCount!);
    }
  });

  it("a history read from it has the shape of a real one: a fast rise, a slowing tail, and a spike now and then", async () => {
    const refs = manyRefs(400);
    let fastRise = 0;
    let spiked = 0;
    for (const ref of refs) {
      const posted = (await at(NOW).scrapeVideo(ref)).postedAt!.getTime();
      const views = await Promise.all(
        Array.from({ length: 121 }, (_, d) =>
          at(new Date(posted + d * DAY))
            .scrapeVideo(ref)
            .then((v) => v.viewCount!),
        ),
      );
      const gains = views.slice(1).map((v, i) => v - views[i]!);
      expect(gains.every((g) => g >= 0)).toBe(true);
      // Half of the first four months' views come in the first week, for most videos.
      if (views[7]! >= 0.5 * views[120]!) fastRise++;
      // A spike: a day after the first week gaining more than 4 times the previous week's daily average.
      const spike = gains.some(
        (g, d) => d >= 14 && g > 4 * Math.max(1, gains.slice(d - 7, d).reduce((a, b) => a + b, 0) / 7) && g > 0.05 * views[d]!,
      );
      if (spike) spiked++;
    }
    expect(fastRise).toBeGreaterThan(0.7 * refs.length);
    expect(spiked).toBeGreaterThan(0.03 * refs.length);
    expect(spiked).toBeLessThan(0.4 * refs.length);
    // A creator's videos sit around the creator's level: within an account, views spread less than across accounts.
    const spread = (xs: number[]) => Math.log10(Math.max(...xs) / Math.max(1, Math.min(...xs)));
    const within = (await at(NOW).scrapeAccount(parseAccountUrl("https://www.tiktok.com/@chef.marta"), { maxVideos: 200 })).videos.filter(
      (v) => v.postedAt!.getTime() < NOW.getTime() - 60 * DAY,
    );
    expect(spread(within.map((v) => v.viewCount!))).toBeLessThan(2.5);
  });

  it("has nothing before the video was posted, and its posted date stays put", async () => {
    const now = await at(NOW).scrapeVideo(REFS[1]);
    const before = await at(new Date(now.postedAt!.getTime() - DAY)).scrapeVideo(REFS[1]);
    expect(before.postedAt).toEqual(now.postedAt);
    expect(before).toMatchObject({ viewCount: 0, likeCount: 0, commentCount: 0 });
    expect(now.viewCount).toBeGreaterThan(0);
  });

  it("gives the metrics each platform's real source gives: shares and saves only on platform A", async () => {
    const [a, b, c] = await Promise.all(REFS.map((r) => at(NOW).scrapeVideo(r)));
    expect(a.shareCount).toEqual(expect.any(Number));
    expect(a.bookmarkCount).toEqual(expect.any(Number));
    expect(a.musicName).not.toBe("");
    for (const video of [b, c]) {
      expect(video).toMatchObject({ shareCount: null, bookmarkCount: null, musicName: "", musicAuthor: "" });
      expect(video.likeCount).toEqual(expect.any(Number));
    }
  });

  it("writes descriptions like real captions: sentences, hashtags at the end, calls to action in some", async () => {
    const videos = await Promise.all(manyRefs(200).map((r) => at(NOW).scrapeVideo(r)));
    for (const video of videos) {
      expect(video.description).toMatch(/^[A-Z"].*[.!?] (#\w+ ?)+$/u);
      expect(video.hashtags.length).toBeGreaterThanOrEqual(2);
      expect(video.hashtags.every((tag) => video.description.includes(`#${tag}`))).toBe(true);
    }
    const withCta = videos.filter((v) => /Follow for more|Save this|Link in bio|Comment "|Share this with/.test(v.description));
    expect(withCta.length).toBeGreaterThan(40);
    expect(withCta.length).toBeLessThan(160);
    expect(new Set(videos.map((v) => v.description)).size).toBeGreaterThan(100);
  });

  it("lists an account's videos: deterministic ids of the platform's form, newest first, at most maxVideos", async () => {
    for (const url of ["https://www.tiktok.com/@chef.marta", "https://www.youtube.com/@sweetbytes", "https://www.instagram.com/natgeo/"]) {
      const ref = parseAccountUrl(url);
      const first = await at(NOW).scrapeAccount(ref, { maxVideos: 5 });
      const again = await at(new Date(+NOW + DAY)).scrapeAccount(ref, { maxVideos: 5 });
      expect(first.videos.map((v) => v.platformVideoId)).toEqual(again.videos.map((v) => v.platformVideoId));
      expect(first.videos).toHaveLength(5);
      for (const video of first.videos) {
        expect(isPlatformVideoId(ref.platform, video.platformVideoId)).toBe(true);
        // The listed URL is canonical: it parses back to the same video.
        expect(parseVideoUrl(video.url)).toMatchObject({ platform: ref.platform, platformVideoId: video.platformVideoId });
        expect(video.username).toBe(ref.username);
      }
      const dates = first.videos.map((v) => v.postedAt!.getTime());
      expect(dates).toEqual([...dates].sort((x, y) => y - x));
      expect(first.account).toMatchObject({ platform: ref.platform, username: ref.username });
      expect(first.account.videoCount).toBeGreaterThanOrEqual(12);
    }
  });

  it("an account's totals add up over its videos, and a listed video scrapes to the same data", async () => {
    const ref = parseAccountUrl("https://www.instagram.com/natgeo/");
    const { account, videos } = await at(NOW).scrapeAccount(ref, { maxVideos: 10_000 });
    expect(videos).toHaveLength(account.videoCount!);
    expect(account.totalViews).toBe(videos.reduce((sum, v) => sum + v.viewCount!, 0));
    const listed = videos[3];
    const scraped: ScrapedVideo = await at(NOW).scrapeVideo({
      platform: listed.platform,
      platformVideoId: listed.platformVideoId,
      username: ref.username,
      canonicalUrl: listed.url,
    });
    expect(scraped).toEqual(listed);
  });

  it("keeps one creator on one topic", async () => {
    const { videos } = await at(NOW).scrapeAccount(parseAccountUrl("https://www.tiktok.com/@chef.marta"), { maxVideos: 30 });
    // A topic has six hashtags, plus the platform's own (#fyp).
    expect(new Set(videos.flatMap((v) => v.hashtags)).size).toBeLessThanOrEqual(7);
  });

  it("followers never go down", async () => {
    const ref = parseAccountUrl("https://www.tiktok.com/@chef.marta");
    const counts = [];
    for (const t of [NOW, new Date(+NOW + DAY), new Date(+NOW + 90 * DAY)]) {
      counts.push((await at(t).scrapeAccount(ref, { maxVideos: 0 })).account.followerCount!);
    }
    expect(counts[1]).toBeGreaterThanOrEqual(counts[0]);
    expect(counts[2]).toBeGreaterThan(counts[0]);
  });

  it("is fast: 10,000 videos in well under a second", async () => {
    const refs = manyRefs(10_000);
    const provider = at(NOW);
    const started = performance.now();
    const videos = await Promise.all(refs.map((r) => provider.scrapeVideo(r)));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(new Set(videos.map((v) => v.platformVideoId)).size).toBe(10_000);
  });
});

describe("createScrapeProvider", () => {
  it("builds the provider named, defaulting to SCRAPE_PROVIDER", () => {
    expect(createScrapeProvider("simulated")).toBeInstanceOf(SimulatedScrapeProvider);
    expect(createScrapeProvider("ytdlp")).toBeInstanceOf(YtdlpScrapeProvider);
    // The test setup sets SCRAPE_PROVIDER=simulated.
    expect(createScrapeProvider().name).toBe("simulated");
  });
});
