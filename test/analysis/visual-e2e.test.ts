/**
 * What an analysis sees, end to end with the real programs and nothing standing in: a silent video
 * whose hook is a text overlay, served on loopback, fetched by the real yt-dlp (the rendition and its
 * silent audio), transcribed by pocketsphinx (nothing said), looked at by ffmpeg, tesseract and
 * face-api, judged by the heuristic analyser, is analysed with the hook on screen; the record keeps what was seen and serves its thumbnails. And the demo's simulated video,
 * whose rendition the simulated provider renders, analysed with the providers as configured.
 */
import "../setup/visual-on.js"; // first: the visual stage on, as deployed, before the configuration is read
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Six keyframes are plenty for a 9-second video, and keep the OCR of this file to a few seconds (read at import).
vi.hoisted(() => {
  process.env.VISUAL_MAX_KEYFRAMES = "6";
});
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import type { RunningApi } from "../../src/main/server.js";
import { runAnalysis, type AnalysisProviders } from "../../src/domain/analysis/pipeline.js";
import { getAnalysis } from "../../src/domain/analysis/service.js";
import { visualPartOfAnalysis } from "../../src/domain/analysis/visual/part.js";
import { analysisProviders, createVisualProviders } from "../../src/main/providers.js";
import { YtdlpMediaProvider } from "../../src/providers/media/ytdlp.js";
import { PocketsphinxTranscriber } from "../../src/providers/transcription/pocketsphinx.js";
import { HeuristicAnalysisProvider } from "../../src/providers/analysis/heuristic.js";
import { renderVideo } from "../../src/providers/media/render-video.js";
import { ffmpeg, serveDirectory, type MediaServer } from "../fixtures/media/server.js";
import { analyzeWithoutJob, trackedVideo } from "./fixtures.js";

const HOOK = "3 mistakes that ruin your sourdough";

let root: string;
let server: MediaServer;
let api: RunningApi;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "visual-e2e-"));
  // Silence, as a video with no voice has: an audio track with nothing said.
  ffmpeg(["-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", "9", join(root, "silence.wav")]);
  await renderVideo(
    {
      scenes: [
        { seconds: 3, colour: "0x1f3a5f" },
        { seconds: 3, colour: "0xe8dcc0", face: true },
        { seconds: 3, colour: "0x2f6f4f" },
      ],
      overlays: [
        { text: HOOK, from: 0, to: 3, position: "top" },
        { text: "Link in bio", from: 6, to: 9, position: "bottom" },
      ],
      audioPath: join(root, "silence.wav"),
    },
    join(root, "silent-hook.mp4"),
    { ffmpegPath: "ffmpeg", timeoutMs: 60_000, workDir: root, provider: "test:render" },
  );
  [server, api] = await Promise.all([serveDirectory(root), startTestApi()]);
});

afterAll(async () => {
  await server?.close();
  await stopAll(api);
  await rm(root, { recursive: true, force: true });
});

describe("an analysis looks at the video, with the real programs", () => {
  it("analyses a silent video with a text hook with that hook, and records what it saw", async () => {
    const providers: AnalysisProviders = {
      media: new YtdlpMediaProvider(),
      transcription: new PocketsphinxTranscriber(),
      visual: createVisualProviders(),
      content: new HeuristicAnalysisProvider(),
    };
    expect(providers.visual!.missing).toEqual([]);
    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId, {
      url: `${server.baseUrl}/silent-hook.mp4`,
      dataSource: "live",
      description: "",
      hashtags: [],
    });
    const { analysisId } = await analyzeWithoutJob(ws.workspaceId, videoId);
    expect(await runAnalysis(analysisId, providers)).toEqual({ status: "completed" });

    const a = (await getAnalysis(ws.workspaceId, videoId))!;
    expect(a.transcript?.trim() ?? "").toBe(""); // nothing was said
    expect(a).toMatchObject({ hookSource: "screen", ctaType: "link_in_bio" });
    expect(a.hookPhrase?.toLowerCase()).toContain("3 mistakes that ruin");
    expect(a.hookStyle).not.toBe("none");
    const v = visualPartOfAnalysis(a)!;
    expect(v).toMatchObject({
      status: "complete",
      cutCount: 2,
      providers: { keyframes: "ffmpeg", text: "paddleocr+tesseract", faces: "face-api" },
      skipped: [],
    });
    expect(v.textHook?.toLowerCase()).toContain("3 mistakes that ruin");
    expect(v.onScreenText.map((t) => t.text.toLowerCase()).join(" ")).toContain("link in bio");
    expect(v.faceShare).toBeGreaterThan(0);
    expect(v.keyframes.some((k) => k.face === true && k.seconds >= 3 && k.seconds < 6)).toBe(true);
    expect((a.reasons as string[]).join("\n")).toMatch(/\d+(\.\d+)? ?s/); // a reason names a frame's time

    // Its first thumbnail, a real JPEG, served to the workspace.
    const res = await fetch(`${api.url}/api/v1/analyses/${analysisId}/keyframes/0/thumbnail`, {
      headers: { authorization: `Bearer ${ws.key}` },
    });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });

  it("analyses the demo's simulated video with the providers as configured, its rendition rendered by the simulated provider", async () => {
    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId, {
      description: "POV: your starter finally doubles\nI fed it twice a day for a week. Follow for more.",
    });
    const { analysisId } = await analyzeWithoutJob(ws.workspaceId, videoId);
    expect(await runAnalysis(analysisId, analysisProviders())).toEqual({ status: "completed" });
    const a = (await getAnalysis(ws.workspaceId, videoId))!;
    const v = visualPartOfAnalysis(a)!;
    expect(v.status).toBe("complete");
    expect(v.keyframes.length).toBeGreaterThan(1);
    // The words as read, spaces aside: the recogniser sometimes splits a word of the rendered caption ("sta rter").
    expect(v.textHook?.toLowerCase().replace(/\s+/g, "")).toContain("starterfinallydoubles");
  });
});
