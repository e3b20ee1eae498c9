/**
 * What an analysis saw, recorded: the pipeline keeps the video rendition
 * across the `transcribed` commit, looks at it in the analyzing stage (the real seeVideo and ffmpeg
 * keyframes of a rendered clip; on-screen text and the content analysis are stand-ins wrapped around the
 * real ones, so each case controls what is read), stores the visual part before the content analysis,
 * and every door answers it: REST (additive fields), GraphQL, MCP, and the keyframe thumbnails served to
 * the workspace only. It degrades to transcript-only with the reason, never failing the analysis; a
 * resumed run re-fetches a rendition that is gone or reuses a visual part already stored; the work
 * directory goes when the analysis ends; storage is bounded and deleted with the analysis.
 */
import "../setup/visual-on.js"; // first: the visual stage on, as deployed, before the configuration is read
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Three attempts with quick retries, so the retry cases fit in a test (read at import).
vi.hoisted(() => {
  process.env.ANALYSIS_ATTEMPTS = "3";
  process.env.ANALYSIS_RETRY_DELAY_MS = "100";
});
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { gql, newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, signedIn } from "../helpers/people.js";
import { jobRun, analysisJobs } from "../helpers/jobs.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import type { RunningApi } from "../../src/main/server.js";
import { runAnalysis, sweepAnalyses, type AnalysisProviders } from "../../src/domain/analysis/pipeline.js";
import { analyze, getAnalysis } from "../../src/domain/analysis/service.js";
import { analysisDir, analysisDirRoot } from "../../src/domain/analysis/workdir.js";
import { MAX_STORED_KEYFRAMES, MAX_THUMBNAIL_BYTES, storeVisualPart, visualPartOf } from "../../src/domain/analysis/visual/part.js";
import type { KeyframeProvider, VisualEvidence } from "../../src/domain/analysis/ports.js";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import { HeuristicAnalysisProvider } from "../../src/providers/analysis/heuristic.js";
import { PocketsphinxTranscriber } from "../../src/providers/transcription/pocketsphinx.js";
import { FfmpegKeyframeProvider } from "../../src/providers/vision/keyframes.js";
import { queue } from "../../src/infra/queues.js";
import { prisma } from "../../src/infra/db.js";
import { setMembership } from "../../src/domain/people/members.js";
import { OPERATOR } from "../../src/domain/actors/actor.js";
import { analyzeWithoutJob, trackedVideo, waitFor, waitForStatus } from "./fixtures.js";
import { clipMedia, OVERLAY, overlayReader, renderClip, withScreenHook } from "./visual-fixtures.js";

const CLIP = join(tmpdir(), `visual-record-${process.pid}.mp4`);

// --- Stand-ins around the real providers, controlled per case ---------------------------------
const realContent = new HeuristicAnalysisProvider();
const realKeyframes = new FfmpegKeyframeProvider();
/** Descriptions whose media has no video rendition; every media fetch (which video, whether the rendition was asked for). */
const noRendition = new Set<string>();
const fetches: { description: string; withVideo: boolean }[] = [];
const media = clipMedia(CLIP, noRendition, fetches);

type KeyframeTrouble = { kind: "gate"; until: Promise<void> } | { kind: "throw"; error: () => Error; times: number };
/** What the keyframe provider does for the next analyses (by analysis id: the rendition lives in its directory). */
const keyframeTrouble = new Map<string, KeyframeTrouble>();
const keyframeCalls = new Map<string, number>();
const keyframes: KeyframeProvider = {
  name: "ffmpeg",
  async extract(videoPath, opts) {
    const analysisId = videoPath.split("/").at(-2)!;
    keyframeCalls.set(analysisId, (keyframeCalls.get(analysisId) ?? 0) + 1);
    const trouble = keyframeTrouble.get(analysisId);
    if (trouble?.kind === "gate") await trouble.until;
    if (trouble?.kind === "throw" && trouble.times-- > 0) throw trouble.error();
    return realKeyframes.extract(videoPath, opts);
  },
};

/** What the content analyser was handed, by description; descriptions whose analysis fails retryably once. */
const handed = new Map<string, VisualEvidence | null>();
const contentFailsOnce = new Set<string>();
const providers: AnalysisProviders = {
  media,
  transcription: new PocketsphinxTranscriber(),
  visual: { keyframes, text: overlayReader, faces: null, missing: ["faces: no face detector in this test"] },
  content: withScreenHook(realContent, (input) => {
    handed.set(input.description, input.visual ?? null);
    if (contentFailsOnce.delete(input.description)) throw new ProviderError("analysis:stand-in", "the model timed out", true);
  }),
};

