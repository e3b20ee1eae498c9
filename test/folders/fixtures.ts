/**
 * Test data for folders and analytics, written straight into PostgreSQL with `prisma` (the
 * tracking area owns how videos and accounts get there; these tests only need them to exist).
 * Counts come from a seeded PRNG so they are varied but reproducible, and include ties, nulls
 * (never scraped) and zeros on purpose.
 */
import { randomUUID } from "node:crypto";
import { prisma } from "../../src/infra/db.js";
import type { Platform } from "../../src/domain/shared/platform.js";

/** Mulberry32: small deterministic PRNG. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) };
}

const PLATFORMS: Platform[] = ["platformA", "platformB", "platformC"];

/** Engagement rate as the tracking service stores it: (likes + comments + shares + bookmarks) / views × 100, 4 decimals. */
export function engagementOf(v: {
  viewCount: number | null;
  likeCount: number | null;
  commentCount: number | null;
  shareCount: number | null;
}): number {
  if (!v.viewCount) return 0;
  return Math.round((((v.likeCount ?? 0) + (v.commentCount ?? 0) + (v.shareCount ?? 0)) / v.viewCount) * 100 * 10_000) / 10_000;
}

export interface AccountInput {
  platform?: Platform;
  username?: string;
  displayName?: string;
  followerCount?: number | null;
  videoCount?: number | null;
  totalViews?: number | null;
}

export async function createAccount(input: AccountInput = {}) {
  const username = input.username ?? `creator_${randomUUID().slice(0, 8)}`;
  return prisma.account.create({
    data: {
      platform: input.platform ?? "platformA",
      username,
      displayName: input.displayName ?? `Creator ${username}`,
      avatarUrl: `https://cdn.example.test/${username}.jpg`,
      followerCount: input.followerCount === undefined ? 1000 : input.followerCount,
      videoCount: input.videoCount === undefined ? 10 : input.videoCount,
      totalViews: input.totalViews === undefined ? 50_000 : input.totalViews,
      dataSource: "simulated",
      scrapeStatus: "ready",
      lastScrapedAt: new Date(),
    },
  });
}

export interface VideoInput {
  platform?: Platform;
  accountId?: string | null;
  username?: string;
  displayName?: string;
  description?: string;
  viewCount?: number | null;
  likeCount?: number | null;
  commentCount?: number | null;
  shareCount?: number | null;
  postedAt?: Date | null;
}

export async function createVideo(input: VideoInput = {}) {
  const platform = input.platform ?? "platformA";
  const platformVideoId = String(Math.floor(Math.random() * 1e15)) + randomUUID().slice(0, 4).replace(/\D/g, "1");
  const counts = {
    viewCount: input.viewCount === undefined ? 1000 : input.viewCount,
    likeCount: input.likeCount === undefined ? 100 : input.likeCount,
    commentCount: input.commentCount === undefined ? 10 : input.commentCount,
    shareCount: input.shareCount === undefined ? 5 : input.shareCount,
  };
  const scraped = counts.viewCount !== null;
  return prisma.video.create({
    data: {
      platform,
      platformVideoId,
      url: `https://video.example.test/${platformVideoId}`,
      description: input.description ?? `video ${platformVideoId}`,
      username: input.username ?? "someone",
      displayName: input.displayName ?? "",
      accountId: input.accountId ?? null,
      ...counts,
      engagementRate: engagementOf(counts),
      postedAt: input.postedAt === undefined ? new Date("2026-06-01T12:00:00Z") : input.postedAt,
      thumbnailUrl: `https://cdn.example.test/${platformVideoId}.jpg`,
      dataSource: scraped ? "simulated" : null,
      scrapeStatus: scraped ? "ready" : "queued",
      lastScrapedAt: scraped ? new Date() : null,
    },
  });
}

export const trackVideo = (workspaceId: string, videoId: string, viaAccountId: string | null = null) =>
  prisma.trackedVideo.create({ data: { workspaceId, videoId, viaAccountId } });

export const trackAccount = (workspaceId: string, accountId: string, videoLimit = 50) =>
  prisma.trackedAccount.create({ data: { workspaceId, accountId, videoLimit } });

export async function createTrackedVideo(workspaceId: string, input: VideoInput = {}) {
  const video = await createVideo(input);
  await trackVideo(workspaceId, video.id, input.accountId ?? null);
  return video;
}

/** `count` videos with varied counts: ties on purpose, a few never scraped, some with 0 views. */
export async function createVariedVideos(workspaceId: string, count: number, seed: number, extra: VideoInput = {}) {
  const r = rng(seed);
  const videos = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 9;
    const views = kind === 7 ? null : kind === 8 ? 0 : r.int(0, 5) === 0 ? 5000 : r.int(100, 2_000_000);
    const known = views !== null;
    const day = r.int(1, 28);
    videos.push(
      await createTrackedVideo(workspaceId, {
        platform: PLATFORMS[i % 3],
        viewCount: views,
        likeCount: known ? (kind === 3 ? 100 : r.int(0, Math.max(1, Math.floor((views ?? 0) / 5)))) : null,
        commentCount: known ? (kind === 4 || kind === 6 ? 10 : r.int(0, 5000)) : null,
        // platformB gives no share count: null there, as the source does.
        shareCount: known && i % 3 !== 1 ? (kind === 2 || kind === 4 ? 50 : r.int(0, 3000)) : null,
        postedAt:
          kind === 5
            ? null
            : kind === 6
              ? new Date(Date.UTC(2026, 4, 15, 9, 30))
              : new Date(Date.UTC(2026, r.int(0, 9), day, r.int(0, 23), r.int(0, 59))),
        username: `user${r.int(1, 5)}`,
        description: `clip number ${i}`,
        ...extra,
      }),
    );
  }
  return videos;
}

export const dayDate = (s: string) => new Date(`${s}T00:00:00.000Z`);

export async function snapshot(
  accountId: string,
  day: string,
  values: { followers: number | null; views: number | null; videos: number | null },
) {
  return prisma.accountSnapshot.create({
    data: {
      accountId,
      day: dayDate(day),
      capturedAt: new Date(`${day}T06:00:00.000Z`),
      source: "simulated",
      followerCount: values.followers,
      totalViews: values.views,
      videoCount: values.videos,
    },
  });
}
