/**
 * The visual providers against the real programs and models on a video rendered here by ffmpeg
 * (src/providers/media/render-video.ts) and on frames of real clips (bench/analysis-eval/real/): ffmpeg's
 * keyframes and cuts, on-screen text (PaddleOCR's regions and readings, tesseract for other scripts),
 * face-api's faces (its model from the npm package, on the WebAssembly backend).
 */
import "../setup/visual-on.js"; // first: the visual stage on, as deployed, before the configuration is read
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import type { KeyframeSet } from "../../src/domain/analysis/ports.js";
import { renderVideo } from "../../src/providers/media/render-video.js";
import { runProgram } from "../../src/providers/process.js";
import { FaceApiDetector } from "../../src/providers/vision/face-api.js";
import { FfmpegKeyframeProvider, pickKeyframes, textMoments } from "../../src/providers/vision/keyframes.js";
import { wordListsOf } from "../../src/providers/vision/word-lists.js";
import { ScriptAwareRecognizer } from "../../src/providers/vision/ocr.js";
import { linesFromTsv, TesseractLines } from "../../src/providers/vision/tesseract.js";

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
    // Faces are found in the grayscale frame as in the JPEG.
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

  it("does not take a word fading in slowly for no change: each frame changes little, the keyframes apart more", async () => {
    // "Live" fades in beside "mit Gemini" from 2 s to 3.5 s, as in a real advertisement (ad-de-titles-cuts at 12.7 s).
    const fade = join(root, "fade.mp4");
    const font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
    const text = (words: string, x: number) => `drawtext=fontfile=${font}:text='${words}':fontsize=40:fontcolor=black:x=${x}:y=340`;
    const draw = `${text("mit Gemini", 500)},${text("Live", 720)}:alpha='if(lt(t,2),0,if(lt(t,3.5),(t-2)/1.5,1))'`;
    const input = ["-f", "lavfi", "-i", "color=c=white:s=1280x720:d=6:r=25"];
    await runProgram("test", "ffmpeg", ["-v", "error", "-y", ...input, "-vf", draw, "-pix_fmt", "yuv420p", fade], { timeoutMs: 30_000 });
    // Its own folder: the keyframes are named by their order, and the clip above's are read by later tests.
    const workDir = await mkdtemp(join(root, "fade-"));
    const { keyframes } = await new FfmpegKeyframeProvider().extract(fade, { workDir, maxKeyframes: 7 });
    const marks = keyframes.map((k) => [k.seconds, k.sameAsPrevious ?? false]);
    // Still before the fade: not read again; once "Live" has faded in, read again (the old check saw no change at all).
    expect(
      marks.filter(([s]) => (s as number) > 0 && (s as number) < 2).every(([, same]) => same),
      JSON.stringify(marks),
    ).toBe(true);
    expect(
      keyframes.some((k) => k.seconds > 2 && !k.sameAsPrevious),
      JSON.stringify(marks),
    ).toBe(true);
  });

  it("takes a caption switching on a still picture for a text moment, not a cut; a cut between two stills is still one", async () => {
    const render = async (name: string, scenes: { seconds: number; colour: string; face: boolean }[], switchAt: number) => {
      const path = join(root, `${name}.mp4`);
      const captions = [
        { text: "I tried every morning routine on the internet", from: 0, to: switchAt - 0.05, position: "middle" as const },
        { text: "and only one of them actually stuck with me", from: switchAt, to: 6, position: "middle" as const },
      ];
      await renderVideo({ scenes, overlays: captions }, path, { ffmpegPath: "ffmpeg", timeoutMs: 30_000, workDir: root, provider: "test" });
      return new FfmpegKeyframeProvider().extract(path, { workDir: await mkdtemp(join(root, `${name}-`)), maxKeyframes: 6 });
    };
    // One still scene: only the caption moves, and its switch at 2 s scored as a cut (the picture's histogram stays).
    const still = await render("caption-switch", [{ seconds: 4, colour: "0x1f3a5f", face: true }], 2);
    expect(still.cuts).toEqual([]);
    expect(still.keyframes.some((k) => k.reason === "scene")).toBe(false);
    // The same still cut to another (a new backdrop), the caption switching with it.
    const cut = await render(
      "caption-cut",
      [
        { seconds: 3, colour: "0x1f3a5f", face: true },
        { seconds: 3, colour: "0xf2c14e", face: true },
      ],
      3,
    );
    expect(cut.cuts).toHaveLength(1);
    expect(cut.cuts[0]).toBeCloseTo(3, 0);
  }, 60_000);

  it("refuses a file with no video, for good", async () => {
    const notVideo = join(root, "not-video.mp4");
    await writeFile(notVideo, "plain text");
    const error = await new FfmpegKeyframeProvider().extract(notVideo, { workDir: root, maxKeyframes: 4 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
  });

  it("a video of one frame a second: every keyframe it returns has its images; none falls after the last frame", async () => {
    const oneFps = join(root, "one-fps.mp4");
    await runProgram(
      "test",
      "ffmpeg",
      ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=1", "-t", "10", "-pix_fmt", "yuv420p", oneFps],
      { timeoutMs: 30_000 },
    );
    const workDir = await mkdtemp(join(root, "one-fps-"));
    const slow = await new FfmpegKeyframeProvider().extract(oneFps, { workDir, maxKeyframes: 8 });
    expect(slow.durationSeconds).toBeCloseTo(10, 0);
    expect(slow.keyframes.length).toBeGreaterThanOrEqual(5);
    for (const k of slow.keyframes) {
      expect(k.seconds, "at or before the last frame, at 9 s").toBeLessThan(9.05);
      await expect(readFile(k.imagePath)).resolves.toBeInstanceOf(Buffer);
      await expect(readFile(k.grayPath!)).resolves.toBeInstanceOf(Buffer);
      await expect(readFile(k.thumbnailPath)).resolves.toBeInstanceOf(Buffer);
    }
    expect(
      (await readdir(workDir)).filter((f) => f.startsWith("picked-")),
      "no frames left of the first pass",
    ).toEqual([]);
  });

  it("places text moments just after each change, away from keyframes and each other, at most the cap", () => {
    const keyframes = [{ seconds: 0 }, { seconds: 1.5 }, { seconds: 6.3 }];
    // 1.3 s falls by the 1.5 s keyframe; 4.1 s by the moment at 3.9 s; 6.0 s by the keyframe at 6.3 s; 9.95 s is clamped.
    expect(textMoments([1, 3.6, 3.8, 6, 8, 9.95], keyframes, 10, 12)).toEqual([3.9, 8.3, 9.9]);
    // More changes than the cap: spread over them, the first and the last kept.
    expect(textMoments([3, 4, 5, 8, 9], keyframes, 10, 2)).toEqual([3.3, 9.3]);
  });

  it("reads a shot no keyframe fell in at its middle, and the last frame when the screen changed after the last read", () => {
    const keyframes = [{ seconds: 0 }, { seconds: 1.5 }, { seconds: 6.3 }];
    const still = Array.from({ length: 100 }, (_, i) => ({ seconds: i / 10, blockChange: 0 }));
    // Shots 0-2, 2-4 (no keyframe: its middle, 3.0 s), 4-10; nothing changes after 6.3 s: no last frame.
    expect(textMoments([], keyframes, 10, 12, { cuts: [2, 4], frames: still })).toEqual([3]);
    // A terminal printing at 9 s: its fullest screen is the last frame, read first when the cap allows one moment only.
    const printing = still.map((f) => (f.seconds === 9 ? { ...f, blockChange: 30 } : f));
    expect(textMoments([8.9], keyframes, 10, 12, { cuts: [], frames: printing })).toEqual([9.2, 9.9]);
    expect(textMoments([5, 8.9], keyframes, 10, 1, { cuts: [], frames: printing })).toEqual([9.9]);
    // A subtitle shown 0.7 s from 1.7 s: the keyframe at 1.5 s was read before it, so it is read at 2.0 s.
    expect(textMoments([1.7], keyframes, 10, 12)).toEqual([2]);
    // A change at the last frame is read once, as the last frame (a time twice made ffmpeg write one frame for two).
    expect(textMoments([2.9], [{ seconds: 0 }], 3, 12, { cuts: [], frames: [{ seconds: 2.9, blockChange: 30 }] })).toEqual([2.9]);
    // An advertisement's short shots: a word for 0.5 s (2-2.5 s), a title for 0.8 s (4-4.8 s) whose middle is 0.7 s from
    // the next shot's keyframe. That keyframe shows another picture: both are read.
    const short = [{ seconds: 0 }, { seconds: 1.5 }, { seconds: 2.8 }, { seconds: 5.1 }];
    expect(textMoments([], short, 10, 12, { cuts: [2, 2.5, 4, 4.8], frames: still })).toEqual([2.3, 4.4]);
    // 0.3 s is three scanned frames wherever it starts (1.2 - 0.9 is 0.2999… in floating point); 0.2 s is a flash.
    const kf = [{ seconds: 0 }, { seconds: 2.8 }];
    expect(textMoments([], kf, 10, 12, { cuts: [0.9, 1.2, 2.5], frames: still })).toEqual([1.1, 1.9]);
    expect(textMoments([], kf, 10, 12, { cuts: [0.9, 1.1, 2.5], frames: still })).toEqual([1.8]);
    // More shots than the cap: their middles spread over the whole video, not the first twelve.
    const cuts = Array.from({ length: 59 }, (_, i) => i + 1);
    const spreadOver = textMoments([], [{ seconds: 0 }], 60, 12, { cuts, frames: [] });
    expect(spreadOver).toHaveLength(12);
    expect(Math.max(...spreadOver)).toBeGreaterThan(50);
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

describe("cuts in real clips (labelled by eye: bench/analysis-eval/real/manifest.json)", () => {
  const extract = async (id: string, seconds?: number) => {
    let clip = fileURLToPath(new URL(`../../bench/analysis-eval/real/clips/${id}.mp4`, import.meta.url));
    if (seconds !== undefined) {
      const short = join(root, `${id}-${seconds}.mp4`);
      await runProgram("test", "ffmpeg", ["-v", "error", "-y", "-i", clip, "-t", String(seconds), short], { timeoutMs: 30_000 });
      clip = short;
    }
    const workDir = await mkdtemp(join(root, `${id}-`));
    return new FfmpegKeyframeProvider().extract(clip, { workDir, maxKeyframes: 4 });
  };
  const near = (found: number[], labelled: number[]) => labelled.every((l) => found.some((f) => Math.abs(f - l) <= 0.5));

  it("finds the moments a subtitle switches without a cut, to read text at besides the keyframes", async () => {
    // Labelled: subtitles at 0-0.5, 0.5-1.5, 1.5-2.6, 6.0-8.0, 12.5-13.2, 16.5-18.0, 20.0-21.0, 21.5-27.6 s.
    const workDir = await mkdtemp(join(root, "moments-"));
    const clip = fileURLToPath(new URL("../../bench/analysis-eval/real/clips/anime-night-zh-subs.mp4", import.meta.url));
    const set = await new FfmpegKeyframeProvider().extract(clip, { workDir, maxKeyframes: 12 });
    const moments = set.textMoments!.map((m) => m.seconds);
    expect(moments.length).toBeGreaterThan(0);
    expect(moments.length).toBeLessThanOrEqual(12);
    // The switch to the 6.0-8.0 s subtitle shows at 5.6 s (it fades in): a moment just after it.
    expect(
      moments.some((m) => m >= 5.6 && m < 8),
      "the subtitle no keyframe falls in",
    ).toBe(true);
    for (const m of moments) {
      expect(
        set.cuts.some((c) => Math.abs(c - m) < 0.4),
        `${m} s is no cut`,
      ).toBe(false);
      // Not a keyframe read again: a moment follows a change that no frame read after it saw.
      expect(
        set.keyframes.some((k) => Math.abs(k.seconds - m) < 0.3),
        `${m} s is no keyframe`,
      ).toBe(false);
    }
    await expect(readFile(set.textMoments![0]!.imagePath)).resolves.toBeInstanceOf(Buffer);
  }, 60_000);

  it("finds every jump cut of an advertisement that keeps the same grey backdrop and a fixed caption line", async () => {
    const labelled = [0.67, 1.4, 3.0, 4.47, 5.03, 5.53, 5.93, 6.37, 7.63];
    const set = await extract("ad-ru-captions");
    expect(set.cuts).toHaveLength(labelled.length);
    expect(near(set.cuts, labelled)).toBe(true);
  }, 60_000);

  it("takes a pop-up closing on a desktop animation and figures added to a slide for changes within the picture, not cuts", async () => {
    // Both labelled no cut. The GNOME tutorial's desktop flew away at 3.5 s, its banner slid up at 6 s and its pop-up
    // closed at 10.3 s; the slide's figures came at 8.6 s and 16.4 s. At each, half of the moving part or more kept its
    // grey level, and most of the pixels that changed were plain backdrop in one of the two frames.
    const tutorial = await extract("screen-es-notification-reply");
    for (const t of [3.5, 6, 10.3])
      expect(
        tutorial.cuts.some((c) => Math.abs(c - t) <= 0.5),
        `${t} s in ${tutorial.cuts}`,
      ).toBe(false);
    expect((await extract("slide-ablation-labels-faces")).cuts).toEqual([]);
  }, 60_000);

  it("counts a dip through black between two shots once, and neither the black opening nor a fixed watermark", async () => {
    // Black with the watermark, the first shot at 1 s, dips to black at 6 s and 12 s, a dissolve at 18 s (`gradualCuts`).
    const set = await extract("nature-watermark");
    expect(set.cuts).toHaveLength(3);
    expect(near(set.cuts, [6.9, 12.9, 18])).toBe(true);
  }, 60_000);

  it("takes a subtitle strip's lines coming and going on black for one card, and reads each line as it comes", async () => {
    // Labelled no cut (the scan found 11 before: one at every line coming out of the black between lines).
    const strip = await new FfmpegKeyframeProvider().extract(
      fileURLToPath(new URL("../../bench/analysis-eval/real/clips/subtitle-strip-zh.mp4", import.meta.url)),
      { workDir: await mkdtemp(join(root, "strip-")), maxKeyframes: 12 },
    );
    expect(strip.cuts.length).toBeLessThanOrEqual(1);
    // Each line is read soon after it comes out of the black (a keyframe or a text moment within 0.8 s).
    const read = [...strip.keyframes, ...strip.textMoments!].map((m) => m.seconds);
    for (const shown of [3.8, 8, 11.1, 17.5, 20.3, 22.5])
      expect(
        read.some((t) => t >= shown - 0.05 && t <= shown + 0.8),
        `${shown} s in ${read}`,
      ).toBe(true);
  }, 60_000);

  it("takes text typed onto a white card for the same card, and a dark shot after a dip to black for a new one", async () => {
    // An advertisement's white card from 22.1 s, its text appearing at 24 s; the next shot at 26.3 s.
    const ad = await extract("ad-text-card");
    expect(ad.cuts.filter((c) => c > 22.8 && c < 25.8)).toEqual([]);
    expect(near(ad.cuts, [22.1, 26.3])).toBe(true);
    // A trailer's dark shot after a dip (12 s): its picture moves, so it is a new shot; the same inside letterbox bars
    // (the trailer posted in a vertical frame: the bars are black as the dip is, and do not count as its blank).
    const labelled = [5.2, 9.3, 12, 13.9, 16.5, 18.1, 21.9, 23.8, 25.9, 27.4, 28.3];
    const trailer = await extract("sintel-trailer");
    expect(trailer.cuts).toHaveLength(labelled.length);
    expect(near(trailer.cuts, labelled)).toBe(true);
    const vertical = join(root, "sintel-vertical.mp4");
    const clip = fileURLToPath(new URL("../../bench/analysis-eval/real/clips/sintel-trailer.mp4", import.meta.url));
    await runProgram(
      "test",
      "ffmpeg",
      [
        "-v",
        "error",
        "-y",
        "-i",
        clip,
        "-vf",
        "scale=406:-2,pad=406:720:0:(oh-ih)/2:black",
        "-an",
        "-c:v",
        "libx264",
        "-preset",
        "veryfast",
        vertical,
      ],
      { timeoutMs: 30_000 },
    );
    const padded = await new FfmpegKeyframeProvider().extract(vertical, {
      workDir: await mkdtemp(join(root, "vertical-")),
      maxKeyframes: 4,
    });
    expect(near(padded.cuts, labelled)).toBe(true);
  }, 60_000);

  it("finds the cut of a picture dipping to black into a title, and reads lines shown on black one after another", async () => {
    // A picture to 2 s, black to 2.6 s, then THE END on black: the title card is a new shot, begun at 2 s.
    // Then lines on black 1-2 s, 2.4-3.4 s and 4-5 s (0.4-0.6 s of black between): each read as it comes.
    const font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
    const title = join(root, "dip-title.mp4");
    const lines = join(root, "lines-on-black.mp4");
    const text = (t: string, from: number, to: number) =>
      `drawtext=fontfile=${font}:text='${t}':fontsize=40:fontcolor=white:x=(w-tw)/2:y=(h-th)/2:enable='between(t,${from},${to})'`;
    await runProgram(
      "test",
      "ffmpeg",
      ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=640x360:r=30:d=2", "-f", "lavfi", "-i", "color=black:s=640x360:r=30:d=0.6"]
        .concat(["-f", "lavfi", "-i", "color=black:s=640x360:r=30:d=3", "-filter_complex"])
        .concat([`[2:v]${text("THE END", 0, 3)}[t];[0:v][1:v][t]concat=n=3:v=1:a=0,format=yuv420p`])
        .concat(["-c:v", "libx264", "-preset", "veryfast", title]),
      { timeoutMs: 30_000 },
    );
    const dip = await new FfmpegKeyframeProvider().extract(title, { workDir: await mkdtemp(join(root, "dip-")), maxKeyframes: 4 });
    expect(dip.cuts).toHaveLength(1);
    expect(near(dip.cuts, [2])).toBe(true);
    await runProgram(
      "test",
      "ffmpeg",
      ["-v", "error", "-y", "-f", "lavfi", "-i", "color=black:s=640x360:r=30:d=6", "-vf"]
        .concat([`${text("FIRST LINE", 1, 2)},${text("SECOND LINE", 2.4, 3.4)},${text("THIRD LINE", 4, 5)},format=yuv420p`])
        .concat(["-c:v", "libx264", "-preset", "veryfast", lines]),
      { timeoutMs: 30_000 },
    );
    const shown = await new FfmpegKeyframeProvider().extract(lines, { workDir: await mkdtemp(join(root, "lines-")), maxKeyframes: 12 });
    expect(shown.cuts).toEqual([]);
    const read = [...shown.keyframes, ...shown.textMoments!].map((k) => k.seconds);
    for (const [from, to] of [
      [1, 2],
      [2.4, 3.4],
      [4, 5],
    ] as const)
      expect(
        read.some((t) => t > from && t < to),
        `${from}-${to} s in ${read}`,
      ).toBe(true);
  }, 60_000);

  it("finds a crossfade and a wipe between real shots, each once, near its middle", async () => {
    // Three 3-s shots of the tuning clips, joined by ffmpeg's xfade: a fade from 2.2 to 3.0 s, a wipe from 4.4 to 5.2 s.
    const clip = (id: string) => fileURLToPath(new URL(`../../bench/analysis-eval/real/clips/${id}.mp4`, import.meta.url));
    const shot = (i: number) =>
      `[${i}:v]scale=540:960:force_original_aspect_ratio=increase,crop=540:960,fps=30,format=yuv420p,settb=1/30[v${i}]`;
    const joined = join(root, "transitions.mp4");
    await runProgram(
      "test",
      "ffmpeg",
      ["-v", "error", "-y", "-ss", "1", "-t", "3", "-i", clip("bbb-opening"), "-ss", "8", "-t", "3", "-i", clip("nature-watermark")]
        .concat(["-ss", "13", "-t", "3", "-i", clip("documentary-4x3"), "-filter_complex"])
        .concat([
          `${shot(0)};${shot(1)};${shot(2)};[v0][v1]xfade=transition=fade:duration=0.8:offset=2.2[x1];` +
            "[x1][v2]xfade=transition=wipeup:duration=0.8:offset=4.4[x2]",
        ])
        .concat(["-map", "[x2]", "-c:v", "libx264", "-preset", "veryfast", joined]),
      { timeoutMs: 30_000 },
    );
    const set = await new FfmpegKeyframeProvider().extract(joined, { workDir: await mkdtemp(join(root, "transitions-")), maxKeyframes: 4 });
    expect(set.cuts).toHaveLength(2);
    expect(near(set.cuts, [2.6, 4.8])).toBe(true);
  }, 60_000);

  it("takes a head turned fast in a talking-head clip for motion, and finds the cut to the end card", async () => {
    const set = await extract("tiktok-talking-head");
    expect(set.cuts).toEqual([10.1]);
  }, 60_000);

  it("reads what it can of a very short, very dark clip: no failure, a first frame, no cut", async () => {
    const set = await extract("anime-night-zh-subs", 0.4);
    expect(set.durationSeconds).toBeGreaterThan(0);
    expect(set.keyframes[0]).toMatchObject({ seconds: 0, reason: "first" });
    expect(set.cuts).toEqual([]);
    const fadeIn = await extract("sintel-fade-in");
    expect(fadeIn.cuts).toEqual([]);
  }, 60_000);
});

describe("on-screen text: PaddleOCR's regions, each line read by the recogniser of its script", () => {
  const reader = new ScriptAwareRecognizer();

  it("reads a rendered overlay whole, in English, and nothing from a plain frame", async () => {
    const first = await reader.read(set.keyframes[0]!);
    expect(first.lines.map((l) => [l.text, l.language])).toEqual([["POV: you finally found the perfect morning routine", "en"]]);
    expect(first.lines[0]!.confidence).toBeGreaterThan(0.9);
    const plain = set.keyframes.find((k) => k.reason === "scene" && k.seconds < 3)!;
    expect((await reader.read(plain)).lines).toEqual([]);
  }, 60_000);

  it("reads a real advertisement's small Cyrillic caption in Cyrillic, not as Latin look-alikes", async () => {
    const frame = await realFrame("ad-ru-captions", 2);
    const { lines } = await reader.read(frame);
    const caption = lines.find((l) => /ОКЕАН/.test(l.text));
    expect(caption, JSON.stringify(lines)).toMatchObject({ language: "ru" });
    expect(caption!.text).toMatch(/КОТОРЫХ .*ОКЕАН/);
    expect(lines.some((l) => /[A-Z]{3}/.test(l.text))).toBe(false);
  }, 60_000);

  it("spaces the words PaddleOCR runs together on a real screen recording, and knows the short lines are English", async () => {
    const { lines } = await reader.read(await realFrame("screen-roi-select", 3));
    const line = lines.find((l) => /confirm/i.test(l.text));
    expect(line, JSON.stringify(lines)).toMatchObject({ language: "en", readsAsWords: true });
    expect(line!.text).toMatch(/Enter key for confirm/);
  }, 60_000);

  it("does not take a real Cyrillic caption read as Latin look-alikes for words", async () => {
    const { lines } = await reader.read(await realFrame("ad-ru-captions", 7.8));
    const latin = lines.filter((l) => /[A-Z]{3}/.test(l.text));
    expect(
      latin.every((l) => l.readsAsWords === false),
      JSON.stringify(lines),
    ).toBe(true);
  }, 60_000);

  it("reads a real film clip's Chinese and English subtitles, each with its language", async () => {
    const { lines } = await reader.read(await realFrame("leon-zh-en-subs", 2));
    expect(lines.find((l) => l.language === "zh" && l.text.includes("杂货店"))?.confidence).toBeGreaterThan(0.9);
    expect(lines.find((l) => l.text.includes("grocery"))).toMatchObject({ language: "en" });
  }, 60_000);

  it("reads a real Japanese subtitle line with its kana, which PaddleOCR's Chinese model drops", async () => {
    const { lines } = await reader.read(await realFrame("screen-ja-subtitle-list", 0.5, 1280));
    // PaddleOCR alone read "眠镇静": its kanji, in a box that holds ten characters.
    expect(lines.find((l) => l.text.includes("鎮静"))).toMatchObject({ text: expect.stringContaining("しないと"), language: "ja" });
    expect(lines.some((l) => l.text.includes("アイテム庫"))).toBe(true);
  }, 60_000);

  it("reads a real Tamil title with its vowel signs, in Tamil", async () => {
    // PaddleOCR has no Tamil: its reading is below its own floor, so only tesseract's fallback sees the line.
    const { lines } = await reader.read(await realFrame("title-ta-write-on", 2.5, 1280));
    expect(
      lines.find((l) => l.language === "ta"),
      JSON.stringify(lines),
    ).toMatchObject({ text: expect.stringMatching(/^வணக்கம்/) });
  }, 60_000);

  it("reads rendered lines in Arabic script each in its language's letters", async () => {
    // tesseract's Arabic model reads the Persian line with Arabic's kaf and yeh ("كانال", "آمديد"): the same shapes, but
    // no Persian search matches them.
    for (const [text, language] of [
      ["هذه أفضل طريقة لتعلم اللغة", "ar"],
      ["سلام به کانال ما خوش آمدید", "fa"],
    ] as const) {
      const { lines } = await reader.read(await renderedLine(text));
      expect(lines, text).toEqual([expect.objectContaining({ text, language })]);
    }
  }, 60_000);

  it("reads rendered lines of other Latin languages with their own letters (ß ã ę), each in its language, as words of its list", async () => {
    // The central run (ces+eng+vie) wrote "Strafen" for "Straßen", "nino" for "niño", "Zazóté" for "Zażółć": each
    // line is read again with its language's model (westernModels), and is words by that language's list (word-lists.ts).
    for (const [text, language] of [
      ["Größere Straßen für alle", "de"],
      // Portuguese without its marks ranks with Spanish: both models read it, the surer reading kept.
      ["Não perca a promoção", "pt"],
      // Polish read by the Czech model looks Czech to franc too.
      ["Dzień dobry, jak się masz?", "pl"],
    ] as const) {
      const { lines } = await reader.read(await renderedLine(text));
      expect(lines, text).toEqual([expect.objectContaining({ text, language, readsAsWords: true })]);
    }
  }, 90_000);

  it("reads a rendered German desktop's top bar and title in German, not in the Dutch a close model's reading gives", async () => {
    // PaddleOCR runs "Anwendungen starten" together, which English pieces cut up ("An wen dung en star ten"); franc
    // ranks Dutch beside German on the central run's readings, and the Dutch model reads the bar as surely.
    const lines = await reader.read(
      await renderedFrame([
        ["Aktivitäten", 10, 5, 18],
        ["Mi 10:24", 600, 5, 18],
        ["Anwendungen starten", 300, 300, 48],
      ]),
    );
    // The clock may be read or not, alone or joined to the bar: the lines are found by their words.
    const line = (word: string) => lines.lines.find((l) => l.text.includes(word));
    expect(line("Aktivitäten")).toMatchObject({ language: "de", readsAsWords: true });
    expect(line("Anwendungen")).toMatchObject({ text: "Anwendungen starten", language: "de", readsAsWords: true });
  }, 60_000);

  it("keeps the central reading of a German line, without failing, where tesseract has no German model (an older install)", async () => {
    // A real tesseract whose language data lacks the western packs: every other pack linked into a folder of its own.
    const { stdout } = await runProgram("test", "tesseract", ["--list-langs"], { timeoutMs: 10_000 });
    const dataDir = /"([^"]+)"/.exec(stdout)![1]!;
    const partial = join(root, "tessdata-without-western");
    await mkdir(partial, { recursive: true });
    for (const file of await readdir(dataDir)) {
      if (!/^(deu|fra|por|spa|tur|ita|nld|pol)\./.test(file)) await symlink(join(dataDir, file), join(partial, file));
    }
    const wrapper = join(root, "tesseract-without-western");
    await writeFile(wrapper, `#!/bin/sh\nTESSDATA_PREFIX=${partial} exec tesseract "$@"\n`);
    await chmod(wrapper, 0o755);
    const older = new ScriptAwareRecognizer({ tesseract: new TesseractLines({ tesseractPath: wrapper }) });
    const { lines } = await older.read(await renderedLine("Größere Straßen für alle"));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text).toMatch(/^Gr.*Stra.*alle$/);
    expect(lines[0]!.text).not.toBe("Größere Straßen für alle");
  }, 60_000);

  it("writes out a language's word list from tesseract's data, forms included, once per process", async () => {
    const lists = await wordListsOf(["de", "pl", "en", null, "de"]);
    expect([...lists.keys()].sort()).toEqual(["de", "pl"]);
    for (const word of ["größere", "straßen", "münchen", "grüße"]) expect(lists.get("de")!.has(word), word).toBe(true);
    expect(lists.get("de")!.has("bekhel")).toBe(false);
    expect((await wordListsOf(["de"])).get("de")).toBe(lists.get("de"));
  });

  it("joins a list of one-line pages into each page's words and mean confidence", () => {
    const row = (page: number, word: number, conf: number, text: string) => `5\t${page}\t1\t1\t1\t${word}\t0\t0\t10\t10\t${conf}\t${text}`;
    const tsv = [
      "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
      row(1, 1, 90, "И"),
      row(1, 2, 70, "СМЕХ"),
      "4\t2\t1\t1\t1\t0\t0\t0\t10\t10\t-1\t",
      row(3, 1, 96, "Link"),
    ].join("\n");
    expect(linesFromTsv(tsv, 3)).toEqual([{ text: "И СМЕХ", confidence: 0.8 }, undefined, { text: "Link", confidence: 0.96 }]);
  });

  it("names the packages when tesseract lacks a language, not retryable", async () => {
    const crop = join(root, "crop.pgm");
    await writeFile(crop, Buffer.concat([Buffer.from("P5\n4 4\n255\n"), Buffer.alloc(16, 200)]));
    const error = await new TesseractLines().readLines([crop], "xyz", undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
    expect((error as ProviderError).message).toMatch(/sudo apt-get install -y tesseract-ocr-xyz/);
  });
});

/** One line of text, black on white at 1280×720 in DejaVu Sans (shaped: Arabic script joins its letters), as a keyframe. */
async function renderedLine(text: string): Promise<{ imagePath: string; grayPath: string }> {
  const stem = join(root, `line-${Math.random().toString(36).slice(2, 8)}`);
  await writeFile(`${stem}.txt`, text);
  const font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  const draw = `drawtext=fontfile=${font}:textfile=${stem}.txt:fontsize=56:fontcolor=black:x=(w-tw)/2:y=(h-th)/2:text_shaping=1`;
  const args = ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=white:s=1280x720", "-vf", draw, "-frames:v", "1"];
  await runProgram("test", "ffmpeg", [...args, "-q:v", "3", `${stem}.jpg`], { timeoutMs: 30_000 });
  await runProgram("test", "ffmpeg", ["-v", "error", "-y", "-i", `${stem}.jpg`, "-vf", "format=gray", `${stem}.pgm`], {
    timeoutMs: 30_000,
  });
  return { imagePath: `${stem}.jpg`, grayPath: `${stem}.pgm` };
}

/** Lines of white DejaVu Sans on a dark grey 1280×720 frame, each at its place and size, as a keyframe (a desktop's bar, a title). */
async function renderedFrame(
  lines: [text: string, x: number, y: number, size: number][],
): Promise<{ imagePath: string; grayPath: string }> {
  const stem = join(root, `frame-${Math.random().toString(36).slice(2, 8)}`);
  const font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  const draws: string[] = [];
  for (const [i, [text, x, y, size]] of lines.entries()) {
    await writeFile(`${stem}-${i}.txt`, text);
    draws.push(`drawtext=fontfile=${font}:textfile=${stem}-${i}.txt:fontsize=${size}:fontcolor=white:x=${x}:y=${y}`);
  }
  const args = ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x303030:s=1280x720", "-vf", draws.join(","), "-frames:v", "1"];
  await runProgram("test", "ffmpeg", [...args, "-q:v", "3", `${stem}.jpg`], { timeoutMs: 30_000 });
  await runProgram("test", "ffmpeg", ["-v", "error", "-y", "-i", `${stem}.jpg`, "-vf", "format=gray", `${stem}.pgm`], {
    timeoutMs: 30_000,
  });
  return { imagePath: `${stem}.jpg`, grayPath: `${stem}.pgm` };
}

/** A keyframe of one of the real clips (bench/analysis-eval/real/), taken as the keyframe provider takes them. */
async function realFrame(id: string, seconds: number, width?: number): Promise<{ imagePath: string; grayPath: string }> {
  const clip = fileURLToPath(new URL(`../../bench/analysis-eval/real/clips/${id}.mp4`, import.meta.url));
  const imagePath = join(root, `${id}-${seconds}.jpg`);
  const grayPath = join(root, `${id}-${seconds}.pgm`);
  // At `width` (the keyframe provider writes 1280 px on the long side), else as the clip is.
  const scale = width ? ["-vf", `scale=${width}:-2`] : [];
  await runProgram(
    "test",
    "ffmpeg",
    ["-v", "error", "-y", "-ss", String(seconds), "-i", clip, ...scale, "-frames:v", "1", "-q:v", "3", imagePath],
    {
      timeoutMs: 30_000,
    },
  );
  await runProgram("test", "ffmpeg", ["-v", "error", "-y", "-i", imagePath, "-vf", "format=gray", grayPath], { timeoutMs: 30_000 });
  return { imagePath, grayPath };
}

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
