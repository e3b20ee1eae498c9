/**
 * Fixtures for the tests of what an analysis saw: a short clip rendered by ffmpeg (white, black, then
 * a test pattern: two cuts, at 2 s and 4 s), a media provider that serves it as the video rendition
 * beside the simulated provider's captions, a stand-in reader of its overlay and a content analyser
 * that records where the hook came from.
 */
import { copyFile } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import type {
  ContentAnalysis,
  ContentAnalysisProvider,
  ContentInput,
  MediaProvider,
  TextRecognizer,
} from "../../src/domain/analysis/ports.js";
import { SimulatedMediaProvider } from "../../src/providers/media/simulated.js";
import { join } from "node:path";

/** Renders the 6-second, 360 × 640 clip to `path` (about 10 KB, well under a second). */
export function renderClip(path: string): void {
  execFileSync("ffmpeg", [
    ...["-v", "error", "-y"],
    ...["-f", "lavfi", "-i", "color=c=white:s=360x640:d=2:r=25"],
    ...["-f", "lavfi", "-i", "color=c=black:s=360x640:d=2:r=25"],
    ...["-f", "lavfi", "-i", "testsrc2=s=360x640:d=2:r=25"],
    ...["-filter_complex", "[0][1][2]concat=n=3:v=1:a=0,format=yuv420p", "-c:v", "libx264", "-preset", "ultrafast", path],
  ]);
}

/**
 * The simulated provider's captions, and `clip` as the rendition where a download would land; none
 * (with the reason a platform gives) for the descriptions in `noRendition`. `fetches` records each call.
 */
export function clipMedia(
  clip: string,
  noRendition = new Set<string>(),
  fetches: { description: string; withVideo: boolean }[] = [],
): MediaProvider {
  const captions = new SimulatedMediaProvider();
  return {
    name: "simulated",
    async fetch(input, opts) {
      fetches.push({ description: input.description, withVideo: opts.withVideo === true });
      const result = await captions.fetch(input, { workDir: opts.workDir, signal: opts.signal });
      if (!opts.withVideo) return result;
      if (noRendition.has(input.description))
        return { ...result, videoPath: null, videoUnavailable: "the platform offers no format with video (test)" };
      const videoPath = join(opts.workDir, "rendition.mp4");
      await copyFile(clip, videoPath);
      return { ...result, videoPath };
    },
  };
}

/** The overlay the stand-in recognizer reads on every frame. */
export const OVERLAY = "POV: you finally fixed your sourdough";

/** Reads OVERLAY on every frame: these tests are about the record, not OCR (the real one is tested in test/providers/). */
export const overlayReader: TextRecognizer = {
  name: "stand-in",
  read: async () => ({ lines: [{ text: OVERLAY, confidence: 0.95, language: "en" }] }),
};

/**
 * The content analyser's answer with the hook taken from the screen when a text hook was seen, and a
 * reason naming the frame: whatever the analyser itself says, the record of both is then checked.
 */
export function withScreenHook(content: ContentAnalysisProvider, before?: (input: ContentInput) => void): ContentAnalysisProvider {
  return {
    name: content.name,
    async analyze(input): Promise<ContentAnalysis> {
      before?.(input);
      const r = await content.analyze(input);
      const v = input.visual;
      if (!v?.textHook) return r;
      return {
        ...r,
        hookPhrase: v.textHook,
        hookSource: "screen",
        reasons: [...(r.reasons ?? []), `hook: on screen at ${v.keyframes[0]!.seconds} s (keyframe 0)`],
      };
    },
  };
}