let api: RunningApi;
let workers: RunningWorkers;
beforeAll(async () => {
  renderClip(CLIP);
  [api, workers] = await Promise.all([startTestApi(), startWorkers([analysisJobs(providers)])]);
});
afterAll(async () => {
  await rm(CLIP, { force: true });
  await stopAll(api, workers);
});

const VISUAL_FIELDS = `visual {
  status durationSeconds textHook cutCount cutsPerMinute firstCutSeconds faceShare skipped
  providers { keyframes text faces }
  onScreenText { text firstSeconds lastSeconds language confidence used }
  keyframes { index seconds reason text face thumbnailUrl }
}`;

async function graphqlAnalysis(key: string, videoId: string) {
  const r = await gql(
    api.url,
    key,
    `query($id: ID!) { videoAnalysis(videoId: $id) { uuid status transcript hookPhrase hookSource reasons ${VISUAL_FIELDS} } }`,
    { id: videoId },
  );
  expect(r.body.errors).toBeUndefined();
  return r.body.data!.videoAnalysis;
}

async function fetchThumbnail(url: string, headers: Record<string, string>) {
  const res = await fetch(`${api.url}${url}`, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("the visual part of an analysis", () => {
  let ws: { workspaceId: string; key: string };
  let videoId: string;
  let analysisId: string;
  const description = "Sourdough that finally rises: the trick. Follow for more.";

  it("arrives after `transcribed`, during `analyzing`, before the content analysis; the analyser reads it", async () => {
    ws = await newWorkspace();
    videoId = await trackedVideo(ws.workspaceId, { description });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // The gate is keyed by analysis id, known only once admitted: hold the queue until it is set.
    await queue("analysis").pause();
    analysisId = (await analyze(ws.workspaceId, videoId, {})).analysisId;
    keyframeTrouble.set(analysisId, { kind: "gate", until: gate });
    await queue("analysis").resume();

    await waitFor("the keyframe provider to be asked", () => keyframeCalls.get(analysisId) === 1);
    const during = await graphqlAnalysis(ws.key, videoId);
    expect(during).toMatchObject({ status: "ANALYZING", transcript: description, visual: null });
    // The rendition was fetched with the audio and kept across the transcribed commit.
    expect(fetches.filter((f) => f.description === description)).toEqual([{ description, withVideo: true }]);
    expect((await readdir(analysisDir(analysisId))).filter((n) => n.startsWith("video"))).toEqual(["video.mp4"]);

    release();
    await waitForStatus(ws.workspaceId, videoId, ["completed"]);
    const seen = handed.get(description)!;
    expect(seen.providers).toEqual({ keyframes: "ffmpeg", text: "stand-in", faces: null });
    expect(seen.textHook).toBe(OVERLAY);
  });

  it("is answered by GraphQL and REST alike: keyframes with time, text and thumbnail, the text hook, cuts, providers, what was skipped", async () => {
    const g = await graphqlAnalysis(ws.key, videoId);
    expect(g).toMatchObject({ uuid: analysisId, status: "COMPLETED", hookPhrase: OVERLAY, hookSource: "SCREEN" });
    expect(g.reasons).toContain("hook: on screen at 0 s (keyframe 0)");
    const v = g.visual;
    expect(v).toMatchObject({
      status: "PARTIAL",
      textHook: OVERLAY,
      cutCount: 2,
      firstCutSeconds: 2,
      faceShare: null,
      providers: { keyframes: "ffmpeg", text: "stand-in", faces: null },
      skipped: ["faces: no face detector in this test"],
      onScreenText: [{ text: OVERLAY, firstSeconds: 0, language: "en", confidence: 0.95, used: true }],
    });
    expect(v.durationSeconds).toBeCloseTo(6, 0);
    expect(v.cutsPerMinute).toBeCloseTo(20, 0);
    expect(v.keyframes.length).toBeGreaterThanOrEqual(3);
    expect(v.keyframes[0]).toEqual({
      index: 0,
      seconds: 0,
      reason: "FIRST",
      text: OVERLAY,
      face: null,
      thumbnailUrl: `/api/v1/analyses/${analysisId}/keyframes/0/thumbnail?workspace=${ws.workspaceId}`,
    });
    expect(v.keyframes.filter((k: { reason: string }) => k.reason === "SCENE").length).toBeGreaterThanOrEqual(1);

    const rest = await request(api.url, "GET", `/api/v1/video-analysis/${videoId}`, { key: ws.key });
    expect(rest.status).toBe(200);
    const r = rest.body.data;
    expect(r).toMatchObject({ analysisId, status: "completed", hookPhrase: OVERLAY, hookSource: "screen", reasons: g.reasons });
    // The same record on both doors (GraphQL's enums upper-case).
    const lower = (x: string) => x.toLowerCase();
    expect(r.visual).toEqual({
      ...v,
      status: lower(v.status),
      keyframes: v.keyframes.map((k: { reason: string }) => ({ ...k, reason: lower(k.reason) })),
    });
  });

  it("serves each thumbnail to the workspace only: its key or a member's session, 404 for another workspace, 401 for nobody", async () => {
    const url = `/api/v1/analyses/${analysisId}/keyframes/1/thumbnail`;
    const own = await fetchThumbnail(url, { authorization: `Bearer ${ws.key}` });
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toBe("image/jpeg");
    expect(own.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8])); // a JPEG
    expect(own.bytes.length).toBeLessThanOrEqual(MAX_THUMBNAIL_BYTES);
    expect(own.headers.get("cache-control")).toBe("private, max-age=86400, immutable");
    const stored = await prisma.videoAnalysisThumbnail.findUniqueOrThrow({ where: { analysisId_position: { analysisId, position: 1 } } });
    expect(own.bytes.equals(Buffer.from(stored.jpeg))).toBe(true);
    // Revalidation by its ETag (max-age=0 as a browser sends it: fetch() would add `no-cache`, which always refetches).
    const again = await fetchThumbnail(url, {
      authorization: `Bearer ${ws.key}`,
      "if-none-match": own.headers.get("etag")!,
      "cache-control": "max-age=0",
    });
    expect(again.status).toBe(304);

    await newPerson("viewer@example.com", ws.workspaceId, "member");
    const person = await signedIn(api.url, "viewer@example.com");
    const byCookie = await fetchThumbnail(url, { cookie: person.cookieHeader() });
    expect(byCookie.status).toBe(200);
    expect(byCookie.bytes.equals(own.bytes)).toBe(true);

    const other = await newWorkspace();
    // The person chooses another workspace (another tab, say): the record's thumbnailUrl names its own, so it still loads.
    await setMembership({
      workspaceId: other.workspaceId,
      userId: (await prisma.user.findUniqueOrThrow({ where: { email: "viewer@example.com" } })).id,
      role: "member",
      by: OPERATOR,
    });
    const chosen = await fetch(`${api.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-requested-with": "test", cookie: person.cookieHeader() },
      body: JSON.stringify({
        query: `mutation($id: ID!) { selectWorkspace(id: $id) { __typename } }`,
        variables: { id: other.workspaceId },
      }),
    });
    expect((await chosen.json()).errors).toBeUndefined();
    expect((await fetchThumbnail(url, { cookie: person.cookieHeader() })).status).toBe(404);
    expect((await fetchThumbnail(`${url}?workspace=${ws.workspaceId}`, { cookie: person.cookieHeader() })).status).toBe(200);
    // A workspace that is not the person's is not theirs to name; a key ignores the parameter (it is its workspace's).
    const stranger = await newWorkspace();
    expect((await fetchThumbnail(`${url}?workspace=${stranger.workspaceId}`, { cookie: person.cookieHeader() })).status).toBe(404);
    expect((await fetchThumbnail(`${url}?workspace=${stranger.workspaceId}`, { authorization: `Bearer ${ws.key}` })).status).toBe(200);
    const foreign = await request(api.url, "GET", url, { key: other.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: "NOT_FOUND" });
    expect((await request(api.url, "GET", url, {})).status).toBe(401);
    // An index with no thumbnail, out of range, or not a number; a bad id.
    expect(
      (await request(api.url, "GET", `/api/v1/analyses/${analysisId}/keyframes/${MAX_STORED_KEYFRAMES - 1}/thumbnail`, { key: ws.key }))
        .status,
    ).toBe(404);
    for (const bad of [
      `${analysisId}/keyframes/${MAX_STORED_KEYFRAMES}`,
      `${analysisId}/keyframes/one`,
      `${analysisId}/keyframes/1.5`,
      "not-a-uuid/keyframes/0",
    ]) {
      const res = await request(api.url, "GET", `/api/v1/analyses/${bad}/thumbnail`, { key: ws.key });
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
  });

  it("is in MCP's get_video_analysis, the same record as REST's", async () => {
    const c = new Client({ name: "visual-record-test", version: "1.0.0" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${ws.key}` } } }),
    );
    try {
      const r = (await c.callTool({ name: "get_video_analysis", arguments: { video_id: videoId } })) as unknown as {
        structuredContent: { data: Record<string, unknown> };
      };
      const rest = await request(api.url, "GET", `/api/v1/video-analysis/${videoId}`, { key: ws.key });
      expect(r.structuredContent.data.visual).toEqual(rest.body.data.visual);
      expect(r.structuredContent.data.hookSource).toBe("screen");
    } finally {
      await c.close();
    }
  });

  it("removes the work directory once the analysis has ended", async () => {
    expect(existsSync(analysisDir(analysisId))).toBe(false);
  });

  it("is deleted with its analysis (a forced re-analysis), thumbnails included", async () => {
    expect(await prisma.videoAnalysisThumbnail.count({ where: { analysisId } })).toBeGreaterThan(0);
    const fresh = await analyze(ws.workspaceId, videoId, { force: true });
    expect(fresh.analysisId).not.toBe(analysisId);
    expect(await prisma.videoAnalysisThumbnail.count({ where: { analysisId } })).toBe(0);
    await waitForStatus(ws.workspaceId, videoId, ["completed"]);
  });
});

