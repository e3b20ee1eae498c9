/**
 * Simulated scraping for demos, tests and benchmarks: no network, no I/O, deterministic.
 *
 * Everything is derived from a hash of the id (or username), so every process and every run
 * agrees on the same video. Metrics grow with the time since a deterministic "posted" date, so two
 * scrapes at different times never see a count go down, and a history read from them has the shape
 * of a real one: a fast rise over the first days, a slow tail, and now and then a spike (a burst of
 * views weeks or months after posting, as when a video is picked up again), drawn per two-week
 * period of the clock from the video's id, so scrapes at any moment agree on it. A creator's videos
 * vary around the creator's own level (drawn from the handle), so one of them that spikes stands out
 * from its account's median, as the outlier score expects. The data is labelled: the provider's name
 * `simulated` is recorded as the data source of every record and snapshot it produces, and display
 * names end in "(simulated)". Metrics a platform's real source does not give (shares and saves on
 * platforms B and C, music on B and C) are null or "" here too, so demo data behaves like live data.
 */
import { canonicalVideoUrl } from "../../domain/shared/platform.ts";
import type { Platform } from "../../domain/shared/platform.ts";
import { hashtagsIn } from "./hashtags.ts";
import { type Random, simulatedCaption, simulatedUsername } from "./simulated-captions.ts";
import type { AccountRef, ScrapedAccount, ScrapedVideo, ScrapeProvider, VideoRef } from "../../domain/tracking/ports.ts";

export const SIMULATED_LABEL = "(simulated)";

const DAY_MS = 86_400_000;
/** Simulated videos were "posted" in the 540 days before this instant. */
const POSTED_BEFORE = Date.UTC(2026, 0, 1);
const POSTED_SPAN_DAYS = 540;

