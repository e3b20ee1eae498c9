/**
 * The visual stage (src/domain/analysis/visual/look.ts, `lookAtVideo`): end to end with the real providers on a
 * rendered silent video whose hook is only on screen; then its rules with providers that answer or fail
 * on cue: a missing or broken provider is skipped with its reason, an abort aborts, a retryable failure
 * is thrown, text is de-duplicated across frames, and at most VISUAL_CONCURRENCY stages run at once.
 */
import "../setup/visual-on.js"; // first: the visual stage on, as deployed, before the configuration is read
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../src/config.js";
import { lookAtVideo } from "../../src/domain/analysis/visual/look.js";
import { collectOnScreenText, evidenceForJudgement, setAsideText, textHook, tidyLine } from "../../src/domain/analysis/visual/text.js";
import type { FaceDetector, KeyframeProvider, TextRecognizer, VisualProviders } from "../../src/domain/analysis/ports.js";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import { createVisualProviders } from "../../src/main/providers.js";
import { HeuristicAnalysisProvider } from "../../src/providers/analysis/heuristic.js";
import { renderVideo } from "../../src/providers/media/render-video.js";

let root: string;
let video: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "visual-stage-"));
  video = join(root, "silent.mp4");
  await renderVideo(
    {
      scenes: [
        { seconds: 2.5, colour: "0x1f3a5f" },
        { seconds: 2.5, colour: "0xf2c14e", face: true },
        { seconds: 2.5, colour: "0x7a1f3d" },
      ],
      overlays: [
        { text: "3 mistakes every new runner makes", from: 0, to: 3, position: "top" },
        { text: "Link in bio", from: 5.2, to: 7.5, position: "bottom" },
      ],
    },
    video,
    { ffmpegPath: "ffmpeg", timeoutMs: 30_000, workDir: root, provider: "test" },
  );
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const workDir = () => mkdtemp(join(root, "work-"));

