/**
 * The yt-dlp scrape provider against a stand-in program (a shell script in a temp dir that prints a
 * fixture in yt-dlp's output format, sleeps, fails or prints garbage), and once against the real
 * yt-dlp on a loopback URL when it is installed.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAccountUrl, parseVideoUrl } from "../../src/domain/tracking/urls.js";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import type { ScrapedVideo } from "../../src/domain/tracking/ports.js";
import { mergeHashtags } from "../../src/providers/scrape/hashtags.js";
import { mapVideo } from "../../src/providers/scrape/ytdlp-map.js";
import { YtdlpScrapeProvider } from "../../src/providers/scrape/ytdlp.js";

const FIXTURES = join(import.meta.dirname, "../fixtures/ytdlp");
const fixturePath = (name: string) => join(FIXTURES, name);
const fixture = (name: string) => JSON.parse(readFileSync(fixturePath(name), "utf8")) as Record<string, unknown>;

const TT_ID = "7350269128141550069";
const TT_DESC =
  "POV: you finally found the 10-minute pasta that tastes like a restaurant \u{1F35D} Save this for later! #pasta #easyrecipes #FoodTok #dinnerideas #pasta";
const MARTA = "Marta Cooks \u{1F34B}";

let dir: string;
let scripts = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ytdlp-stand-in-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes an executable stand-in for yt-dlp that logs its arguments (one per line, runs separated by "---"). */
async function standIn(body: string): Promise<{ path: string; runs: () => Promise<string[][]> }> {
  const n = ++scripts;
  const path = join(dir, `yt-dlp-${n}`);
  const log = join(dir, `args-${n}.log`);
  await writeFile(path, `#!/bin/sh\nprintf '%s\\n' "$@" "---" >> '${log}'\n${body}\n`, { mode: 0o755 });
  const runs = async () =>
    (await readFile(log, "utf8"))
      .split("---\n")
      .filter(Boolean)
      .map((run) => run.trimEnd().split("\n"));
  return { path, runs };
}

const printing = (name: string) => `cat '${fixturePath(name)}'`;

/** A stand-in that prints the fixture whose glob matches its last argument (the URL). */
function routing(routes: Array<[glob: string, fixture: string]>): string {
  const arms = routes.map(([glob, name]) => `  ${glob}) cat '${fixturePath(name)}' ;;`).join("\n");
  return `for last; do :; done\ncase "$last" in\n${arms}\n  *) echo "ERROR: unexpected URL $last" >&2; exit 2 ;;\nesac`;
}