/** FNV-1a, 32 bits: a fast, well-spread hash of a string. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A 32-bit integer mix (splitmix-like) of two integers: the spike draws, cheap enough per period. */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ Math.imul(b, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const unit = (n: number) => n / 4294967296;

/** mulberry32: a small seeded generator of uniform numbers in [0, 1). */
function seeded(key: string): Random {
  let state = hash(key);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (random: Random, low: number, high: number) => low + random() * (high - low);

/**
 * The share of its eventual audience a video has after `ageDays`: a fast early rise (time constant
 * `tau` days) plus a slow logarithmic tail, so counts keep creeping up. Never decreases with age.
 */
function growth(ageDays: number, tau: number): number {
  if (ageDays <= 0) return 0;
  return 0.75 * (1 - Math.exp(-ageDays / tau)) + 0.25 * (Math.log1p(ageDays / 7) / Math.log1p(POSTED_SPAN_DAYS / 7));
}

/** Spikes: per period of the clock, a chance that a burst of views starts in it, higher while the video is young. */
const SPIKE_PERIOD_MS = 14 * DAY_MS;
const spikeChance = (ageMs: number) => 0.005 + 0.08 * Math.exp(-ageMs / (45 * DAY_MS));

/**
 * The extra views of the video's spikes by `at`: each period since it was posted (UTC epoch
 * periods of SPIKE_PERIOD_MS) starts a spike with a probability that falls from 8.5 % in its first
 * weeks to 0.5 % after a few months (spikeChance), at a point of the
 * period drawn from the id, adding 0.3 to 2.5 times the video's usual audience over a day or two
 * (a fast rise that levels off). Non-decreasing in `at`.
 */
function spikeViews(seed: VideoSeed, at: number): number {
  const posted = seed.postedAt.getTime();
  let extra = 0;
  for (let k = Math.floor(posted / SPIKE_PERIOD_MS); k * SPIKE_PERIOD_MS <= at; k++) {
    const h = mix(seed.key, k);
    if (unit(h) >= spikeChance(Math.max(0, k * SPIKE_PERIOD_MS - posted))) continue;
    const start = k * SPIKE_PERIOD_MS + unit(mix(h, 1)) * SPIKE_PERIOD_MS;
    if (start <= posted + DAY_MS || start >= at) continue;
    const size = seed.peakViews * (0.3 + 2.2 * unit(mix(h, 2)));
    const width = (0.5 + 1.5 * unit(mix(h, 3))) * DAY_MS;
    extra += size * (1 - Math.exp(-(at - start) / width));
  }
  return extra;
}

/** A creator's typical audience per video, from the handle: about 800 to 630,000 views. */
const creatorLevel = (username: string) => 10 ** (2.9 + 2.9 * unit(hash(`level:${username}`)));

interface VideoSeed {
  /** Hash of the id: the spike draws. */
  key: number;
  postedAt: Date;
  tau: number;
  peakViews: number;
  likeRate: number;
  commentRate: number;
  shareRate: number;
  saveRate: number;
  durationSeconds: number;
  description: string;
  username: string;
  originalSound: boolean;
}

/**
 * Everything about a video that does not depend on the clock, drawn in a fixed order. A known
 * author fixes the topic of the caption (a creator sticks to one); nothing else depends on it.
 */
function videoSeed(platform: Platform, id: string, author: string | undefined): VideoSeed {
  const random = seeded(`video:${platform}:${id}`);
  const postedAt = new Date(POSTED_BEFORE - Math.floor(random() * POSTED_SPAN_DAYS * DAY_MS));
  const tau = between(random, 1.5, 6);
  // Within a factor of about 2.8 either way of the creator's level (drawn below, from the handle).
  const spread = 10 ** between(random, -0.45, 0.45);
  const seed = {
    key: hash(`spikes:${platform}:${id}`),
    postedAt,
    tau,
    likeRate: between(random, 0.02, 0.14),
    commentRate: between(random, 0.003, 0.02),
    shareRate: between(random, 0.001, 0.012),
    saveRate: between(random, 0.002, 0.02),
    durationSeconds: Math.round(platform === "platformB" && random() < 0.3 ? between(random, 120, 1200) : between(random, 7, 90)),
    description: simulatedCaption(random, platform, author === undefined ? undefined : hash(`niche:${author}`)),
    username: simulatedUsername(random),
    originalSound: random() < 0.6,
  };
  return { ...seed, peakViews: spread * creatorLevel(author ?? seed.username) };
}

function displayNameFor(username: string): string {
  const words = username.split(/[._]+/).filter(Boolean);
  const name = words.map((w) => w[0].toUpperCase() + w.slice(1)).join(" ") || username;
  return `${name} ${SIMULATED_LABEL}`;
}

/**
 * The video as it looks at `now`. Counts are whole numbers derived from the grown view count by
 * fixed rates, so each of them is non-decreasing in `now` as well.
 */
export function simulateVideo(ref: VideoRef, now: Date): ScrapedVideo {
  // "_" is the placeholder handle of a platform A link whose author is unknown.
  const author = ref.username && ref.username !== "_" ? ref.username.toLowerCase() : undefined;
  const seed = videoSeed(ref.platform, ref.platformVideoId, author);
  const ageDays = (now.getTime() - seed.postedAt.getTime()) / DAY_MS;
  const views = Math.floor(seed.peakViews * growth(ageDays, seed.tau) + spikeViews(seed, now.getTime()));
  const onA = ref.platform === "platformA";
  const username = author ?? seed.username;
  return {
    platform: ref.platform,
    platformVideoId: ref.platformVideoId,
    url: ref.canonicalUrl,
    description: seed.description,
    hashtags: hashtagsIn(seed.description),
    viewCount: views,
    likeCount: Math.floor(views * seed.likeRate),
    commentCount: Math.floor(views * seed.commentRate),
    shareCount: onA ? Math.floor(views * seed.shareRate) : null,
    bookmarkCount: onA ? Math.floor(views * seed.saveRate) : null,
    postedAt: seed.postedAt,
    durationSeconds: seed.durationSeconds,
    thumbnailUrl: "",
    username,
    displayName: displayNameFor(username),
    musicName: onA ? (seed.originalSound ? `original sound - ${username}` : "Simulated Track") : "",
    musicAuthor: onA ? (seed.originalSound ? displayNameFor(username) : "Simulated Artist") : "",
    musicCoverUrl: "",
    language: "en",
  };
}

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** A video id of the platform's form: 19 digits on A, 11 base64url characters on B and C. */
function simulatedVideoId(platform: Platform, random: Random): string {
  if (platform === "platformA") {
    return `7${Array.from({ length: 18 }, () => Math.floor(random() * 10)).join("")}`;
  }
  return Array.from({ length: 11 }, () => ID_ALPHABET[Math.floor(random() * 64)]).join("");
}

interface AccountSeed {
  videoIds: string[];
  /** Followers per average view of the account's videos. */
  followersPerView: number;
}

function accountSeed(ref: AccountRef): AccountSeed {
  const random = seeded(`account:${ref.platform}:${ref.username}`);
  const videoCount = 12 + Math.floor(random() * 229);
  return {
    videoIds: Array.from({ length: videoCount }, () => simulatedVideoId(ref.platform, random)),
    followersPerView: between(random, 0.3, 3),
  };
}

/** The account at `now` and all of its videos, newest first. Totals add up over those videos. */
function simulateAccount(ref: AccountRef, now: Date): { account: ScrapedAccount; videos: ScrapedVideo[] } {
  const seed = accountSeed(ref);
  const videos = seed.videoIds
    .map((id) => {
      const ids = { platform: ref.platform, platformVideoId: id, username: ref.username };
      return simulateVideo({ ...ids, canonicalUrl: canonicalVideoUrl(ids) }, now);
    })
    .sort((a, b) => b.postedAt!.getTime() - a.postedAt!.getTime());
  const totalViews = videos.reduce((sum, v) => sum + (v.viewCount ?? 0), 0);
  const account: ScrapedAccount = {
    platform: ref.platform,
    username: ref.username,
    platformAccountId: `simulated-${hash(`${ref.platform}:${ref.username}`).toString(16)}`,
    displayName: displayNameFor(ref.username),
    avatarUrl: "",
    // Followers follow the account's reach, so they grow with its views and never go down.
    followerCount: Math.floor((seed.followersPerView * totalViews) / videos.length),
    videoCount: videos.length,
    totalViews,
  };
  return { account, videos };
}

export interface SimulatedScrapeOptions {
  /** The clock the metrics grow against (tests move it). */
  now: () => Date;
}

export class SimulatedScrapeProvider implements ScrapeProvider {
  readonly name = "simulated" as const;
  private readonly now: () => Date;

  constructor(options: Partial<SimulatedScrapeOptions> = {}) {
    this.now = options.now ?? (() => new Date());
  }

  async scrapeVideo(ref: VideoRef, opts: { signal?: AbortSignal } = {}): Promise<ScrapedVideo> {
    opts.signal?.throwIfAborted();
    return simulateVideo(ref, this.now());
  }

  /**
   * Videos listed for an account carry its username; a later scrape of one of them gives the same
   * data as long as the caller passes that username in the VideoRef (platform A links carry it).
   */
  async scrapeAccount(
    ref: AccountRef,
    opts: { maxVideos: number; signal?: AbortSignal },
  ): Promise<{ account: ScrapedAccount; videos: ScrapedVideo[] }> {
    opts.signal?.throwIfAborted();
    const { account, videos } = simulateAccount(ref, this.now());
    return { account, videos: videos.slice(0, Math.max(0, Math.floor(opts.maxVideos))) };
  }
}
