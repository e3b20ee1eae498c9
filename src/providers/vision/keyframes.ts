/**
 * Keyframes by ffmpeg: one decoding pass at SCAN_FPS frames a second writes every frame as a small grayscale
 * image (SCAN_SIZE × SCAN_SIZE, raw bytes on stdout); ./cuts.ts finds the cuts in them (on the part of the frame
 * that moves, against each frame's neighbours, with a rule for fades). Then the frames to look at are picked
 * (`pickKeyframes`: the first frame, a frame just after each cut, evenly spaced frames, at most the cap) and
 * all of them are written by one more ffmpeg run (one decoding pass that keeps those frames), each three times: a readable
 * JPEG (1280 px on its long side, for on-screen text and a vision model), the same in grayscale as a PGM
 * (faces are found in it, with no JPEG to decode) and a small thumbnail (160 px wide) for the record.
 * Text moments (`textMoments`): the middle of each shot no keyframe fell in, the last frame when the screen changed
 * after the last frame read, and a frame just after each change of part of the frame without a cut (./cuts.ts
 * `overlayChanges`: a subtitle or a caption switching) are written too (in the same pass) and read for on-screen text
 * only, at most as many as the keyframe cap: twelve keyframes over 30 s fall between most subtitles of a second or two.
 * A keyframe with no change on screen since the previous one (no 8×8 block of any scanned frame between them changed by
 * STILL_BLOCK_CHANGE grey levels or more, nor any 16-px block of the written keyframe since the last one read) is marked
 * `sameAsPrevious`, so it is not read again.
 * A very short or very dark video is read as it is: one decoded frame is enough, and darkness changes no rule.
 */
