/**
 * The `ytdlp` search provider against stand-in executables: small scripts in a temp dir that print
 * what `yt-dlp --flat-playlist --dump-json ytsearchN:…` prints (one JSON object per entry), sleep
 * past the timeout, exit non-zero, or print garbage. Each records its argv.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import type { SearchRequest } from "../../src/domain/radar/ports.js";
import { MAX_SEARCH_RESULTS, YtdlpSearchProvider } from "../../src/providers/search/ytdlp.js";

const NOW_S = Math.floor(Date.now() / 1000);

/** Flat search entries as yt-dlp prints them with --dump-json (current and Debian 2023 field sets). */
const ENTRIES = [
  {
    _type: "url",
    ie_key: "Youtube",
    id: "aBcD3fGh1jK",
    url: "https://www.youtube.com/shorts/aBcD3fGh1jK",
    title: "My 5am morning routine (realistic)",
    description: "A realistic morning routine before work…",
    duration: 58,
    channel_id: "UCq9Xn5VzQmZ3kP0aB1cD2eF",
    channel: "Sweet Bytes",
    channel_url: "https://www.youtube.com/channel/UCq9Xn5VzQmZ3kP0aB1cD2eF",
    uploader: "Sweet Bytes",
    uploader_id: "@SweetBytes",
    uploader_url: "https://www.youtube.com/@SweetBytes",
    thumbnails: [
      { url: "https://i.ytimg.com/vi/aBcD3fGh1jK/hq1.jpg", height: 94, width: 168 },
      { url: "https://i.ytimg.com/vi/aBcD3fGh1jK/hq2.jpg", height: 188, width: 336 },
    ],
    timestamp: NOW_S - 3 * 86400,
    release_timestamp: null,
    availability: null,
    view_count: 1_832_044,
    live_status: null,
    channel_is_verified: true,
    __x_forwarded_for_ip: null,
    webpage_url: "https://www.youtube.com/shorts/aBcD3fGh1jK",
    original_url: "https://www.youtube.com/shorts/aBcD3fGh1jK",
    webpage_url_basename: "aBcD3fGh1jK",
    webpage_url_domain: "youtube.com",
    extractor: "youtube",
    extractor_key: "Youtube",
    playlist: "morning routine",
    playlist_id: "morning routine",
    playlist_title: null,
    n_entries: 4,
    playlist_index: 1,
    __last_playlist_index: 4,
    playlist_autonumber: 1,
    epoch: NOW_S,
    duration_string: "58",
    _version: { version: "2025.01.15", release_git_head: null, repository: "yt-dlp/yt-dlp" },
  },
  {
    _type: "url",
    ie_key: "YoutubeTab",
    id: "UCq9Xn5VzQmZ3kP0aB1cD2eF",
    url: "https://www.youtube.com/channel/UCq9Xn5VzQmZ3kP0aB1cD2eF",
    title: "Morning Routine Club",
    channel: "Morning Routine Club",
    playlist_index: 2,
  },
  {
    _type: "url",
    ie_key: "Youtube",
    id: "Zyx_9-wvUts",
    url: "https://www.youtube.com/watch?v=Zyx_9-wvUts",
    title: "Morning routine for busy moms",
    description: null,
    duration: 612,
    channel_id: "UCaaaaaaaaaaaaaaaaaaaaaa",
    channel: "Mom Life",
    channel_url: "https://www.youtube.com/channel/UCaaaaaaaaaaaaaaaaaaaaaa",
    thumbnails: [{ url: "https://i.ytimg.com/vi/Zyx_9-wvUts/hqdefault.jpg", height: 202, width: 360 }],
    timestamp: null,
    release_timestamp: null,
    availability: null,
    view_count: 9_999,
    live_status: null,
    playlist_index: 3,
  },
  {
    _type: "url",
    ie_key: "Youtube",
    id: "LiVe1234567",
    url: "https://www.youtube.com/watch?v=LiVe1234567",
    title: "LIVE: slow morning",
    description: "",
    channel: "Slow Living",
    thumbnails: [],
    timestamp: null,
    release_timestamp: NOW_S + 3600,
    concurrent_view_count: 12,
    live_status: "is_upcoming",
    playlist_index: 4,
  },
];

let dir: string;
let argvLog: string;

