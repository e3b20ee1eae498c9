/** The simulated media provider: the description as captions, with no program by default; espeak-ng speech as the audio with `speech: true` (real programs). */
import "../setup/visual-on.js"; // first: the visual stage on, as deployed, before the configuration is read
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import {
  onScreenHook,
  simulatedVideoSpec,
  SimulatedMediaProvider,
  spokenForm,
  timeSentences,
} from "../../src/providers/media/simulated.js";
import { lookAtVideo } from "../../src/domain/analysis/visual/look.js";
import { createVisualProviders } from "../../src/main/providers.js";
import type { MediaInput } from "../../src/domain/analysis/ports.js";
import { readWavInfo } from "../../src/providers/media/wav.js";

const DESCRIPTION = `Wait for it... I tried the viral cloud bread recipe!
Honestly it tasted like air. Full recipe at https://example.com/cloud-bread?ref=bio 🍞
#baking #fail`;

let root: string;
let workDir: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "media-sim-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  workDir = await mkdtemp(join(root, "work-"));
});

function input(extra: Partial<MediaInput> = {}): MediaInput {
  return {
    platform: "platformA",
    platformVideoId: "123",
    url: "https://example.com/@demo/video/123",
    description: DESCRIPTION,
    dataSource: "simulated",
    ...extra,
  };
}

describe("simulated media provider", () => {
  it("returns the description as captions split by sentence, with timings spread over real espeak-ng audio", async () => {
    const media = await new SimulatedMediaProvider({ speech: true }).fetch(input(), { workDir });

    expect(media.captions!.language).toBe("en");
    expect(media.captions!.segments.map((s) => s.text)).toEqual([
      "Wait for it...",
      "I tried the viral cloud bread recipe!",
      "Honestly it tasted like air.",
      "Full recipe at https://example.com/cloud-bread?ref=bio 🍞",
      "#baking #fail",
    ]);
    expect(media.captions!.text).toBe(media.captions!.segments.map((s) => s.text).join(" "));

    const wav = await readWavInfo(media.wavPath!);
    expect(wav).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16, audioFormat: 1 });
    // About 25 spoken words at 165 words per minute, plus pauses: several seconds, not a blip or minutes.
    expect(wav!.durationSeconds).toBeGreaterThan(5);
    expect(wav!.durationSeconds).toBeLessThan(20);
    expect(media.durationSeconds).toBeCloseTo(wav!.durationSeconds, 1);

    const segments = media.captions!.segments;
    expect(segments[0]!.start).toBe(0);
    expect(segments.at(-1)!.end).toBe(media.durationSeconds);
    for (let i = 1; i < segments.length; i++) {
      expect(segments[i]!.start).toBe(segments[i - 1]!.end);
      expect(segments[i]!.end).toBeGreaterThan(segments[i]!.start);
    }
    // Longer sentences get more time.
    const length = (i: number) => segments[i]!.end - segments[i]!.start;
    expect(length(1)).toBeGreaterThan(length(0));
  });

  it("refuses a video that is not simulated: its description must not pass for what it says", async () => {
    for (const dataSource of ["live", null]) {
      const error = await new SimulatedMediaProvider().fetch(input({ dataSource }), { workDir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).retryable).toBe(false);
      expect((error as ProviderError).message).toMatch(/refusing a video whose dataSource is/);
    }
    expect(await readdir(workDir)).toEqual([]);
  });

  it("returns empty captions and no audio for an empty description", async () => {
    const media = await new SimulatedMediaProvider().fetch(input({ description: "  \n " }), { workDir });
    expect(media).toEqual({ captions: { text: "", segments: [], language: "en" }, wavPath: null, durationSeconds: null });
  });

  it("by default needs no program: the captions are the transcript, timed at a speaking rate, and no audio is made", async () => {
    const missing = { espeakPath: join(workDir, "no-espeak"), ffmpegPath: join(workDir, "no-ffmpeg") };
    const media = await new SimulatedMediaProvider(missing).fetch(input(), { workDir });
    expect(media.wavPath).toBeNull();
    expect(media.captions!.text).toMatch(/^Wait for it\.\.\. I tried the viral cloud bread recipe!/);
    expect(media.captions!.segments.length).toBeGreaterThan(2);
    expect(media.captions!.segments.at(-1)!.end).toBe(media.durationSeconds);
    expect(media.durationSeconds).toBeGreaterThan(3);
    expect(await readdir(workDir)).toEqual([]);
  });

  it("with speech, fails clearly when espeak-ng is missing", async () => {
    const error = await new SimulatedMediaProvider({ espeakPath: join(workDir, "no-espeak"), speech: true })
      .fetch(input(), { workDir })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toMatch(/media:simulated: .*no-espeak is not installed/);
  });

  it("speaks URLs as their host and drops hashtag signs and pictographs", () => {
    expect(spokenForm("Full recipe at https://www.example.com/a?b=c 🍞 #baking")).toBe("Full recipe at example.com baking");
  });

  it("spreads the duration in proportion to the spoken length of each sentence", () => {
    // Weights: letters plus a pause of 6: "Hi" 2 + 6 = 8, "Thisisamuchlongersentence" 25 + 6 = 31.
    const segments = timeSentences(["Hi.", "This is a much longer sentence."], ["Hi.", "This is a much longer sentence."], 3.9);
    expect(segments).toEqual([
      { start: 0, end: 0.8, text: "Hi." },
      { start: 0.8, end: 3.9, text: "This is a much longer sentence." },
    ]);
  });
});

