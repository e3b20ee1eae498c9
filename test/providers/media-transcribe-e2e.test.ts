/**
 * The real media path end to end, without network: a loopback HTTP server serves a real recording
 * (pocketsphinx-testdata's goforward.raw, "go forward ten meters"), the real yt-dlp (generic
 * extractor) fetches it, ffmpeg converts it, pocketsphinx transcribes it. The captions case uses an
 * HTML page with a <video> and a <track>, which yt-dlp's generic extractor reads as subtitles.
 */
import "../setup/visual-on.js"; // first: the visual stage on, as deployed, before the configuration is read
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import type { MediaInput } from "../../src/domain/analysis/ports.js";
import { readWavInfo } from "../../src/providers/media/wav.js";
import { YtdlpMediaProvider } from "../../src/providers/media/ytdlp.js";
import { PocketsphinxTranscriber } from "../../src/providers/transcription/pocketsphinx.js";
import {
  GOFORWARD_TEXT,
  ffmpeg,
  makeGoforwardMp4,
  makeGoforwardWav,
  serveDirectory,
  standInProgram,
  type MediaServer,
} from "../fixtures/media/server.js";

const CAPTIONS_VTT = `WEBVTT

00:00:00.400 --> 00:00:01.200
Go forward

00:00:01.200 --> 00:00:02.300
ten meters.
`;

const page = (track: string) => `<!doctype html><html><head><title>Clip</title></head><body>
<video controls><source src="clip.mp4" type="video/mp4">${track}</video></body></html>`;

let root: string;
let files: string;
let server: MediaServer;
let workDir: string;
let hung: Set<ServerResponse>;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "media-e2e-"));
  files = join(root, "files");
  await mkdir(files);
  makeGoforwardWav(join(files, "clip.wav"));
  makeGoforwardMp4(join(files, "clip.wav"), join(files, "clip.mp4"));
  // A video without an audio stream at all (a screen recording, a film clip posted without sound).
  ffmpeg(["-f", "lavfi", "-i", "testsrc=s=160x120:r=10:d=2", "-c:v", "libx264", "-an", join(files, "silent.mp4")]);
  await writeFile(join(files, "captions.en.vtt"), CAPTIONS_VTT);
  await writeFile(join(files, "with-captions.html"), page('<track kind="captions" src="captions.en.vtt" srclang="en" label="English">'));
  await writeFile(join(files, "broken-captions.html"), page('<track kind="captions" src="missing.vtt" srclang="en" label="English">'));
  hung = new Set();
  server = await serveDirectory(files, {
    // Accepts the connection and never answers: the provider's own timeout must end the wait.
    "/hangs.mp4": (_req, res) => void hung.add(res),
  });
});

afterAll(async () => {
  for (const res of hung) res.destroy();
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

beforeEach(async () => {
  workDir = await mkdtemp(join(root, "work-"));
  server.requests.length = 0;
});

function input(path: string, extra: Partial<MediaInput> = {}): MediaInput {
  return { platform: "platformB", platformVideoId: "clip", url: `${server.baseUrl}${path}`, description: "", dataSource: "live", ...extra };
}

async function expectProviderError(promise: Promise<unknown>, message: RegExp, retryable: boolean) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).message).toMatch(message);
  expect((error as ProviderError).retryable).toBe(retryable);
}