/** A stand-in yt-dlp: a Node script that records its argv, then runs `body`. */
async function standIn(name: string, body: string): Promise<string> {
  const path = join(dir, name);
  const script = `#!/usr/bin/env node
const fs = require("node:fs");
fs.appendFileSync(${JSON.stringify(argvLog)}, JSON.stringify(process.argv.slice(2)) + "\\n");
const target = process.argv[process.argv.length - 1];
${body}
`;
  await writeFile(path, script);
  await chmod(path, 0o755);
  return path;
}

async function lastArgv(): Promise<string[]> {
  const lines = (await readFile(argvLog, "utf8")).trim().split("\n");
  return JSON.parse(lines.at(-1)!) as string[];
}

let ok: string;
let slow: string;
let failing: string;
let garbage: string;
let empty: string;
let counting: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "radar-ytdlp-"));
  argvLog = join(dir, "argv.log");
  ok = await standIn(
    "yt-dlp-ok",
    `const n = Number(/^ytsearch(\\d+):/.exec(target)[1]);
const entries = ${JSON.stringify(ENTRIES)};
for (const e of entries.slice(0, n)) process.stdout.write(JSON.stringify(e) + "\\n");`,
  );
  slow = await standIn("yt-dlp-slow", `setTimeout(() => {}, 60000);`);
  failing = await standIn(
    "yt-dlp-fail",
    `process.stderr.write("WARNING: unable to extract yt initial data\\nERROR: Unable to download API page: HTTP Error 429: Too Many Requests\\n"); process.exit(1);`,
  );
  garbage = await standIn(
    "yt-dlp-garbage",
    `process.stdout.write(JSON.stringify(${JSON.stringify(ENTRIES[0])}) + "\\n<html>Our systems have detected unusual traffic</html>\\n");`,
  );
  empty = await standIn("yt-dlp-empty", ``);
  counting = await standIn(
    "yt-dlp-counting",
    `const log = ${JSON.stringify(join(dir, "spans.log"))};
const start = Date.now();
setTimeout(() => { fs.appendFileSync(log, start + " " + Date.now() + "\\n"); }, 400);`,
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function request(extra: Partial<SearchRequest> = {}): SearchRequest {
  return { text: "morning routine", platform: "platformB", minViews: 0, postedAfter: null, language: "English", limit: 10, ...extra };
}

describe("mapping ytsearch flat entries", () => {
  it("maps video entries in the source's order, skips channels, and leaves missing metrics null", async () => {
    const found = await new YtdlpSearchProvider({ path: ok, timeoutMs: 10_000, concurrency: 1 }).search(request());
    expect(found.map((c) => c.platformVideoId)).toEqual(["aBcD3fGh1jK", "Zyx_9-wvUts", "LiVe1234567"]);
    expect(found[0]).toEqual({
      videoId: null,
      platform: "platformB",
      platformVideoId: "aBcD3fGh1jK",
      url: "https://www.youtube.com/watch?v=aBcD3fGh1jK",
      description: "My 5am morning routine (realistic)\n\nA realistic morning routine before work…",
      username: "sweetbytes",
      viewCount: 1_832_044,
      likeCount: null,
      commentCount: null,
      shareCount: null,
      postedAt: new Date((NOW_S - 3 * 86400) * 1000),
      thumbnailUrl: "https://i.ytimg.com/vi/aBcD3fGh1jK/hq2.jpg",
      textRank: 1,
    });
    // Debian's 2023 fields: no handle anywhere, so no username; no date, so none invented.
    expect(found[1]).toMatchObject({ username: "", postedAt: null, viewCount: 9_999, description: "Morning routine for busy moms" });
    // An upcoming live stream has a concurrent count, not views: unknown views.
    expect(found[2]).toMatchObject({ viewCount: null, thumbnailUrl: "", postedAt: new Date((NOW_S + 3600) * 1000) });
    expect(found[0]!.textRank! > found[1]!.textRank! && found[1]!.textRank! > found[2]!.textRank!).toBe(true);
  });

  it("runs yt-dlp flat with the query as one argument after --", async () => {
    const provider = new YtdlpSearchProvider({ path: ok, timeoutMs: 10_000, concurrency: 1 });
    await provider.search(request({ text: "  -morning\n routine --exec rm  ", limit: 5 }));
    const argv = await lastArgv();
    expect(argv).toEqual(
      expect.arrayContaining(["--no-config", "--flat-playlist", "--dump-json", "--extractor-args", "youtubetab:approximate_date"]),
    );
    expect(argv.slice(-2)).toEqual(["--", "ytsearch5:-morning routine --exec rm"]);
  });

  it("asks for at most MAX_SEARCH_RESULTS entries", async () => {
    await new YtdlpSearchProvider({ path: ok, timeoutMs: 10_000, concurrency: 1 }).search(request({ limit: 10_000 }));
    expect((await lastArgv()).at(-1)).toBe(`ytsearch${MAX_SEARCH_RESULTS}:morning routine`);
  });

  it("applies the filters to what the entries say: unknown views or dates never pass a bound", async () => {
    const provider = new YtdlpSearchProvider({ path: ok, timeoutMs: 10_000, concurrency: 1 });
    expect((await provider.search(request({ minViews: 10_000 }))).map((c) => c.platformVideoId)).toEqual(["aBcD3fGh1jK"]);
    const week = new Date(Date.now() - 7 * 86_400_000);
    expect((await provider.search(request({ postedAfter: week }))).map((c) => c.platformVideoId)).toEqual(["aBcD3fGh1jK", "LiVe1234567"]);
  });

  it("an empty listing is an empty answer, and empty text runs nothing", async () => {
    const provider = new YtdlpSearchProvider({ path: empty, timeoutMs: 10_000, concurrency: 1 });
    expect(await provider.search(request())).toEqual([]);
    const runs = (await readFile(argvLog, "utf8")).trim().split("\n").length;
    expect(await provider.search(request({ text: "   " }))).toEqual([]);
    expect((await readFile(argvLog, "utf8")).trim().split("\n").length).toBe(runs);
  });

  it("covers platform B only", async () => {
    const provider = new YtdlpSearchProvider({ path: ok, timeoutMs: 10_000, concurrency: 1 });
    expect(provider.supports("platformB")).toBe(true);
    expect(provider.supports("platformA")).toBe(false);
    expect(provider.supports("platformC")).toBe(false);
    const failure = await provider.search(request({ platform: "platformA" })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).retryable).toBe(false);
  });
});