describe("degrading to transcript-only, never failing", () => {
  async function analysed(description: string, setUp?: (analysisId: string) => void) {
    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId, { description });
    await queue("analysis").pause();
    const { analysisId } = await analyze(ws.workspaceId, videoId, {});
    setUp?.(analysisId);
    await queue("analysis").resume();
    const a = await waitForStatus(ws.workspaceId, videoId, ["completed", "failed"]);
    expect(a.status).toBe("completed");
    expect(handed.get(description)).toBeNull(); // the content analyser read the transcript alone
    return (await graphqlAnalysis(ws.key, videoId)).visual;
  }

  it("when the media has no video rendition: the media's reason", async () => {
    const description = "No rendition for this one. Link in bio.";
    noRendition.add(description);
    const v = await analysed(description);
    expect(v).toMatchObject({
      status: "TRANSCRIPT_ONLY",
      keyframes: [],
      cutCount: null,
      textHook: null,
      providers: { keyframes: null, text: null, faces: null },
    });
    expect(v.skipped).toEqual(["No video to look at: the platform offers no format with video (test)"]);
  });

  it("when the visual stage fails unexpectedly, or for good", async () => {
    const bug = await analysed("A keyframe bug. Comment PLAN.", (id) =>
      keyframeTrouble.set(id, { kind: "throw", times: 9, error: () => new TypeError("cannot read x of undefined") }),
    );
    expect(bug).toMatchObject({
      status: "TRANSCRIPT_ONLY",
      skipped: ["The visual stage failed, so the analysis used the transcript alone: an internal error (logged)"],
    });
    // A keyframe provider failing for good is skipped by seeVideo itself, which then saw nothing.
    const gone = await analysed("ffmpeg went away. Save this.", (id) =>
      keyframeTrouble.set(id, {
        kind: "throw",
        times: 9,
        error: () => new ProviderError("vision:ffmpeg", "ffmpeg is not installed (Debian package ffmpeg)", false),
      }),
    );
    expect(gone.status).toBe("TRANSCRIPT_ONLY");
    expect(gone.skipped.join(" ")).toContain("ffmpeg is not installed");
  });

  it("retries a visual failure a retry may mend, and degrades on the last attempt", async () => {
    const description = "Times out every time. Use code BREAD10.";
    let id = "";
    const v = await analysed(description, (analysisId) => {
      id = analysisId;
      keyframeTrouble.set(analysisId, {
        kind: "throw",
        times: 9,
        error: () => new ProviderError("vision:ffmpeg", "ffmpeg timed out", true),
      });
    });
    expect(keyframeCalls.get(id)).toBe(3); // every attempt looked again (ANALYSIS_ATTEMPTS=3)
    expect(v).toMatchObject({
      status: "TRANSCRIPT_ONLY",
      skipped: ["The visual stage failed, so the analysis used the transcript alone: vision:ffmpeg: ffmpeg timed out"],
    });
  });

  it("when no keyframe provider is configured: no rendition is fetched, and the configured reason is kept", async () => {
    const ws = await newWorkspace();
    const description = "Nothing to see with. Follow for part 2.";
    const videoId = await trackedVideo(ws.workspaceId, { description });
    const { analysisId } = await analyzeWithoutJob(ws.workspaceId, videoId);
    const blind: AnalysisProviders = {
      ...providers,
      visual: { keyframes: null, text: null, faces: null, missing: ["keyframes: ffmpeg is not installed (Debian package ffmpeg)"] },
    };
    expect(await runAnalysis(analysisId, blind, jobRun())).toEqual({ status: "completed" });
    expect(fetches.filter((f) => f.description === description)).toEqual([{ description, withVideo: false }]);
    const v = (await graphqlAnalysis(ws.key, videoId)).visual;
    expect(v).toMatchObject({ status: "TRANSCRIPT_ONLY", skipped: ["keyframes: ffmpeg is not installed (Debian package ffmpeg)"] });
    // And with no visual providers at all (VISUAL_ANALYSIS=false).
    const second = await trackedVideo(ws.workspaceId, { description: "Off entirely. Link in bio." });
    const r2 = await analyzeWithoutJob(ws.workspaceId, second);
    const { visual: _, ...transcriptOnly } = providers;
    expect(await runAnalysis(r2.analysisId, transcriptOnly, jobRun())).toEqual({ status: "completed" });
    expect((await graphqlAnalysis(ws.key, second)).visual.skipped[0]).toMatch(/VISUAL_ANALYSIS/);
  });
});

