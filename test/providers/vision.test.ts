/**
 * The visual providers against the real programs and models on a video rendered here by ffmpeg
 * (src/providers/media/render-video.ts): ffmpeg's keyframes and cuts, tesseract's on-screen text,
 * face-api's faces (its model from the npm package, on the WebAssembly backend).
 */
import "../setup/visual-on.js"; // first: the visual stage on, as deployed, before the configuration is read
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import type { KeyframeSet } from "../../src/domain/analysis/ports.js";
import { renderVideo } from "../../src/providers/media/render-video.js";
import { FaceApiDetector } from "../../src/providers/vision/face-api.js";
import { FfmpegKeyframeProvider, pickKeyframes } from "../../src/providers/vision/keyframes.js";
import { overlaysFromTsv, TesseractRecognizer } from "../../src/providers/vision/tesseract.js";

let root: string;
let video: string;
let set: KeyframeSet;

// Three scenes (2 s each): cuts at 2 s and 4 s; the hook on screen for the first 1.8 s; a face in the last scene.
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "vision-"));
  video = join(root, "clip.mp4");
  await renderVideo(
    {
      scenes: [
        { seconds: 2, colour: "0x1f3a5f" },
        { seconds: 2, colour: "0xf2c14e" },
        { seconds: 2, colour: "0x7a1f3d", face: true },
      ],
      overlays: [{ text: "POV: you finally found the perfect morning routine", from: 0, to: 1.8, position: "top" }],
    },
    video,
    { ffmpegPath: "ffmpeg", timeoutMs: 30_000, workDir: root, provider: "test" },
  );
  set = await new FfmpegKeyframeProvider().extract(video, { workDir: root, maxKeyframes: 6 });
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("ffmpeg keyframes", () => {
  it("finds the duration and both cuts, and picks the first frame, one after each cut and spaced ones, capped", async () => {
    expect(set.durationSeconds).toBeCloseTo(6, 0);
    expect(set.cuts).toHaveLength(2);
    expect(set.cuts[0]).toBeCloseTo(2, 0);
    expect(set.cuts[1]).toBeCloseTo(4, 0);
    expect(set.keyframes.length).toBeLessThanOrEqual(6);
    expect(set.keyframes[0]).toMatchObject({ seconds: 0, reason: "first" });
    expect(set.keyframes.filter((k) => k.reason === "scene").map((k) => Math.floor(k.seconds))).toEqual([2, 4]);
    const times = set.keyframes.map((k) => k.seconds);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("writes a readable JPEG, its grayscale PGM and a small thumbnail per keyframe", async () => {
    for (const k of set.keyframes) {
      const big = await readFile(k.imagePath);
      const small = await readFile(k.thumbnailPath);
      expect(big.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      expect(small.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      expect(small.length).toBeLessThan(15_000);
      expect(small.length).toBeLessThan(big.length);
      const gray = await readFile(k.grayPath!);
      expect(gray.subarray(0, 2).toString("latin1")).toBe("P5");
    }
    // Text and faces read from the grayscale frame as from the JPEG.
    expect((await new TesseractRecognizer().read(set.keyframes[0]!.grayPath!)).text).toBe(
      "POV: you finally found the perfect morning routine",
    );
    expect((await new FaceApiDetector().detect(set.keyframes.at(-1)!.grayPath!)).faces).toBe(1);
  });

  it("marks a keyframe that shows what the previous one showed, and not one after a cut", () => {
    // The first frame; 1.5 s (the same still and caption); just after each cut; the middles of the widest gaps (still scenes).
    expect(set.keyframes.map((k) => [Math.round(k.seconds), k.reason, k.sameAsPrevious ?? false])).toEqual([
      [0, "first", false],
      [2, "interval", true],
      [2, "scene", false],
      [3, "interval", true],
      [4, "scene", false],
      [5, "interval", true],
    ]);
  });

  it("refuses a file with no video, for good", async () => {
    const notVideo = join(root, "not-video.mp4");
    await writeFile(notVideo, "plain text");
    const error = await new FfmpegKeyframeProvider().extract(notVideo, { workDir: root, maxKeyframes: 4 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
  });

  it("spreads the keyframes over the cuts when there are more cuts than the cap allows", () => {
    const cuts = Array.from({ length: 30 }, (_, i) => i * 2 + 1);
    const picks = pickKeyframes(60, cuts, 12);
    expect(picks).toHaveLength(12);
    expect(picks[0]).toEqual({ seconds: 0, reason: "first" });
    expect(picks.filter((p) => p.reason === "scene").length).toBeGreaterThanOrEqual(6);
    expect(picks.some((p) => p.seconds > 50)).toBe(true);
  });
});

describe("tesseract on-screen text", () => {
  it("reads a wrapped overlay as one piece of text, and nothing from a plain frame", async () => {
    const recognizer = new TesseractRecognizer();
    const first = await recognizer.read(set.keyframes[0]!.imagePath);
    expect(first.text).toBe("POV: you finally found the perfect morning routine");
    const plain = set.keyframes.find((k) => k.reason === "scene" && k.seconds < 3)!;
    expect((await recognizer.read(plain.imagePath)).text).toBe("");
  });

  it("keeps confident lines and joins stacked ones, dropping symbols read from the picture", () => {
    const row = (block: number, top: number, left: number, conf: number, text: string) =>
      `5\t1\t${block}\t1\t1\t1\t${left}\t${top}\t80\t40\t${conf}\t${text}`;
    const tsv = [
      "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
      row(1, 100, 100, 95, "Link"),
      row(1, 100, 190, 30, "in"),
      row(2, 150, 120, 90, "bio"),
      row(3, 600, 50, 55, "¥K4"),
      row(4, 900, 50, 20, "ee"),
    ].join("\n");
    expect(overlaysFromTsv(tsv)).toEqual(["Link in bio"]);
  });

  it("names the package when the program is missing, not retryable", async () => {
    const error = await new TesseractRecognizer({ tesseractPath: join(root, "missing", "tesseract") })
      .read(set.keyframes[0]!.imagePath)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
    expect((error as ProviderError).message).toMatch(
      /not installed or not on PATH: install it \(Debian\/Ubuntu: sudo apt-get install -y tesseract-ocr tesseract-ocr-eng\) or point TESSERACT_PATH at it/,
    );
  });
});

describe("face-api faces", () => {
  it("finds the face in the scene that shows one, and none in a text-only frame", async () => {
    const detector = new FaceApiDetector();
    const withFace = set.keyframes.find((k) => k.seconds > 4.1)!;
    const found = await detector.detect(withFace.imagePath);
    expect(found.faces).toBe(1);
    expect(found.largestFaceShare).toBeGreaterThan(0.02);
    expect(await detector.detect(set.keyframes[0]!.imagePath)).toEqual({ faces: 0, largestFaceShare: 0 });
  }, 30_000);

  it("detects on a thread of its own: this thread's event loop keeps turning meanwhile", async () => {
    const detector = new FaceApiDetector();
    await detector.detect(set.keyframes[0]!.imagePath); // the thread and its model loaded
    // A timer every 5 ms: on this thread each frame's detection (about 100 ms of CPU here, more on a busy
    // machine) would let it fire about once per frame; on a thread of its own it fires many times per frame.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      for (const k of set.keyframes) await detector.detect(k.imagePath);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(3 * set.keyframes.length);
  }, 30_000);

  it("refuses a file that is not a JPEG, for good", async () => {
    const notJpeg = join(root, "not.jpg");
    await writeFile(notJpeg, "nope");
    const error = await new FaceApiDetector().detect(notJpeg).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
  });
});