describe("failures are ProviderErrors, never invented results", () => {
  it("a run past the timeout is killed: retryable", async () => {
    const started = Date.now();
    const failure = await new YtdlpSearchProvider({ path: slow, timeoutMs: 300, concurrency: 1 })
      .search(request())
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).message).toMatch(/timed out after 300 ms/);
    expect((failure as ProviderError).retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a non-zero exit carries yt-dlp's last error lines", async () => {
    const failure = await new YtdlpSearchProvider({ path: failing, timeoutMs: 10_000, concurrency: 1 })
      .search(request())
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).message).toMatch(/exited with 1: .*HTTP Error 429/);
    expect((failure as ProviderError).retryable).toBe(true);
  });

  it("output that is not one JSON object per line is refused whole", async () => {
    const failure = await new YtdlpSearchProvider({ path: garbage, timeoutMs: 10_000, concurrency: 1 })
      .search(request())
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).message).toMatch(/not a JSON object: "<html>/);
  });

  it("a missing program is not retryable", async () => {
    const failure = await new YtdlpSearchProvider({ path: join(dir, "no-such-yt-dlp"), timeoutMs: 10_000, concurrency: 1 })
      .search(request())
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).retryable).toBe(false);
  });

  it("a cancelled search stops the run", async () => {
    const controller = new AbortController();
    const pending = new YtdlpSearchProvider({ path: slow, timeoutMs: 10_000, concurrency: 1 }).search(request(), {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow(/cancelled/);
  });
});

describe("concurrency", () => {
  it("never runs more yt-dlp processes at once than its bound", async () => {
    const provider = new YtdlpSearchProvider({ path: counting, timeoutMs: 10_000, concurrency: 2 });
    await Promise.all(Array.from({ length: 5 }, (_, i) => provider.search(request({ text: `query ${i}` }))));
    const spans = (await readFile(join(dir, "spans.log"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => l.split(" ").map(Number) as [number, number]);
    expect(spans).toHaveLength(5);
    const overlapAt = (t: number) => spans.filter(([s, e]) => s <= t && t < e).length;
    expect(Math.max(...spans.map(([s]) => overlapAt(s)))).toBe(2);
  });
});
