/**
 * The video page shows what the analysis saw, in Chromium against the real service: where
 * the hook came from (on screen, at its time), the text hook, cuts and pacing, and the keyframe strip
 * whose thumbnails the `<img>` elements load with the person's session cookie, the hook's frame marked;
 * a transcript-only analysis says why nothing was seen; the transcript's language, and a transcript set aside
 * (French speech the English-only recogniser turned into noise) shown as such, with why. axe-core on each.
 *
 * The analyses are run by the real pipeline in this process on a rendered clip (real ffmpeg keyframes;
 * the on-screen text is a stand-in reader: see test/analysis/visual-fixtures.ts).
 */
import "../setup/visual-on.js"; // first: the visual stage on, as deployed, before the configuration is read
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { copyFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { PASSWORD, newPerson } from "../helpers/people.js";
import type { RunningApi } from "../../src/main/server.js";
import { runAnalysis, type AnalysisProviders } from "../../src/domain/analysis/pipeline.js";
import { HeuristicAnalysisProvider } from "../../src/providers/analysis/heuristic.js";
import { PocketsphinxTranscriber } from "../../src/providers/transcription/pocketsphinx.js";
import { FfmpegKeyframeProvider } from "../../src/providers/vision/keyframes.js";
import { analyzeWithoutJob, trackedVideo } from "../analysis/fixtures.js";
import { clipMedia, OVERLAY, overlayReader, renderClip, withScreenHook } from "../analysis/visual-fixtures.js";
import { ffmpeg } from "../fixtures/media/server.js";
import type { MediaProvider } from "../../src/domain/analysis/ports.js";
import { dashboardContext, expectAccessible, launchBrowser, pageErrors, signIn } from "./harness.js";

const CLIP = join(tmpdir(), `video-visual-${process.pid}.mp4`);
const NO_RENDITION = "Nothing to look at here. Link in bio.";
const FRENCH = join(tmpdir(), `video-visual-fr-${process.pid}.wav`);
const SPOKEN_IN_FRENCH = "Spoken in French, no captions.";
const clips = clipMedia(CLIP, new Set([NO_RENDITION]));
/** The clip's media; for SPOKEN_IN_FRENCH, French speech without captions (pocketsphinx then hears English-looking noise). */
const media: MediaProvider = {
  name: "simulated",
  async fetch(input, opts) {
    if (input.description !== SPOKEN_IN_FRENCH) return clips.fetch(input, opts);
    const wavPath = join(opts.workDir, "audio.wav");
    await copyFile(FRENCH, wavPath);
    return {
      captions: null,
      wavPath,
      durationSeconds: null,
      videoPath: null,
      videoUnavailable: "the platform offers no format with video (test)",
    };
  },
};
const providers: AnalysisProviders = {
  media,
  transcription: new PocketsphinxTranscriber(),
  visual: { keyframes: new FfmpegKeyframeProvider(), text: overlayReader, faces: null, missing: ["faces: no face detector in this test"] },
  content: withScreenHook(new HeuristicAnalysisProvider()),
};

let api: RunningApi;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let seenVideo: string;
let blindVideo: string;
let frenchVideo: string;

/** A tracked video of the workspace, analysed to completion by the pipeline. */
async function analysedVideo(workspaceId: string, description: string): Promise<string> {
  const videoId = await trackedVideo(workspaceId, { description });
  const { analysisId } = await analyzeWithoutJob(workspaceId, videoId);
  expect(await runAnalysis(analysisId, providers)).toEqual({ status: "completed" });
  return videoId;
}

beforeAll(async () => {
  renderClip(CLIP);
  execFileSync("espeak-ng", [
    "-v",
    "fr-fr",
    "-w",
    `${FRENCH}.raw.wav`,
    "Bonjour à tous, aujourd'hui je vais vous montrer une tarte aux pommes.",
  ]);
  ffmpeg(["-i", `${FRENCH}.raw.wav`, "-ar", "16000", "-ac", "1", FRENCH]);
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  const ws = await newWorkspace("pro", "Studio");
  await newPerson("grace@example.com", ws.workspaceId, "member");
  seenVideo = await analysedVideo(ws.workspaceId, "Sourdough that finally rises. Follow for more.");
  blindVideo = await analysedVideo(ws.workspaceId, NO_RENDITION);
  frenchVideo = await analysedVideo(ws.workspaceId, SPOKEN_IN_FRENCH);
  context = await dashboardContext(browser, { baseURL: api.url });
  page = await context.newPage();
  errors = pageErrors(page);
  await signIn(page, "grace@example.com", PASSWORD);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([CLIP, FRENCH, `${FRENCH}.raw.wav`].map((f) => rm(f, { force: true })));
  await stopAll(api);
});

describe("the video page's analysis", () => {
  it("shows the keyframe strip with each frame's time and text, where the hook came from, and the cuts", async () => {
    await page.goto(`/videos/${seenVideo}`);
    const seen = page.getByRole("region", { name: "What the analysis saw" });
    await seen.waitFor();
    await expect(seen.getByTestId("hook-source").textContent()).resolves.toBe(`Hook shown on screen at 0:00: “${OVERLAY}”`);
    await expect(seen.locator(".findings-seen dd").first().textContent()).resolves.toContain(OVERLAY);
    await expect(seen.locator(".findings-seen div", { hasText: "Cuts" }).textContent()).resolves.toMatch(
      /Cuts2 \(20\.0 per minute, first at 0:02\)/,
    );
    await expect(seen.locator(".findings-seen div", { hasText: "Face on camera" }).textContent()).resolves.toContain("Not checked");

    const frames = seen.getByRole("list", { name: "Keyframes" }).getByRole("listitem");
    await expect(frames.count()).resolves.toBeGreaterThanOrEqual(3);
    await expect(frames.first().textContent()).resolves.toContain("0:00.0");
    await expect(frames.first().textContent()).resolves.toContain(OVERLAY);
    await expect(frames.first().locator(".badge", { hasText: "Hook" }).count()).resolves.toBe(1);
    // Every thumbnail loaded: the <img> requests carried the session cookie (the service answers 404 to anyone else).
    const images = seen.getByRole("img");
    await expect
      .poll(() =>
        images.evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth === 160)),
      )
      .toBe(true);
    await expect(images.first().getAttribute("alt")).resolves.toBe("Frame at 0:00.0");

    await seen.getByText(/^Why \(\d+ reasons?\)$/).click();
    await seen.getByText("hook: on screen at 0 s (keyframe 0)").waitFor();
    await seen.getByTestId("skipped").getByText("faces: no face detector in this test").waitFor();
    // Each line of on-screen text with its language and how sure the recogniser was.
    const lines = seen.getByRole("list", { name: "On-screen text" }).getByRole("listitem");
    await expect(lines.first().textContent()).resolves.toMatch(new RegExp(`${OVERLAY}.*English.*95 % sure`));
    await expectAccessible(page, "Video (what the analysis saw)");
  });

  it("says why a transcript-only analysis saw nothing", async () => {
    await page.goto(`/videos/${blindVideo}`);
    const seen = page.getByRole("region", { name: "What the analysis saw" });
    await seen
      .getByRole("note")
      .getByText(
        "Transcript-only analysis: nothing was seen in the video. No video to look at: the platform offers no format with video (test)",
      )
      .waitFor();
    await expect(seen.getByRole("list", { name: "Keyframes" }).count()).resolves.toBe(0);
    await expectAccessible(page, "Video (transcript-only analysis)");
  });

  it("shows the transcript's language, and a transcript set aside as such, with why", async () => {
    await page.goto(`/videos/${seenVideo}`);
    await expect(page.locator(".transcript h3").textContent()).resolves.toMatch(/Transcript \(from captions\).*English/);
    await expect(page.locator(".transcript .badge", { hasText: "Set aside" }).count()).resolves.toBe(0);

    await page.goto(`/videos/${frenchVideo}`);
    const transcript = page.locator(".transcript");
    await transcript.locator(".badge", { hasText: "Set aside: not used for any judgement" }).waitFor();
    await expect(transcript.locator("h3").textContent()).resolves.toMatch(/from pocketsphinx.*language unknown.*\d+ % sure/);
    await expect(transcript.locator(".transcript-note").textContent()).resolves.toMatch(
      /^Transcript set aside: the speech was recognised \(pocketsphinx\) with confidence 0\.\d+, below the floor 0\.5/,
    );
    await expectAccessible(page, "Video (transcript set aside)");
    expect(errors).toEqual([]);
  });
});