describe("lookAtVideo with the real providers", () => {
  it("sees a silent video's text hook, its cuts and its face, and the heuristic analyser takes the hook from the screen", async () => {
    const evidence = await lookAtVideo(video, createVisualProviders(), { workDir: await workDir() });

    expect(evidence.providers).toEqual({ keyframes: "ffmpeg", text: "paddleocr+tesseract", faces: "face-api" });
    expect(evidence.skipped).toEqual([]);
    expect(evidence.textHook).toBe("3 mistakes every new runner makes");
    expect(evidence.onScreenText.map((t) => [t.text, t.used])).toEqual([
      ["3 mistakes every new runner makes", true],
      ["Link in bio", true],
    ]);
    expect(evidence.onScreenText[0]!.language).toBe("en");
    expect(evidence.onScreenText[0]!.firstSeconds).toBe(0);
    expect(evidence.onScreenText[1]!.firstSeconds).toBeGreaterThan(5);
    expect(evidence.cutCount).toBe(2);
    expect(evidence.firstCutSeconds).toBeCloseTo(2.5, 0);
    expect(evidence.cutsPerMinute).toBeCloseTo(16, 0);
    expect(evidence.faceShare).toBeGreaterThan(0.1);
    expect(evidence.faceShare).toBeLessThan(0.7);
    for (const k of evidence.keyframes) expect(k.thumbnail.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(evidence.keyframes.filter((k) => k.face).every((k) => k.seconds > 2.5 && k.seconds < 5)).toBe(true);

    // Silent: no transcript, no description; the hook and the call to action come from the screen.
    const analysis = await new HeuristicAnalysisProvider().analyze({
      platform: "platformA",
      transcript: "",
      segments: [],
      description: "",
      hashtags: [],
      visual: evidence,
    });
    expect(analysis).toMatchObject({
      hookStyle: "how_to",
      hookPhrase: "3 mistakes every new runner makes",
      hookSource: "screen",
      ctaType: "link_in_bio",
    });
    expect(analysis.reasons).toContainEqual(
      expect.stringMatching(/^hookStyle how_to: the on-screen text at 0\.0 s \(keyframe 1\) "3 mistakes every new runner makes"/),
    );
    expect(analysis.reasons).toContainEqual(
      expect.stringMatching(/^ctaType link_in_bio: "link in bio" in "Link in bio" on screen at 5\.\d s \(keyframe \d+\)/),
    );
  }, 180_000);
});

/** Keyframes of the rendered video, as the real provider picks them; text and faces from the stand-ins below. */
function providers(over: Partial<VisualProviders>): VisualProviders {
  return { ...createVisualProviders(), ...over };
}

const failing = (retryable: boolean): TextRecognizer => ({
  name: "stand-in",
  read: async () => {
    throw new ProviderError("vision:tesseract", "tesseract is broken", retryable);
  },
});

describe("text shown between keyframes", () => {
  it("reads the moments where text changed without a cut for on-screen text only, in time order with the keyframes", async () => {
    const real = createVisualProviders().keyframes!;
    // The rendered video's keyframes, and one moment between them whose frame is the last keyframe's image.
    const keyframes: KeyframeProvider = {
      name: "ffmpeg",
      extract: async (path, opts) => {
        const set = await real.extract(path, { ...opts, maxKeyframes: 2 });
        return { ...set, textMoments: [{ ...set.keyframes.at(-1)!, seconds: 6.4, reason: "interval" }] };
      },
    };
    const byImage: TextRecognizer = {
      name: "stand-in",
      read: async (frame) => ({
        lines: [
          {
            text: frame.imagePath.endsWith("keyframe-01.jpg") ? "Nobody tells you this" : "Your easy days are too fast",
            confidence: 0.95,
            language: "en",
          },
        ],
      }),
    };
    const evidence = await lookAtVideo(video, providers({ keyframes, text: byImage, faces: null }), { workDir: await workDir() });
    const [first, second] = evidence.keyframes.map((k) => k.seconds);
    expect(evidence.keyframes).toHaveLength(2);
    expect(evidence.onScreenText.map((t) => [t.text, t.firstSeconds, t.lastSeconds])).toEqual([
      ["Nobody tells you this", first, first],
      ["Your easy days are too fast", second, 6.4],
    ]);
  });
});

describe("lookAtVideo's rules", () => {
  it("skips a missing provider with its reason, and a provider that fails for good, keeping the rest", async () => {
    const noFaces: FaceDetector | null = null;
    const evidence = await lookAtVideo(video, providers({ text: failing(false), faces: noFaces, missing: ["faces: not configured"] }), {
      workDir: await workDir(),
      maxKeyframes: 4,
    });
    expect(evidence.providers).toEqual({ keyframes: "ffmpeg", text: null, faces: null });
    expect(evidence.skipped).toEqual(["faces: not configured", "on-screen text: vision:tesseract: tesseract is broken"]);
    expect(evidence.keyframes.length).toBeLessThanOrEqual(4);
    expect(evidence.keyframes.every((k) => k.text === "" && k.face === null)).toBe(true);
    expect(evidence).toMatchObject({ onScreenText: [], textHook: null, faceShare: null, cutCount: 2 });
  }, 120_000);

  it("is composed without a provider whose program is not installed, saying why and how to install it", () => {
    const saved = config.programs.tesseract;
    config.programs.tesseract = "/nowhere/tesseract";
    try {
      const composed = createVisualProviders();
      // PaddleOCR (in the npm package) still reads Chinese and English; the other scripts need tesseract.
      expect(composed.text?.name).toBe("paddleocr+tesseract");
      expect(composed.keyframes?.name).toBe("ffmpeg");
      expect(composed.faces?.name).toBe("face-api");
      expect(composed.missing).toEqual([
        expect.stringMatching(
          /^on-screen text in Cyrillic, Vietnamese and other scripts .*: tesseract \(\/nowhere\/tesseract\) is not installed; install it/,
        ),
      ]);
    } finally {
      config.programs.tesseract = saved;
    }
  });

  it("with no keyframe provider sees nothing and says why", async () => {
    const evidence = await lookAtVideo(video, providers({ keyframes: null, missing: ["keyframes: ffmpeg (ffmpeg) is not installed"] }), {
      workDir: await workDir(),
    });
    expect(evidence).toMatchObject({
      keyframes: [],
      onScreenText: [],
      textHook: null,
      cutCount: 0,
      faceShare: null,
      providers: { keyframes: null, text: null, faces: null },
    });
    expect(evidence.skipped).toEqual(["keyframes: ffmpeg (ffmpeg) is not installed"]);
  });

  it("skips a video ffmpeg cannot read, for good", async () => {
    const broken = join(root, "broken.mp4");
    await writeFile(broken, "not a video");
    const evidence = await lookAtVideo(broken, providers({}), { workDir: await workDir() });
    expect(evidence.keyframes).toEqual([]);
    expect(evidence.skipped).toEqual([expect.stringMatching(/^keyframes: vision:ffmpeg: /)]);
  });

  it("throws a retryable failure, and an abort", async () => {
    await expect(
      lookAtVideo(video, providers({ text: failing(true) }), { workDir: await workDir(), maxKeyframes: 2 }),
    ).rejects.toMatchObject({
      retryable: true,
    });
    const controller = new AbortController();
    const slow: TextRecognizer = {
      name: "stand-in",
      read: () =>
        new Promise((_, reject) =>
          controller.signal.addEventListener("abort", () => reject(new ProviderError("vision:tesseract", "cancelled", false))),
        ),
    };
    const seeing = lookAtVideo(video, providers({ text: slow }), { workDir: await workDir(), signal: controller.signal, maxKeyframes: 2 });
    setTimeout(() => controller.abort(), 300);
    await expect(seeing).rejects.toThrow(/cancelled/);
  }, 30_000);

  it("runs at most VISUAL_CONCURRENCY visual stages at once in a process", async () => {
    expect(config.visual.concurrency).toBe(1);
    let running = 0;
    let most = 0;
    const keyframes: KeyframeProvider = {
      name: "ffmpeg",
      extract: async () => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 100));
        running--;
        return { durationSeconds: 1, cuts: [], keyframes: [] };
      },
    };
    await Promise.all(
      [1, 2, 3].map(async () => lookAtVideo(video, { keyframes, text: null, faces: null, missing: [] }, { workDir: await workDir() })),
    );
    expect(most).toBe(1);
  });

  it("keeps each piece of on-screen text once, with when it is first and last seen, despite a misread character", () => {
    const line = (text: string, confidence = 0.95) => ({ text, confidence, language: "en" });
    const pieces = collectOnScreenText(
      [
        { seconds: 0, lines: [line("POV: you finally found the perfect morning routine", 0.9)] },
        { seconds: 1.5, lines: [line("POV: you finaly found the perfect morning routine", 0.85)] },
        { seconds: 4, lines: [line("Link in bio")] },
        { seconds: 6, lines: [line("Link in bio"), line("Use code GLOW15")] },
      ],
      0.8,
    );
    const used = { language: "en", used: true };
    expect(pieces).toEqual([
      { text: "POV: you finally found the perfect morning routine", firstSeconds: 0, lastSeconds: 1.5, confidence: 0.9, ...used },
      { text: "Link in bio", firstSeconds: 4, lastSeconds: 6, confidence: 0.95, ...used },
      { text: "Use code GLOW15", firstSeconds: 6, lastSeconds: 6, confidence: 0.95, ...used },
    ]);
    expect(textHook(pieces)).toBe("POV: you finally found the perfect morning routine");
    expect(textHook(pieces.slice(1))).toBeNull();
  });

  it("shows a piece again when it left the screen for two frames read and came back, not when one frame missed it", () => {
    const line = (text: string) => ({ text, confidence: 0.95, language: "es" });
    const bar = line("Actividades");
    const pieces = collectOnScreenText(
      [
        { seconds: 3.5, lines: [bar] },
        // OCR missed the bar in one frame: still the same piece.
        { seconds: 5, lines: [line("¿Listo para la reunión?")] },
        { seconds: 6, lines: [bar, line("¿Listo para la reunión?")] },
        // A title card over the desktop for two frames read: the bar left the screen.
        { seconds: 12.2, lines: [line("Responder más tarde")] },
        { seconds: 13.5, lines: [line("Responder más tarde")] },
        { seconds: 14.7, lines: [bar] },
        { seconds: 16, lines: [bar] },
      ],
      0.8,
    );
    expect(pieces.map((p) => [p.text, p.firstSeconds, p.lastSeconds])).toEqual([
      ["Actividades", 3.5, 6],
      ["¿Listo para la reunión?", 5, 6],
      ["Responder más tarde", 12.2, 13.5],
      ["Actividades", 14.7, 16],
    ]);
  });

  it("keeps two lines of one frame apart when one reads inside the other, and follows each", () => {
    const line = (text: string) => ({ text, confidence: 0.95, language: "en" });
    const pieces = collectOnScreenText(
      [
        { seconds: 0, lines: [line("YOU GET ANIMATED TEXT"), line("AND YOU GET ANIMATED TEXT")] },
        { seconds: 2, lines: [line("AND YOU GET ANIMATED TEXT"), line("YOU GET ANIMATED TEXT")] },
      ],
      0.8,
    );
    expect(pieces.map((p) => [p.text, p.firstSeconds, p.lastSeconds])).toEqual([
      ["YOU GET ANIMATED TEXT", 0, 2],
      ["AND YOU GET ANIMATED TEXT", 0, 2],
    ]);
  });

  it("keeps the fullest reading of text that builds up on screen, not the more confident start", () => {
    const line = (text: string, confidence: number) => ({ text, confidence, language: "en" });
    const pieces = collectOnScreenText(
      [
        { seconds: 0, lines: [line("Comment OWN", 0.97)] },
        { seconds: 1, lines: [line("Comment OWN or RENT", 0.93)] },
        { seconds: 2, lines: [line("Comment OWN or RENT and I'll send you my calculator", 0.88)] },
        // A later frame that cut the line short (a hand over it) does not undo the whole reading.
        { seconds: 3, lines: [line("Comment OWN or RENT", 0.99)] },
        // Nor does a fuller reading below the floor replace a usable one.
        { seconds: 4, lines: [line("Comment OWN or RENT and I'll send you my calculator today!!", 0.5)] },
      ],
      0.8,
    );
    expect(pieces).toEqual([
      {
        text: "Comment OWN or RENT and I'll send you my calculator",
        firstSeconds: 0,
        lastSeconds: 4,
        language: "en",
        confidence: 0.88,
        used: true,
      },
    ]);
  });

  it("drops a zero-width joiner at a word's edge, keeps one inside a word, and reads a lone | as I", () => {
    expect(tidyLine("வணக்கம்\u200c")).toBe("வணக்கம்");
    expect(tidyLine("\u200cمی\u200cخواهم  بروم\u200c ")).toBe("می\u200cخواهم بروم");
    expect(tidyLine("| love it")).toBe("I love it");
  });

  it("keeps a word's reading with its marks over a more confident one that lost them, and a reading that lost them apart from none", () => {
    const line = (text: string, confidence: number) => ({ text, confidence, language: "ta" });
    // A Tamil title written on stroke by stroke: its vowel signs and viramas (combining marks) drawn last.
    const pieces = collectOnScreenText(
      [
        { seconds: 0.8, lines: [line("வணககம", 0.97)] },
        { seconds: 1.5, lines: [line("வணக்கம்", 0.91)] },
        { seconds: 2.3, lines: [line("வணககம", 0.97)] },
      ],
      0.8,
    );
    expect(pieces.map((p) => [p.text, p.firstSeconds, p.lastSeconds])).toEqual([["வணக்கம்", 0.8, 2.3]]);
  });

  it("keeps text read below the confidence floor, marked, and uses it for no judgement", async () => {
    const pieces = collectOnScreenText(
      [
        { seconds: 0, lines: [{ text: "MCMEX", confidence: 0.62, language: null }] },
        { seconds: 0.5, lines: [{ text: "Link in bio", confidence: 0.97, language: "en" }] },
      ],
      0.8,
    );
    expect(pieces.map((p) => [p.text, p.used])).toEqual([
      ["MCMEX", false],
      ["Link in bio", true],
    ]);
    expect(textHook(pieces)).toBe("Link in bio");
    // Read with confidence but not as words (the recogniser's word check): set aside all the same.
    const noise = collectOnScreenText(
      [{ seconds: 0, lines: [{ text: "NAZA", confidence: 0.97, language: null, readsAsWords: false }] }],
      0.8,
    );
    expect(noise.map((p) => [p.text, p.used])).toEqual([["NAZA", false]]);
    expect(setAsideText(pieces, 0.8)).toEqual([
      'on-screen text set aside: 1 line read below the confidence floor 0.8 or not as words ("MCMEX" (0.62) at 0.0 s) are kept in the record but were not used for any judgement',
    ]);
    // The whole stage with a recogniser that is unsure of a line: kept, marked, and the analyser never sees it.
    const unsure: TextRecognizer = {
      name: "stand-in",
      read: async () => ({
        lines: [
          { text: "Follow for part 2", confidence: 0.5, language: "en" },
          { text: "3 mistakes every new runner makes", confidence: 0.95, language: "en" },
        ],
      }),
    };
    const evidence = await lookAtVideo(video, providers({ text: unsure, faces: null }), { workDir: await workDir(), maxKeyframes: 2 });
    expect(evidence.onScreenText.map((t) => [t.text, t.used])).toEqual([
      ["Follow for part 2", false],
      ["3 mistakes every new runner makes", true],
    ]);
    expect(evidence.keyframes[0]!.text).toBe("3 mistakes every new runner makes");
    expect(evidence.textHook).toBe("3 mistakes every new runner makes");
    expect(evidence.setAside).toEqual([expect.stringMatching(/^on-screen text set aside: 1 line .*"Follow for part 2" \(0\.5\)/)]);
    expect(evidenceForJudgement(evidence).onScreenText.map((t) => t.text)).toEqual(["3 mistakes every new runner makes"]);
  }, 30_000);
});
