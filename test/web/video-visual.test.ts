/**
 * The video page shows what the analysis saw, in Chromium against the real service: where
 * the hook came from (on screen, at its time), the text hook, cuts and pacing, and the keyframe strip
 * whose thumbnails the `<img>` elements load with the person's session cookie, the hook's frame marked;
 * a transcript-only analysis says why nothing was seen. axe-core on both.
 *
 * The analyses are run by the real pipeline in this process on a rendered clip (real ffmpeg keyframes;
 * the on-screen text is a stand-in reader: see test/analysis/visual-fixtures.ts).
 */
import "../setup/visual-on.js"; // first: the visual stage on, as deployed, before the configuration is read
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rm } from "node:fs/promises";
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
import { dashboardContext, expectAccessible, launchBrowser, pageErrors, signIn } from "./harness.js";

const CLIP = join(tmpdir(), `video-visual-${process.pid}.mp4`);
const NO_RENDITION = "Nothing to look at here. Link in bio.";
const providers: AnalysisProviders = {
  media: clipMedia(CLIP, new Set([NO_RENDITION])),
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

/** A tracked video of the workspace, analysed to completion by the pipeline. */
async function analysedVideo(workspaceId: string, description: string): Promise<string> {
  const videoId = await trackedVideo(workspaceId, { description });
  const { analysisId } = await analyzeWithoutJob(workspaceId, videoId);
  expect(await runAnalysis(analysisId, providers)).toEqual({ status: "completed" });
  return videoId;
}

beforeAll(async () => {
  renderClip(CLIP);
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  const ws = await newWorkspace("pro", "Studio");
  await newPerson("grace@example.com", ws.workspaceId, "member");
  seenVideo = await analysedVideo(ws.workspaceId, "Sourdough that finally rises. Follow for more.");
  blindVideo = await analysedVideo(ws.workspaceId, NO_RENDITION);
  context = await dashboardContext(browser, { baseURL: api.url });
  page = await context.newPage();
  errors = pageErrors(page);
  await signIn(page, "grace@example.com", PASSWORD);
});

afterAll(async () => {
  await browser?.close();
  await rm(CLIP, { force: true });
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
    expect(errors).toEqual([]);
  });
});