import { access, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { config } from "../../config.ts";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import type { Keyframe, KeyframeProvider, KeyframeSet } from "../../domain/analysis/ports.ts";
import { runProgram } from "../process.ts";
import { findCuts, frameStats, type FrameStats, largestBlockChange, overlayChanges, type ScannedFrames } from "./cuts.ts";
import { type Pixels, readPixels } from "./images.ts";

const PROVIDER = "vision:ffmpeg";

/** Below this change of every 8×8 block (grey levels) between two keyframes nothing changed (compression noise stays under 2; a caption appearing moves tens). */
export const STILL_BLOCK_CHANGE = 4;
/** Frames per second the video is scanned at: a cut's time is known to a tenth of a second. */
const SCAN_FPS = 10;
/** The scanned frames' size: small enough to keep every frame of MEDIA_MAX_SECONDS in memory (9 KiB each). */
const SCAN_SIZE = 96;
/** A scene's keyframe is taken this long after its cut: the new scene's text has usually appeared by then. */
const AFTER_CUT_SECONDS = 0.3;
/** A shot this long or longer with no keyframe is read at its middle (three scanned frames; a shorter one is a flash). */
const MIN_SHOT_READ = 0.3;
/** Two picked frames closer than this show the same thing: the later pick is dropped. */
const MIN_GAP_SECONDS = 0.7;
/** A frame inside the hook window (the first 3 s), taken whatever the spacing: overlays often appear just after the first frame. */
const EARLY_SECONDS = 1.5;
const READABLE_LONG_SIDE = 1280;
const THUMBNAIL_WIDTH = 160;

export interface FfmpegKeyframeOptions {
  ffmpegPath: string;
  timeoutMs: number;
  /** Only this much of the video is looked at (MEDIA_MAX_SECONDS). */
  maxSeconds: number;
}

function defaults(): FfmpegKeyframeOptions {
  return { ffmpegPath: config.programs.ffmpeg, timeoutMs: config.media.timeoutMs, maxSeconds: config.media.maxSeconds };
}

export class FfmpegKeyframeProvider implements KeyframeProvider {
  readonly name = "ffmpeg" as const;
  private readonly opts: FfmpegKeyframeOptions;

  constructor(options: Partial<FfmpegKeyframeOptions> = {}) {
    this.opts = { ...defaults(), ...options };
  }

  async extract(
    videoPath: string,
    { workDir, maxKeyframes, signal }: { workDir: string; maxKeyframes: number; signal?: AbortSignal },
  ): Promise<KeyframeSet> {
    const scanned = await this.scan(videoPath, signal);
    const durationSeconds = round1(Math.floor(scanned.pixels.length / (SCAN_SIZE * SCAN_SIZE)) / SCAN_FPS);
    const cuts = findCuts(scanned).map(round1);
    const frames = frameStats(scanned);
    const keyframes: Keyframe[] = pickKeyframes(durationSeconds, cuts, maxKeyframes).map((pick, i) => {
      const name = `keyframe-${String(i + 1).padStart(2, "0")}`;
      return {
        ...pick,
        imagePath: join(workDir, `${name}.jpg`),
        thumbnailPath: join(workDir, `${name}-thumb.jpg`),
        grayPath: join(workDir, `${name}.pgm`),
      };
    });
    markUnchanged(keyframes, frames);
    const moments: Keyframe[] = textMoments(overlayChanges(frames, cuts), keyframes, durationSeconds, maxKeyframes, { cuts, frames }).map(
      (seconds, i) => {
        const name = `moment-${String(i + 1).padStart(2, "0")}`;
        // A Keyframe in shape only: read for text and dropped, its reason and thumbnail never stored or shown.
        return {
          seconds,
          reason: "interval",
          imagePath: join(workDir, `${name}.jpg`),
          thumbnailPath: join(workDir, `${name}-thumb.jpg`),
          grayPath: join(workDir, `${name}.pgm`),
        };
      },
    );
    const all = await this.writeFrames(
      videoPath,
      [...keyframes, ...moments].sort((a, b) => a.seconds - b.seconds),
      signal,
    );
    const written = all.filter((k) => !moments.includes(k));
    await confirmUnchanged(written);
    return {
      durationSeconds,
      cuts,
      keyframes: written,
      textMoments: all.filter((k) => moments.includes(k)),
    };
  }

  /** Every frame at SCAN_FPS (up to maxSeconds) as SCAN_SIZE² grayscale bytes: what the cuts are found in (the real-clip bench reads them too). */
  async scan(videoPath: string, signal?: AbortSignal): Promise<ScannedFrames> {
    const frameBytes = SCAN_SIZE * SCAN_SIZE;
    const args = [
      "-nostdin",
      "-hide_banner",
      "-loglevel",
      "error",
      "-t",
      String(this.opts.maxSeconds),
      "-i",
      videoPath,
      "-an",
      "-sn",
      "-dn",
      // Stretched to a square: differences, not shapes, are measured.
      "-vf",
      `fps=${SCAN_FPS},scale=${SCAN_SIZE}:${SCAN_SIZE}:flags=area,format=gray`,
      "-f",
      "rawvideo",
      "-",
    ];
    const maxBytes = (this.opts.maxSeconds * SCAN_FPS + SCAN_FPS) * frameBytes;
    const { stdoutBytes } = await this.run(args, signal, maxBytes);
    const pixels = new Uint8Array(stdoutBytes.buffer, stdoutBytes.byteOffset, stdoutBytes.length - (stdoutBytes.length % frameBytes));
    if (pixels.length === 0) throw new ProviderError(PROVIDER, "the file has no video ffmpeg can read (no frame decoded)", false);
    return { fps: SCAN_FPS, width: SCAN_SIZE, height: SCAN_SIZE, pixels };
  }

  /**
   * One ffmpeg run for every keyframe: one decoding pass, in which `select` keeps the first frame at or after each
   * keyframe's time (what a seek with `-ss` before `-i` gave, except that a time falling exactly on a frame's
   * timestamp got the frame before it), each kept frame written three times: readable
   * (long side READABLE_LONG_SIDE), grayscale and thumbnail. Opening the video once per keyframe and seeking made
   * each input decode from the keyframe before its time (often many seconds of frames), several times the cost of
   * decoding the video once.
   */
  private async writeFrames(videoPath: string, keyframes: Keyframe[], signal?: AbortSignal): Promise<Keyframe[]> {
    const long = READABLE_LONG_SIDE;
    // `prev_t` is NaN at the first frame, which is then the first at or after a time of 0.
    const kept = keyframes.map((k) => `gte(t,${k.seconds.toFixed(2)})*(lt(prev_t,${k.seconds.toFixed(2)})+isnan(prev_t))`).join("+");
    const graph =
      `[0:v]select='${kept}',split=2[a][b];[a]scale='if(gte(iw,ih),${long},-2)':'if(gte(iw,ih),-2,${long})',split=2[big][c];` +
      `[c]format=gray[gray];[b]scale=${THUMBNAIL_WIDTH}:-2[small]`;
    const dir = dirname(keyframes[0]!.imagePath);
    const run = `picked-${Math.random().toString(36).slice(2, 8)}`;
    const numbered = (suffix: string) => join(dir, `${run}-%02d${suffix}`);
    const each = ["-fps_mode", "passthrough", "-start_number", "0"];
    await this.run(
      ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", videoPath, "-an", "-sn", "-dn", "-filter_complex", graph]
        .concat(["-map", "[big]", ...each, "-q:v", "3", numbered(".jpg")])
        .concat(["-map", "[gray]", ...each, numbered(".pgm")])
        .concat(["-map", "[small]", ...each, "-q:v", "7", numbered("-thumb.jpg")]),
      signal,
    );
    // The frames come out numbered in time order, as the keyframes are, one each unless two keyframes fell between the
    // same two frames (a video of under two frames a second) or one after the last frame: then each is sought on its own.
    const at = (i: number, suffix: string) => join(dir, `${run}-${String(i).padStart(2, "0")}${suffix}`);
    const written = await Promise.all(
      keyframes.map((_, i) =>
        access(at(i, ".jpg")).then(
          () => true,
          () => false,
        ),
      ),
    );
    if (written.includes(false)) {
      const partial = (await readdir(dir)).filter((f) => f.startsWith(`${run}-`));
      await Promise.all(partial.map((f) => rm(join(dir, f), { force: true })));
      return this.writeSeeked(videoPath, keyframes, signal);
    }
    await Promise.all(
      keyframes.map(async (k, i) => {
        await rename(at(i, ".jpg"), k.imagePath);
        await rename(at(i, ".pgm"), k.grayPath!);
        await rename(at(i, "-thumb.jpg"), k.thumbnailPath);
      }),
    );
    return keyframes;
  }

  /**
   * The frames a seek to each keyframe's time gives, one input per keyframe. A time after the last frame (a video
   * of a frame a second or less: its last frame shows until the end) gives no frame: that keyframe is left out.
   */
  private async writeSeeked(videoPath: string, keyframes: Keyframe[], signal?: AbortSignal): Promise<Keyframe[]> {
    const long = READABLE_LONG_SIDE;
    const inputs = keyframes.flatMap((k) => ["-ss", k.seconds.toFixed(2), "-i", videoPath]);
    const graph = keyframes.map(
      (_, i) =>
        `[${i}:v]split=2[a${i}][b${i}];[a${i}]scale='if(gte(iw,ih),${long},-2)':'if(gte(iw,ih),-2,${long})',split=2[big${i}][c${i}];` +
        `[c${i}]format=gray[gray${i}];[b${i}]scale=${THUMBNAIL_WIDTH}:-2[small${i}]`,
    );
    const outputs = keyframes.flatMap((k, i) => [
      "-map",
      `[big${i}]`,
      "-frames:v",
      "1",
      "-q:v",
      "3",
      k.imagePath,
      "-map",
      `[gray${i}]`,
      "-frames:v",
      "1",
      k.grayPath!,
      "-map",
      `[small${i}]`,
      "-frames:v",
      "1",
      "-q:v",
      "7",
      k.thumbnailPath,
    ]);
    await this.run(
      ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", ...inputs, "-filter_complex", graph.join(";"), ...outputs],
      signal,
    );
    const seen = await Promise.all(
      keyframes.map((k) =>
        access(k.imagePath).then(
          () => true,
          () => false,
        ),
      ),
    );
    return keyframes.filter((_, i) => seen[i]);
  }

  private async run(args: string[], signal?: AbortSignal, maxStdoutBytes = 16 * 1024 * 1024) {
    try {
      return await runProgram(PROVIDER, this.opts.ffmpegPath, args, { timeoutMs: this.opts.timeoutMs, signal, maxStdoutBytes });
    } catch (e) {
      // A file ffmpeg cannot read will not become readable on a retry.
      if (
        e instanceof ProviderError &&
        /Invalid data found|does not contain any stream|matches no streams|moov atom not found/i.test(e.message)
      ) {
        throw new ProviderError(PROVIDER, `the file has no video ffmpeg can read (${e.message.slice(e.provider.length + 2)})`, false, {
          cause: e,
        });
      }
      throw e;
    }
  }
}

/**
 * Moments to read text at besides the keyframes, most needed first, at most `cap`:
 * 1. the middle of each shot no keyframe falls in (more cuts than the keyframes' share of the cap: a title card's shot
 *    between two others was never looked at), spread evenly over the video when there are more than the cap;
 * 2. the last frame, when anything changed on screen since the last frame read before it: text that builds up (a
 *    terminal, a caption adding a word at a time, a list) is fullest there;
 * 3. just after each change of part of the frame without a cut (a subtitle or a caption switching), unless a frame
 *    read within MIN_GAP_SECONDS after the change saw it already (a frame read before it did not: a subtitle of 0.7 s
 *    between two keyframes a second apart), spread evenly over the changes when there are more than the room left.
 * A shot is read when it lasts MIN_SHOT_READ or more; the last frame when it is a scan's step from the last read.
 */
export function textMoments(
  changes: number[],
  keyframes: { seconds: number }[],
  durationSeconds: number,
  cap: number,
  shots: { cuts: number[]; frames: Pick<FrameStats, "seconds" | "blockChange">[] } = { cuts: [], frames: [] },
): number[] {
  if (cap <= 0) return [];
  const last = Math.max(0, durationSeconds - 0.1);
  const keyframeTimes = keyframes.map((k) => k.seconds);
  // The middles of the shots no keyframe fell in (the first shot always has the first frame). A keyframe of the next
  // shot, however near, shows another picture: an advertisement's 0.8-s title shot between two keyframes 0.7 s from its
  // middle was never read, nor its 0.5-s shots of a word each.
  const middles: number[] = [];
  const bounds = [0, ...shots.cuts, durationSeconds];
  for (let i = 1; i < bounds.length - 1; i++) {
    const [from, to] = [bounds[i]!, bounds[i + 1]!];
    // Whole scanned frames: cuts are tenths of a second, and 1.2 - 0.9 is 0.2999… in floating point.
    const frames = Math.round((to - from) * SCAN_FPS);
    if (frames >= MIN_SHOT_READ * SCAN_FPS && !keyframeTimes.some((t) => t >= from && t < to)) middles.push(round1((from + to) / 2));
  }
  // The last frame, when the screen changed after the last frame read before it.
  const lastFrame = (reads: number[]): number | null => {
    const lastRead = Math.max(-1, ...reads.filter((t) => t <= last));
    const changed = shots.frames.some((f) => f.seconds > lastRead + 0.05 && f.blockChange >= STILL_BLOCK_CHANGE);
    return changed && last - lastRead >= 1 / SCAN_FPS ? round1(last) : null;
  };
  let kept = spread(middles, cap);
  let end = lastFrame([...keyframeTimes, ...kept]);
  if (end !== null && kept.length >= cap) {
    kept = spread(middles, cap - 1);
    end = lastFrame([...keyframeTimes, ...kept]);
  }
  const needed = end === null ? kept : [...kept, end];
  const read = [...keyframeTimes, ...needed];
  const switches: number[] = [];
  for (const change of changes) {
    const s = round1(Math.min(change + AFTER_CUT_SECONDS, last));
    // A frame read before the change did not see it; one read soon after it did (a frame before it is no reason to
    // skip), and a frame read at the very time is that frame (a change at the last frame: the last frame's moment).
    const seen = (t: number) => (t > change && t - change < MIN_GAP_SECONDS) || Math.abs(t - s) < 0.05;
    if (read.some(seen) || switches.some(seen)) continue;
    switches.push(s);
  }
  return [...needed, ...spread(switches, cap - needed.length)].sort((a, b) => a - b);
}

/** Marks each keyframe whose scanned frames since the previous keyframe all changed no block by STILL_BLOCK_CHANGE. */
function markUnchanged(keyframes: Keyframe[], frames: FrameStats[]): void {
  for (let i = 1; i < keyframes.length; i++) {
    const from = keyframes[i - 1]!.seconds;
    const to = keyframes[i]!.seconds;
    const between = frames.filter((f) => f.seconds > from - 0.05 && f.seconds <= to + 0.05);
    keyframes[i]!.sameAsPrevious = between.length > 0 && between.every((f) => f.blockChange < STILL_BLOCK_CHANGE);
  }
}

/** Blocks of this many pixels a side of the written grayscale keyframes (READABLE_LONG_SIDE on the long side). */
const FINE_BLOCK = 16;

/**
 * A keyframe the scan saw no change before is compared at full size with the last keyframe read, and read after all
 * when some FINE_BLOCK block's mean moved by STILL_BLOCK_CHANGE: in the 96-px scan a block is 13-20 px of the keyframe a
 * side, and a word fading in over a second ("mit Gemini" becoming "mit Gemini Live") or a Tamil word's vowel signs drawn
 * last moved no block of it by a grey level. The grayscale keyframes are read from disk (about 1 MB each).
 */
async function confirmUnchanged(keyframes: Keyframe[]): Promise<void> {
  let lastRead = keyframes[0];
  for (const k of keyframes.slice(1)) {
    if (k.sameAsPrevious && lastRead?.grayPath && k.grayPath) {
      // A frame that cannot be compared is read again: its readers then say what is wrong with it, as before.
      const pair = await Promise.all([readPixels(lastRead.grayPath, PROVIDER), readPixels(k.grayPath, PROVIDER)]).catch(() => null);
      if (!pair || largestFineChange(pair[0], pair[1]) >= STILL_BLOCK_CHANGE) k.sameAsPrevious = false;
    }
    if (!k.sameAsPrevious) lastRead = k;
  }
}

/** The largest change of a FINE_BLOCK block's mean between two grayscale images; any difference of size or kind counts as change. */
function largestFineChange(a: Pixels, b: Pixels): number {
  if (a.width !== b.width || a.height !== b.height || a.channels !== 1 || b.channels !== 1) return Number.POSITIVE_INFINITY;
  return largestBlockChange(a.data, b.data, a.width, a.height, FINE_BLOCK);
}

/**
 * Which frames to look at: the first frame; one just after each cut (spread evenly over the cuts when
 * there are more than the cap allows); one early in the hook window; evenly spaced ones over the rest
 * of the video, then the middle of the widest gaps while there is room. Frames closer than MIN_GAP_SECONDS
 * to an earlier pick are dropped (first, then scenes, then the rest win). At most `cap`, ascending by time.
 */
export function pickKeyframes(durationSeconds: number, cuts: number[], cap: number): Omit<Keyframe, "imagePath" | "thumbnailPath">[] {
  const last = Math.max(0, durationSeconds - 0.1);
  const picks: Omit<Keyframe, "imagePath" | "thumbnailPath">[] = [];
  const tryAdd = (seconds: number, reason: Keyframe["reason"]) => {
    const s = round1(Math.min(Math.max(0, seconds), last));
    if (picks.length >= cap || picks.some((p) => Math.abs(p.seconds - s) < MIN_GAP_SECONDS)) return;
    picks.push({ seconds: s, reason });
  };
  tryAdd(0, "first");
  for (const cut of spread(cuts, Math.max(0, Math.ceil((cap - 1) * 0.6)))) tryAdd(cut + AFTER_CUT_SECONDS, "scene");
  if (durationSeconds > 2 * EARLY_SECONDS) tryAdd(EARLY_SECONDS, "interval");
  const room = cap - picks.length;
  for (let i = 1; i <= room; i++) tryAdd((durationSeconds * i) / (room + 1), "interval");
  // Spaced picks that fell too close to a scene's: fill the widest gaps instead, while there is room.
  while (picks.length < cap) {
    const times = [...picks.map((p) => p.seconds), last].sort((a, b) => a - b);
    const gaps = times.slice(1).map((t, i) => ({ from: times[i]!, size: t - times[i]! }));
    const widest = gaps.sort((a, b) => b.size - a.size)[0];
    const before = picks.length;
    if (widest && widest.size >= 2 * MIN_GAP_SECONDS) tryAdd(widest.from + widest.size / 2, "interval");
    if (picks.length === before) break;
  }
  return picks.sort((a, b) => a.seconds - b.seconds);
}

/** At most `n` of `items`, evenly spread (first and last kept when there is room for both). */
function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  if (n <= 0) return [];
  if (n === 1) return [items[0]!];
  return Array.from({ length: n }, (_, i) => items[Math.round((i * (items.length - 1)) / (n - 1))]!);
}

const round1 = (n: number) => Math.round(n * 10) / 10;