describe("simulated media provider: the video for the visual stage", () => {
  it("renders a real video with cuts, the description's first line on screen, a face when the creator talks to camera, and says it is simulated", async () => {
    const media = await new SimulatedMediaProvider().fetch(input(), { workDir, withVideo: true });
    expect(media.videoPath).toBe(join(workDir, "simulated-video.mp4"));
    expect(media.videoUnavailable).toBeUndefined();
    const probe = JSON.parse(
      execFileSync(
        "ffprobe",
        [
          "-v",
          "error",
          "-show_entries",
          "format=duration:format_tags=comment:stream=codec_type,width,height",
          "-of",
          "json",
          media.videoPath!,
        ],
        { encoding: "utf8" },
      ),
    );
    expect(probe.streams).toEqual([{ codec_type: "video", width: 540, height: 960 }]); // silent: captions only, no audio made
    expect(Number(probe.format.duration)).toBeCloseTo(media.durationSeconds!, 0);
    expect(probe.format.tags.comment).toMatch(/^simulated demo video/);

    const evidence = await lookAtVideo(media.videoPath!, createVisualProviders(), { workDir });
    expect(evidence.textHook).toBe("Wait for it... I tried the viral cloud bread recipe!");
    expect(evidence.onScreenText.map((t) => t.text)).toContain("SIMULATED");
    expect(evidence.cutCount).toBeGreaterThanOrEqual(1);
    expect(evidence.faceShare).toBeGreaterThan(0); // "I tried": the simulated creator talks to camera
  }, 60_000);

  it("plans scenes of a few seconds, a face only for a first-person description, the hook for 3 s, the label after it", () => {
    const talking = simulatedVideoSpec({ description: "I tried it.\nSecond line", platformVideoId: "a" }, 10, null);
    expect(talking.scenes.length).toBe(3);
    expect(talking.scenes.map((s) => s.face)).toEqual([false, true, false]);
    expect(talking.overlays).toEqual([
      { text: "I tried it.", from: 0, to: 3, position: "top" },
      { text: "SIMULATED", from: 3, to: 10, position: "bottom", size: 24 },
    ]);
    expect(simulatedVideoSpec({ description: "Ten facts about owls", platformVideoId: "a" }, 2, null).scenes.every((s) => !s.face)).toBe(
      true,
    );
    // A hook is a line, not a paragraph: the opening sentences that fit in a dozen words.
    const long = "POV: you finally fixed your sourdough starter. I tried three flours this week and honestly the rye one won.";
    expect(simulatedVideoSpec({ description: long, platformVideoId: "a" }, 10, null).overlays[0]!.text).toBe(
      "POV: you finally fixed your sourdough starter.",
    );
    expect(onScreenHook("Wait for it... I tried the viral cloud bread recipe! Then I ate it all.")).toBe(
      "Wait for it... I tried the viral cloud bread recipe!",
    );
    expect(simulatedVideoSpec({ description: "", platformVideoId: "a" }, 0, null).scenes.reduce((t, s) => t + s.seconds, 0)).toBe(5);
  });

  it("leaves the video out, with the reason, when ffmpeg is missing; the captions are still there", async () => {
    const media = await new SimulatedMediaProvider({ ffmpegPath: join(workDir, "missing", "ffmpeg") }).fetch(input(), {
      workDir,
      withVideo: true,
    });
    expect(media.captions!.segments.length).toBeGreaterThan(2);
    expect(media.videoPath).toBeNull();
    expect(media.videoUnavailable).toMatch(
      /^the simulated video could not be rendered: .*ffmpeg is not installed or not on PATH: install it/,
    );
  });
});