describe("resumed runs", () => {
  it("on another machine (no work directory): the rendition is fetched again before looking", async () => {
    const ws = await newWorkspace();
    const description = "Resumed elsewhere. Send this to a friend.";
    const videoId = await trackedVideo(ws.workspaceId, { description });
    const { analysisId } = await analyzeWithoutJob(ws.workspaceId, videoId);
    // The first run stops in `analyzing`, before anything was seen (a retryable failure of the keyframes).
    keyframeTrouble.set(analysisId, { kind: "throw", times: 1, error: () => new ProviderError("vision:ffmpeg", "ffmpeg timed out", true) });
    await expect(runAnalysis(analysisId, providers, jobRun(0, 3))).rejects.toThrow(/timed out/);
    expect(await getAnalysis(ws.workspaceId, videoId)).toMatchObject({ status: "analyzing", visual: null });
    expect(existsSync(join(analysisDir(analysisId), "video.mp4"))).toBe(true);
    await rm(analysisDir(analysisId), { recursive: true }); // as another worker's machine has none

    expect(await runAnalysis(analysisId, providers, jobRun(1, 3))).toEqual({ status: "completed" });
    expect(fetches.filter((f) => f.description === description)).toEqual([
      { description, withVideo: true },
      { description, withVideo: true },
    ]);
    expect((await getAnalysis(ws.workspaceId, videoId))?.visual).toMatchObject({ status: "partial", cutCount: 2 });
  });

  it("after the visual part was stored: the content analysis reads it again, nothing is fetched or looked at twice", async () => {
    const ws = await newWorkspace();
    const description = "Retried model call. Comment RECIPE and I'll send it.";
    const videoId = await trackedVideo(ws.workspaceId, { description });
    const { analysisId } = await analyzeWithoutJob(ws.workspaceId, videoId);
    contentFailsOnce.add(description);
    await expect(runAnalysis(analysisId, providers, jobRun(0, 3))).rejects.toThrow(/model timed out/);
    const first = handed.get(description)!;
    const stored = (await getAnalysis(ws.workspaceId, videoId))!;
    expect(stored).toMatchObject({ status: "analyzing", visual: { status: "partial" } });
    await rm(analysisDir(analysisId), { recursive: true });

    expect(await runAnalysis(analysisId, providers, jobRun(1, 3))).toEqual({ status: "completed" });
    expect(keyframeCalls.get(analysisId)).toBe(1);
    expect(fetches.filter((f) => f.description === description)).toHaveLength(1);
    const again = handed.get(description)!;
    // The same evidence, each keyframe's image now its stored thumbnail (the readable frames were on the first machine).
    for (const field of ["textHook", "cutCount", "firstCutSeconds", "faceShare", "providers", "skipped"] as const)
      expect(again[field], field).toEqual(first[field]);
    expect(again.onScreenText.map((t) => t.text)).toEqual(first.onScreenText.map((t) => t.text));
    expect(again.keyframes.map((k) => [k.seconds, k.text])).toEqual(first.keyframes.map((k) => [k.seconds, k.text]));
    expect(again.keyframes.every((k) => k.thumbnail.length > 0)).toBe(true);
  });
});