describe("yt-dlp media provider + pocketsphinx, real programs on a loopback server", () => {
  it.each(["/clip.wav", "/clip.mp4"])("downloads %s, converts it to 16 kHz mono WAV and transcribes it exactly", async (path) => {
    const media = await new YtdlpMediaProvider().fetch(input(path), { workDir });

    expect(media.captions).toBeNull();
    expect(media.wavPath).toBe(join(workDir, "audio.wav"));
    const wav = await readWavInfo(media.wavPath!);
    expect(wav).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16, audioFormat: 1 });
    expect(wav!.durationSeconds).toBeGreaterThan(2.5);
    expect(wav!.durationSeconds).toBeLessThan(3.2);
    expect(media.durationSeconds).toBeCloseTo(wav!.durationSeconds, 1);

    const transcript = await new PocketsphinxTranscriber().transcribe(media.wavPath!);
    expect(transcript.text).toBe(GOFORWARD_TEXT);
    expect(transcript.language).toBe("en");
    expect(transcript.segments.map((s) => s.text).join(" ")).toBe(GOFORWARD_TEXT);
    let previousEnd = 0;
    for (const segment of transcript.segments) {
      expect(segment.start).toBeGreaterThanOrEqual(previousEnd);
      expect(segment.end).toBeGreaterThan(segment.start);
      expect(segment.end).toBeLessThanOrEqual(wav!.durationSeconds);
      previousEnd = segment.end;
    }
    // The speech starts about 0.4 s in and ends about 2.1 s in (pocketsphinx's word timings).
    expect(transcript.segments[0]!.start).toBeGreaterThan(0.2);
    expect(transcript.segments[0]!.start).toBeLessThan(0.8);
    expect(transcript.segments.at(-1)!.end).toBeGreaterThan(1.8);
  });

  it("uses the platform captions when the page has them, and never downloads the audio", async () => {
    const media = await new YtdlpMediaProvider().fetch(input("/with-captions.html"), { workDir });

    expect(media.captions).toEqual({
      text: "Go forward ten meters.",
      segments: [
        { start: 0.4, end: 1.2, text: "Go forward" },
        { start: 1.2, end: 2.3, text: "ten meters." },
      ],
      language: "en",
    });
    expect(media.wavPath).toBeNull();
    expect(server.requests).toContain("/captions.en.vtt");
    expect(server.requests).not.toContain("/clip.mp4");
  });

  it("falls back to the audio when the captions file cannot be downloaded", async () => {
    const media = await new YtdlpMediaProvider().fetch(input("/broken-captions.html"), { workDir });

    expect(server.requests).toContain("/missing.vtt");
    expect(media.captions).toBeNull();
    expect(server.requests).toContain("/clip.mp4");
    const transcript = await new PocketsphinxTranscriber().transcribe(media.wavPath!);
    expect(transcript.text).toBe(GOFORWARD_TEXT);
  });

  it("with withVideo, downloads the video rendition once and takes the audio from it", async () => {
    const media = await new YtdlpMediaProvider().fetch(input("/clip.mp4"), { workDir, withVideo: true });
    expect(media.videoPath).toBe(join(workDir, "video.mp4"));
    expect(media.videoUnavailable).toBeUndefined();
    expect((await readdir(workDir)).filter((f) => f.startsWith("source."))).toEqual([]); // no second download for the audio
    const transcript = await new PocketsphinxTranscriber().transcribe(media.wavPath!);
    expect(transcript.text).toBe(GOFORWARD_TEXT);
  });

  it("with withVideo, keeps the captions and adds the rendition; a file with no video gives the visual stage nothing to see, with the reason", async () => {
    const captioned = await new YtdlpMediaProvider().fetch(input("/with-captions.html"), { workDir, withVideo: true });
    expect(captioned.captions!.text).toBe("Go forward ten meters.");
    expect(captioned.videoPath).toMatch(/video\.mp4$/);

    const audioOnly = await new YtdlpMediaProvider().fetch(input("/clip.wav"), {
      workDir: await mkdtemp(join(root, "work-")),
      withVideo: true,
    });
    // The generic extractor cannot tell a WAV has no video, so yt-dlp hands it over as the rendition; the probe finds
    // no video stream in it, so the visual stage gets no rendition, with the reason, and the sound is the audio.
    expect(audioOnly.videoPath).toBeNull();
    expect(audioOnly.videoUnavailable).toBe("the media has no video stream (sound only)");
    const transcript = await new PocketsphinxTranscriber().transcribe(audioOnly.wavPath!);
    expect(transcript.text).toBe(GOFORWARD_TEXT);
  });

  it("a video without an audio stream: the rendition for the visual stage, no audio, and the reason (not a failure)", async () => {
    const media = await new YtdlpMediaProvider().fetch(input("/silent.mp4"), {
      workDir: await mkdtemp(join(root, "work-")),
      withVideo: true,
    });
    expect(media.videoPath).toMatch(/video\.mp4$/);
    expect(media.wavPath).toBeNull();
    expect(media.captions).toBeNull();
    expect(media.audioUnavailable).toBe("the media has no audio stream");
    const withoutVideo = await new YtdlpMediaProvider().fetch(input("/silent.mp4"), { workDir: await mkdtemp(join(root, "work-")) });
    expect(withoutVideo).toMatchObject({ wavPath: null, audioUnavailable: "the media has no audio stream" });
  });

  it("with withVideo, leaves out a rendition larger than maxBytes, and still transcribes", async () => {
    const { size } = await stat(join(files, "clip.wav"));
    const media = await new YtdlpMediaProvider({ maxBytes: size + 1 }).fetch(input("/with-captions.html"), { workDir, withVideo: true });
    const mp4 = await stat(join(files, "clip.mp4"));
    if (mp4.size > size + 1) {
      expect(media.videoPath).toBeNull();
      expect(media.videoUnavailable).toMatch(/larger than the \d+-byte limit \(MEDIA_MAX_BYTES\)/);
    } else {
      expect(media.videoPath).not.toBeNull();
    }
    expect(media.captions!.text).toBe("Go forward ten meters.");
  });

  it("cuts the audio at maxSeconds", async () => {
    const media = await new YtdlpMediaProvider({ maxSeconds: 1 }).fetch(input("/clip.wav"), { workDir });
    const wav = await readWavInfo(media.wavPath!);
    expect(wav!.durationSeconds).toBeCloseTo(1, 1);
  });

  it("refuses media larger than maxBytes, without retry, and leaves no file", async () => {
    const { size } = await stat(join(files, "clip.wav"));
    await expectProviderError(
      new YtdlpMediaProvider({ maxBytes: size - 1 }).fetch(input("/clip.wav"), { workDir }),
      /larger than the \d+-byte limit/,
      false,
    );
    await expect(stat(join(workDir, "audio.wav"))).rejects.toThrow();
  });

  it("reports a missing video as not found, not retryable", async () => {
    await expectProviderError(
      new YtdlpMediaProvider().fetch(input("/gone.mp4"), { workDir }),
      /^media:ytdlp: not available at the source .*HTTP Error 404/,
      false,
    );
  });

  it("times out on a server that never answers, retryable", async () => {
    const started = Date.now();
    await expectProviderError(
      new YtdlpMediaProvider({ ytdlpTimeoutMs: 1500 }).fetch(input("/hangs.mp4"), { workDir }),
      /timed out after 1500 ms/,
      true,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("refuses simulated videos and non-http URLs before running anything", async () => {
    const neverRun = await standInProgram(join(root, "must-not-run"), "exit 99");
    const provider = new YtdlpMediaProvider({ ytdlpPath: neverRun });
    await expectProviderError(provider.fetch(input("/clip.wav", { dataSource: "simulated" }), { workDir }), /simulated demo data/, false);
    await expectProviderError(provider.fetch(input("", { url: "file:///etc/passwd" }), { workDir }), /not an http\(s\) URL/, false);
  });
});

describe("yt-dlp media provider error handling, with stand-in programs", () => {
  it.each([
    ["ERROR: [youtube] abc: Private video. Sign in if you've been granted access", false],
    ["ERROR: [youtube] abc: Video unavailable. This video has been removed by the uploader", false],
    ["ERROR: Unsupported URL: https://example.com/", false],
    ["ERROR: [generic] Unable to download webpage: HTTP Error 503: Service Unavailable", true],
    ["ERROR: [generic] Unable to download webpage: <urlopen error [Errno 111] Connection refused>", true],
  ])("classifies %j (retryable: %s)", async (stderr, retryable) => {
    const fake = await standInProgram(join(workDir, "yt-dlp-failing"), `echo ${JSON.stringify(stderr)} >&2\nexit 1`);
    await expectProviderError(
      new YtdlpMediaProvider({ ytdlpPath: fake }).fetch(input("/clip.wav"), { workDir }),
      /yt-dlp-failing exited with 1: ERROR/,
      retryable,
    );
  });

  it("runs at most `concurrency` yt-dlp processes at once, across provider instances", async () => {
    const log = join(workDir, "runs.log");
    const fake = await standInProgram(
      join(workDir, "yt-dlp-slow"),
      `echo start >> "${log}"; sleep 0.3; echo end >> "${log}"; echo "ERROR: Private video" >&2; exit 1`,
    );
    const fetches = [1, 2, 3].map(() =>
      new YtdlpMediaProvider({ ytdlpPath: fake, concurrency: 1 }).fetch(input("/clip.wav"), { workDir }).catch(() => undefined),
    );
    await Promise.all(fetches);
    const runs = (await readFile(log, "utf8")).trim().split("\n");
    expect(runs).toEqual(["start", "end", "start", "end", "start", "end"]);
  });

  it("fails when yt-dlp prints no metadata", async () => {
    const fake = await standInProgram(join(workDir, "yt-dlp-no-json"), "echo not json");
    await expectProviderError(
      new YtdlpMediaProvider({ ytdlpPath: fake }).fetch(input("/clip.wav"), { workDir }),
      /printed no video metadata/,
      true,
    );
  });

  it("fails clearly when yt-dlp is not installed", async () => {
    await expectProviderError(
      new YtdlpMediaProvider({ ytdlpPath: join(workDir, "no-such-program") }).fetch(input("/clip.wav"), { workDir }),
      /is not installed or not on PATH/,
      false,
    );
  });

  it("reports media without an audio stream as not retryable", async () => {
    // A stand-in yt-dlp that prints metadata, finds no captions, then "downloads" a file ffmpeg cannot decode.
    const fake = await standInProgram(
      join(root, "yt-dlp-garbage"),
      `case "$*" in *--skip-download*) echo '{"id":"x"}' ;; *) echo garbage > "${workDir}/source.mp4" ;; esac`,
    );
    await expectProviderError(
      new YtdlpMediaProvider({ ytdlpPath: fake }).fetch(input("/clip.wav"), { workDir }),
      /cannot be read as audio or video/,
      false,
    );
  });
});