async function provider(body: string, options: { timeoutMs?: number; concurrency?: number } = {}) {
  const fake = await standIn(body);
  return { scraper: new YtdlpScrapeProvider({ path: fake.path, timeoutMs: 10_000, concurrency: 2, ...options }), runs: fake.runs };
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe("ytdlp provider maps yt-dlp's video JSON", () => {
  it("platform A: every metric including saves, handle, nickname, sound", async () => {
    const { scraper, runs } = await provider(printing("tiktok-video.json"));
    const ref = parseVideoUrl(`https://m.tiktok.com/@Chef.Marta/video/${TT_ID}?is_from_webapp=1`);
    const video = await scraper.scrapeVideo(ref);
    expect(video).toEqual({
      platform: "platformA",
      platformVideoId: TT_ID,
      url: `https://www.tiktok.com/@chef.marta/video/${TT_ID}`,
      description: TT_DESC,
      hashtags: ["pasta", "easyrecipes", "foodtok", "dinnerideas"],
      viewCount: 2841533,
      likeCount: 318204,
      commentCount: 2114,
      shareCount: 12877,
      bookmarkCount: 40412,
      postedAt: new Date(1711367892 * 1000),
      durationSeconds: 38,
      thumbnailUrl: String(fixture("tiktok-video.json").thumbnail),
      username: "chef.marta",
      displayName: MARTA,
      musicName: "original sound",
      musicAuthor: MARTA,
      musicCoverUrl: "",
      language: null,
    } satisfies ScrapedVideo);

    const [args] = await runs();
    expect(args).toEqual(expect.arrayContaining(["--dump-json", "--no-playlist", "--skip-download", "--no-warnings", "--no-config"]));
    // The canonical URL, after "--", last: never the user's string, never read as an option.
    expect(args.slice(-2)).toEqual(["--", `https://www.tiktok.com/@chef.marta/video/${TT_ID}`]);
  });

  it("platform C: username from channel, full name as display name, no share or save counts (null, not 0)", async () => {
    const { scraper } = await provider(printing("instagram-reel.json"));
    const video = await scraper.scrapeVideo(parseVideoUrl("https://www.instagram.com/reel/C5aB3dEfGhI/?igsh=abc"));
    expect(video).toMatchObject({
      platform: "platformC",
      platformVideoId: "C5aB3dEfGhI",
      url: "https://www.instagram.com/reel/C5aB3dEfGhI/",
      hashtags: ["axolotl", "wildlife", "natgeo", "conservation"],
      viewCount: 5120442,
      likeCount: 412331,
      commentCount: 1893,
      shareCount: null,
      bookmarkCount: null,
      postedAt: new Date(1712150400 * 1000),
      durationSeconds: 28,
      thumbnailUrl: fixture("instagram-reel.json").thumbnail,
      username: "natgeo",
      displayName: "National Geographic",
      musicName: "",
      musicAuthor: "",
    });
    expect(video.description).toMatch(/^Meet the axolotl/);
  });

  it("platform B short: title and description, caption hashtags plus one-word tags, @handle", async () => {
    const { scraper } = await provider(printing("youtube-short.json"));
    const video = await scraper.scrapeVideo(parseVideoUrl("https://youtube.com/shorts/aBcD3fGh1jK?feature=share"));
    expect(video).toEqual({
      platform: "platformB",
      platformVideoId: "aBcD3fGh1jK",
      url: "https://www.youtube.com/watch?v=aBcD3fGh1jK",
      description:
        "I tried the viral 3-ingredient cookie hack \u{1F36A} #shorts\n\nDoes it actually work? Full recipe on my channel.\n\n#baking #cookies #FoodHacks",
      // "baking hack" and "3 ingredient cookies" are keywords, not hashtags.
      hashtags: ["shorts", "baking", "cookies", "foodhacks", "dessert"],
      viewCount: 1832044,
      likeCount: 98211,
      commentCount: 2210,
      shareCount: null,
      bookmarkCount: null,
      postedAt: new Date(1736871000 * 1000),
      durationSeconds: 42,
      thumbnailUrl: "https://i.ytimg.com/vi/aBcD3fGh1jK/maxresdefault.jpg",
      username: "sweetbytes",
      displayName: "Sweet Bytes",
      musicName: "",
      musicAuthor: "",
      musicCoverUrl: "",
      language: null,
    } satisfies ScrapedVideo);
  });

  it("platform B from Debian's 2023 yt-dlp: date from upload_date, track and artist, absent comment count stays null", async () => {
    const { scraper } = await provider(printing("youtube-video-2023.json"));
    const video = await scraper.scrapeVideo(parseVideoUrl("https://youtu.be/Zx9Kq2LmN0p"));
    expect(video).toMatchObject({
      platformVideoId: "Zx9Kq2LmN0p",
      url: "https://www.youtube.com/watch?v=Zx9Kq2LmN0p",
      postedAt: new Date(Date.UTC(2022, 10, 4)),
      viewCount: 734512,
      likeCount: 15233,
      commentCount: null,
      durationSeconds: 214,
      musicName: "Midnight Drive",
      musicAuthor: "Lumen Waves",
      username: "lumenwavesofficial",
      displayName: "Lumen Waves",
      hashtags: ["synthwave", "lumenwaves", "retrowave"],
    });
  });
});

describe("ytdlp mapping of odd values", () => {
  it("drops an author handle not of the platform's form (links are built from it) and keeps the URL's", () => {
    const ref = parseVideoUrl(`https://www.tiktok.com/@chef.marta/video/${TT_ID}`);
    const video = mapVideo(ref, { ...fixture("tiktok-video.json"), uploader: "Chef Marta!" });
    expect(video.username).toBe("chef.marta");
    const bare = mapVideo({ ...ref, username: undefined }, { ...fixture("tiktok-video.json"), uploader: "x".repeat(40) });
    expect(bare.username).toBe("");
  });

  it("treats negative, fractional, string and missing counts as given or absent, never as invented zeros", () => {
    const ref = parseVideoUrl("https://youtu.be/aBcD3fGh1jK");
    const video = mapVideo(ref, { id: "aBcD3fGh1jK", view_count: -1, like_count: "12", comment_count: 7.6, duration: 28.466 });
    expect(video).toMatchObject({
      viewCount: null,
      likeCount: null,
      commentCount: 8,
      shareCount: null,
      bookmarkCount: null,
      durationSeconds: 28,
    });
    expect(video).toMatchObject({ description: "", hashtags: [], thumbnailUrl: "", username: "", displayName: "", postedAt: null });
  });
});

describe("ytdlp provider maps accounts from flat listings", () => {
  it("platform A: newest first with the pinned video put in its place, at most maxVideos, all partial", async () => {
    const { scraper, runs } = await provider(printing("tiktok-user-flat.json"));
    const { account, videos } = await scraper.scrapeAccount(parseAccountUrl("https://www.tiktok.com/@Chef.Marta?lang=en"), {
      maxVideos: 3,
    });

    expect(account).toEqual({
      platform: "platformA",
      username: "chef.marta",
      platformAccountId: fixture("tiktok-user-flat.json").id,
      displayName: MARTA,
      avatarUrl: "",
      // The listing gives neither followers nor totals: null, not 0.
      followerCount: null,
      videoCount: null,
      totalViews: null,
    });
    expect(videos.map((v) => v.platformVideoId)).toEqual([TT_ID, "7349897658287741002", "7349156339537504991"]);
    expect(videos.every((v) => v.partial === true)).toBe(true);
    expect(videos[1]).toMatchObject({
      url: "https://www.tiktok.com/@chef.marta/video/7349897658287741002",
      description: "Lemon butter salmon in 15 minutes. Follow for more easy dinners! #salmon #quickdinner",
      hashtags: ["salmon", "quickdinner"],
      viewCount: 412876,
      likeCount: 30188,
      commentCount: 402,
      shareCount: 1210,
      bookmarkCount: 5003,
      postedAt: new Date(1711281402 * 1000),
      username: "chef.marta",
      musicName: "Sunny Day",
      musicAuthor: "Lo-Fi Kitchen",
    });

    const [args] = await runs();
    expect(args).toEqual(expect.arrayContaining(["--dump-single-json", "--flat-playlist", "--no-config"]));
    // Three more than asked for, so that pinned videos cannot push a newest one out.
    expect(args[args.indexOf("--playlist-end") + 1]).toBe("6");
    expect(args.slice(-2)).toEqual(["--", "https://www.tiktok.com/@chef.marta"]);
  });

  it("platform B: profile from the channel page, videos from the uploads playlist", async () => {
    const { scraper, runs } = await provider(
      routing([
        ["https://www.youtube.com/@sweetbytes", "youtube-channel-flat.json"],
        ["https://www.youtube.com/playlist?list=UUq9Xn5VzQmZ3kP0aB1cD2eF", "youtube-uploads-flat.json"],
      ]),
    );
    const { account, videos } = await scraper.scrapeAccount(parseAccountUrl("https://www.youtube.com/@SweetBytes"), { maxVideos: 3 });

    expect(account).toEqual({
      platform: "platformB",
      username: "sweetbytes",
      platformAccountId: "UCq9Xn5VzQmZ3kP0aB1cD2eF",
      displayName: "Sweet Bytes",
      avatarUrl: "https://yt3.googleusercontent.com/ytc/AIdro_kQ8b3b9cQ2Vv3nKx1R9sT0uV2wX4yZ6aB8cD0eF=s0",
      followerCount: 482000,
      videoCount: 214,
      totalViews: null,
    });
    expect(videos.map((v) => v.platformVideoId)).toEqual(["aBcD3fGh1jK", "Pq7Rs8Tu9Vw", "Lm3No4Pq5Rs"]);
    expect(videos[0]).toEqual({
      platform: "platformB",
      platformVideoId: "aBcD3fGh1jK",
      url: "https://www.youtube.com/watch?v=aBcD3fGh1jK",
      description: "I tried the viral 3-ingredient cookie hack \u{1F36A} #shorts",
      hashtags: ["shorts"],
      viewCount: 1832044,
      // A flat listing has no likes, comments or dates: null, and partial says so.
      likeCount: null,
      commentCount: null,
      shareCount: null,
      bookmarkCount: null,
      postedAt: null,
      durationSeconds: 42,
      thumbnailUrl: expect.stringMatching(/^https:\/\/i\.ytimg\.com\/vi\/aBcD3fGh1jK\/hqdefault\.jpg\?sqp=-oaymwEcCNAC/),
      username: "sweetbytes",
      displayName: "Sweet Bytes",
      musicName: "",
      musicAuthor: "",
      musicCoverUrl: "",
      language: null,
      partial: true,
    } satisfies ScrapedVideo);
    expect(videos[2].viewCount).toBeNull();

    const [profileRun, uploadsRun] = await runs();
    expect(profileRun.slice(-2)).toEqual(["--", "https://www.youtube.com/@sweetbytes"]);
    expect(uploadsRun.slice(-2)).toEqual(["--", "https://www.youtube.com/playlist?list=UUq9Xn5VzQmZ3kP0aB1cD2eF"]);
    expect(uploadsRun[uploadsRun.indexOf("--playlist-end") + 1]).toBe("3");
  });

  it("platform B with maxVideos 0: the profile only, one run", async () => {
    const { scraper, runs } = await provider(routing([["https://www.youtube.com/@sweetbytes", "youtube-channel-flat.json"]]));
    const result = await scraper.scrapeAccount(parseAccountUrl("https://www.youtube.com/@sweetbytes"), { maxVideos: 0 });
    expect(result.videos).toEqual([]);
    expect(result.account.followerCount).toBe(482000);
    expect(result.account.videoCount).toBeNull();
    expect(await runs()).toHaveLength(1);
  });

  it("keeps at most maxVideos and skips listing entries that are not videos (a channel's tabs)", async () => {
    const { scraper } = await provider(printing("tiktok-user-flat.json"));
    const { videos } = await scraper.scrapeAccount(parseAccountUrl("https://www.tiktok.com/@chef.marta"), { maxVideos: 1 });
    expect(videos.map((v) => v.platformVideoId)).toEqual([TT_ID]);

    const { scraper: channel } = await provider(printing("youtube-channel-flat.json"));
    // Printed for the uploads run too: its only entry is the Videos tab, whose id is a channel id.
    const listed = await channel.scrapeAccount(parseAccountUrl("https://www.youtube.com/@sweetbytes"), { maxVideos: 5 });
    expect(listed.videos).toEqual([]);
  });
});

describe("ytdlp provider's process handling", () => {
  const ref = parseVideoUrl("https://www.youtube.com/watch?v=aBcD3fGh1jK");

  it("a run past the timeout is killed and fails retryably", async () => {
    const { scraper } = await provider("exec sleep 10", { timeoutMs: 300 });
    const started = Date.now();
    const error = await failure(scraper.scrapeVideo(ref));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/timed out after 300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it.each([
    ["ERROR: [youtube] aBcD3fGh1jK: Video unavailable. This video has been removed by the uploader", false],
    ["ERROR: [youtube] aBcD3fGh1jK: Private video. Sign in if you've been granted access to this video", false],
    ["ERROR: [TikTok] 7350269128141550069: Video not available, status code 10204", false],
    ["ERROR: [Instagram] C5aB3dEfGhI: This post is private", false],
    ["ERROR: Unsupported URL: https://www.youtube.com/watch?v=aBcD3fGh1jK", false],
    ["ERROR: [youtube:tab] @gone: This channel does not exist.", false],
    ["ERROR: [youtube] aBcD3fGh1jK: Video unavailable. This content isn't available, try again later.", true],
    ["ERROR: [youtube] aBcD3fGh1jK: Sign in to confirm you're not a bot. Use --cookies-from-browser", true],
    ["ERROR: [TikTok] 7350269128141550069: Unable to download webpage: HTTP Error 429: Too Many Requests", true],
    ["ERROR: [youtube] aBcD3fGh1jK: Unable to download API page: <urlopen error [Errno -2] Name or service not known>", true],
    ["ERROR: [Instagram] C5aB3dEfGhI: Requested content is not available, rate-limit reached or login required", true],
  ])("a non-zero exit with %j is retryable: %s", async (message, retryable) => {
    const { scraper } = await provider(`echo 'WARNING: [youtube] something minor' >&2\necho "${message}" >&2\nexit 1`);
    const error = await failure(scraper.scrapeVideo(ref));
    expect(error.retryable).toBe(retryable);
    expect(error.message).toContain(message.slice(0, 40));
  });

  it.each([
    ["garbage", "echo '<html><body>Something went wrong</body></html>'"],
    ["nothing at all", "true"],
    ["JSON that is not an object", "echo null"],
    ["a truncated object", `head -c 300 '${fixturePath("youtube-short.json")}'`],
  ])("exit 0 with %s is a bad answer: a retryable ProviderError", async (_label, body) => {
    const { scraper } = await provider(body);
    const error = await failure(scraper.scrapeVideo(ref));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/did not print JSON info for https:\/\/www\.youtube\.com\/watch\?v=aBcD3fGh1jK/);
  });

  it("a missing program is not retryable", async () => {
    const scraper = new YtdlpScrapeProvider({ path: join(dir, "no-such-yt-dlp"), timeoutMs: 5000, concurrency: 1 });
    const error = await failure(scraper.scrapeVideo(ref));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/not installed/);
  });

  it("never runs more than `concurrency` yt-dlp processes at once", async () => {
    const lanes = join(dir, "lanes");
    const { scraper } = await provider(
      [
        `mkdir -p '${lanes}' && mkdir "${lanes}/run-$$"`,
        `ls '${lanes}' | wc -l >> '${lanes}.peaks'`,
        "sleep 0.3",
        `rmdir "${lanes}/run-$$"`,
        printing("youtube-short.json"),
      ].join("\n"),
      { concurrency: 2 },
    );
    const results = await Promise.all(Array.from({ length: 6 }, () => scraper.scrapeVideo(ref)));
    expect(results.every((v) => v.viewCount === 1832044)).toBe(true);
    const peaks = (await readFile(`${lanes}.peaks`, "utf8")).trim().split("\n").map(Number);
    expect(peaks).toHaveLength(6);
    expect(Math.max(...peaks)).toBe(2);
  });
});

const hasYtdlp = spawnSync("yt-dlp", ["--version"], { stdio: "ignore" }).status === 0;

describe.skipIf(!hasYtdlp)("the real yt-dlp (generic extractor on a loopback URL)", () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url !== "/clip.mp4") {
        res.writeHead(404).end("not here");
        return;
      }
      res.writeHead(200, { "Content-Type": "video/mp4", "Content-Length": "16" }).end(req.method === "HEAD" ? undefined : "0".repeat(16));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // The provider is only ever given canonical platform URLs; a loopback ref stands in for one here.
  const loopback = (path: string) => ({ platform: "platformA" as const, platformVideoId: "1", canonicalUrl: `${base}${path}` });

  it("accepts every argument the provider passes, and its JSON maps with no metric invented", async () => {
    const scraper = new YtdlpScrapeProvider({ path: "yt-dlp", timeoutMs: 30_000, concurrency: 1 });
    const video = await scraper.scrapeVideo(loopback("/clip.mp4"));
    expect(video).toMatchObject({
      viewCount: null,
      likeCount: null,
      commentCount: null,
      shareCount: null,
      bookmarkCount: null,
      postedAt: null,
      description: "",
      username: "",
      musicName: "",
    });
  });

  it("a 404 is not retryable", async () => {
    const scraper = new YtdlpScrapeProvider({ path: "yt-dlp", timeoutMs: 30_000, concurrency: 1 });
    const error = await failure(scraper.scrapeVideo(loopback("/gone.mp4")));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/HTTP Error 404/);
  });
});

describe("hashtags", () => {
  it.each([
    ["#denidil#денидил", [], ["denidil", "денидил"]],
    ["My #1 tip: #FoodTok and #foodtok again, #café_life!", [], ["foodtok", "café_life"]],
    ["no tags here, just a # sign and an email@example.com", [], []],
    ["#Baking time", ["baking", "#Dessert", "how to bake", "k-pop", ""], ["baking", "dessert"]],
  ])("%j with tags %j → %j", (text, tags, expected) => {
    expect(mergeHashtags(text, tags)).toEqual(expected);
  });
});