describe("work directories and bounds", () => {
  it("the sweeper removes this machine's directories of analyses no longer running, and keeps the running ones'", async () => {
    const ws = await newWorkspace();
    const running = await analyzeWithoutJob(ws.workspaceId, await trackedVideo(ws.workspaceId));
    const gone = "00000000-0000-4000-8000-000000000001"; // a deleted analysis
    for (const id of [running.analysisId, gone]) await mkdir(analysisDir(id), { recursive: true });
    await sweepAnalyses();
    expect(existsSync(analysisDir(gone))).toBe(false);
    expect(existsSync(analysisDir(running.analysisId))).toBe(true);
    expect((await stat(analysisDirRoot())).isDirectory()).toBe(true);
    await runAnalysis(running.analysisId, providers, jobRun());
    expect(existsSync(analysisDir(running.analysisId))).toBe(false);
  });

  it("a failed analysis's directory goes too", async () => {
    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId, { description: "Removed at its source." });
    const { analysisId } = await analyzeWithoutJob(ws.workspaceId, videoId);
    const failing: AnalysisProviders = {
      ...providers,
      media: {
        name: "simulated",
        fetch: async () => Promise.reject(new ProviderError("media:stand-in", "video removed at its source", false)),
      },
    };
    expect(await runAnalysis(analysisId, failing, jobRun())).toEqual({ status: "failed" });
    expect(existsSync(analysisDir(analysisId))).toBe(false);
  });

  it("keeps at most 32 keyframes (spread evenly), thumbnails of at most 32 KiB, text PostgreSQL can hold; only while analyzing", async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    const evidence: VisualEvidence = {
      durationSeconds: 60,
      keyframes: Array.from({ length: 40 }, (_, i) => ({
        seconds: i * 1.5,
        reason: i === 0 ? ("first" as const) : ("interval" as const),
        text: i === 0 ? "POV\u0000: hidden NUL" : "",
        face: i % 2 === 0,
        thumbnail: i === 39 ? Buffer.alloc(MAX_THUMBNAIL_BYTES + 1) : jpeg,
        imagePath: "",
      })),
      onScreenText: [{ text: "POV: hidden NUL", firstSeconds: 0, lastSeconds: 0, language: "en", confidence: 0.9, used: true }],
      textHook: "POV: hidden NUL",
      cutCount: 0,
      cutsPerMinute: Number.NaN,
      firstCutSeconds: null,
      faceShare: 0.5,
      providers: { keyframes: "ffmpeg", text: "tesseract", faces: "face-api" },
      skipped: [],
      setAside: [],
      cutTimes: [],
    };
    const { part, thumbnails } = visualPartOf(evidence);
    expect(part.keyframes).toHaveLength(MAX_STORED_KEYFRAMES);
    expect(part.keyframes[0]!.seconds).toBe(0);
    expect(part.keyframes.at(-1)!.seconds).toBe(39 * 1.5);
    expect(part.keyframes[0]!.text).toBe("POV: hidden NUL");
    expect(part.keyframes.at(-1)!.thumbnail).toBe(false); // too large to keep
    expect(thumbnails.filter(Boolean)).toHaveLength(MAX_STORED_KEYFRAMES - 1);
    expect(part).toMatchObject({ status: "complete", cutsPerMinute: null, faceShare: 0.5 });

    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId);
    const { analysisId } = await analyzeWithoutJob(ws.workspaceId, videoId);
    expect(await storeVisualPart(analysisId, { part, thumbnails })).toBe(false); // still pending
    await prisma.videoAnalysis.update({ where: { id: analysisId }, data: { status: "analyzing" } });
    expect(await storeVisualPart(analysisId, { part, thumbnails })).toBe(true);
    expect(await prisma.videoAnalysisThumbnail.count({ where: { analysisId } })).toBe(MAX_STORED_KEYFRAMES - 1);
    // The database holds the same bounds whoever writes.
    await expect(
      prisma.videoAnalysisThumbnail.create({ data: { analysisId, position: MAX_STORED_KEYFRAMES, jpeg: new Uint8Array(jpeg) } }),
    ).rejects.toThrow();
    await expect(
      prisma.videoAnalysisThumbnail.create({ data: { analysisId, position: 31, jpeg: new Uint8Array(MAX_THUMBNAIL_BYTES + 1) } }),
    ).rejects.toThrow();
  });
});
