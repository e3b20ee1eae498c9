/**
 * Cuts as editors make them, from small grayscale frames scanned at a fixed rate (./keyframes.ts decodes them).
 * Pure functions over pixels: no program, no clock.
 *
 * 1. The part of the frame that moves: a pixel whose value never changes by more than STATIC_RANGE over the
 *    whole video is a letterbox bar, a fixed text box, a logo or a watermark, and is left out of every score
 *    (a hard cut under a fixed caption box changed only part of the frame, and whole-frame scores were diluted
 *    below any fixed threshold). When less than MIN_MOVING_SHARE of the frame moves, the whole frame counts.
 * 2. A score per frame: the mean absolute difference from the previous frame over the moving part, divided by
 *    the frames' contrast there (their standard deviation, at least MIN_CONTRAST): a cut between two dark shots
 *    moves few grey levels but as many as its contrast allows, so dark footage scores like bright footage.
 * 3. A threshold relative to the neighbourhood: a cut is a frame whose score is at least NEIGHBOUR_RATIO times
 *    the mean score of the NEIGHBOURS frames on each side (fast motion keeps its neighbours high; a cut is a
 *    spike) and at least MIN_SCORE. A spike after which the picture returns to what it was (a flash, a frame
 *    of a blink) is no cut, nor one that blocks moved a little explain (fast motion: `shiftExplains`), nor a change
 *    of text on a still picture (a caption switching, terminal lines appearing: `textOnly`), nor something coming onto
 *    or leaving a backdrop that stays (a window, a pop-up, a slide's figure: `changeWithinPicture`).
 * 4. A rule for fades: a short stretch of near-black (or near-white) uniform frames between two shots is one cut,
 *    placed where the next shot begins to show; a long one is a card, a shot of its own; a fade in at the start
 *    and a fade out at the end are none, and the hard edges into and out of such a stretch are not counted again;
 *    text coming onto such a blank or leaving it is the same card, no cut (`textOnBlank`).
 * 5. Transitions (a dissolve, a wipe, an editor's reveal): frames a window apart that are two shots, with the frames
 *    between made of them (`gradualCuts`).
 */

/** A pixel whose value spans fewer grey levels than this over the whole video is static (overlay, bar, logo). */
export const STATIC_RANGE = 10;
/** Below this share of moving pixels (a still camera on a static scene), the whole frame is scored. */
const MIN_MOVING_SHARE = 0.05;
/** Contrast floor of the score's normaliser, in grey levels: below it, noise is not magnified into cuts. */
const MIN_CONTRAST = 12;
/** A cut scores at least this many times its neighbours' mean... */
export const NEIGHBOUR_RATIO = 2.5;
/** ...and at least this (mean difference in units of the frames' contrast). */
export const MIN_SCORE = 0.4;
/** Neighbours on each side a score is compared with (at 10 frames a second: 0.3 s). */
const NEIGHBOURS = 3;
/** A frame this dark (mean grey level) and this uniform (standard deviation) is black: part of a fade or a dip. */
const DARK_MEAN = 24;
const BRIGHT_MEAN = 232;
const UNIFORM_STD = 10;
/** A blank stretch this long is a card (a shot of its own), not a dip between two shots. */
const CARD_SECONDS = 1.5;
/** Two cuts closer than this are one (the later is dropped). */
const MIN_SHOT_SECONDS = 0.25;

export interface ScannedFrames {
  /** Frames per second the frames were taken at (the first at 0 s). */
  fps: number;
  width: number;
  height: number;
  /** One byte per pixel, frame after frame. */
  pixels: Uint8Array;
}

export interface FrameStats {
  seconds: number;
  /** The cut score against the previous frame (0 for the first frame). */
  score: number;
  /** The largest change of any 8×8 block's mean since the previous frame, in grey levels (the whole frame: overlays count here). */
  blockChange: number;
  mean: number;
  std: number;
  /** The change since the previous frame is text changing on a still picture, not a new picture (`textOnly`); false below MIN_SCORE. */
  textOnly: boolean;
}

export const frameCount = (f: ScannedFrames) => Math.floor(f.pixels.length / (f.width * f.height));
const frameAt = (f: ScannedFrames, i: number) => f.pixels.subarray(i * f.width * f.height, (i + 1) * f.width * f.height);

/** The moving pixels: a mask of 1 where a pixel's range over the video reaches STATIC_RANGE (all 1 when too few do, unless `exact`). */
export function movingMask(f: ScannedFrames, exact = false): Uint8Array {
  const size = f.width * f.height;
  const min = new Uint8Array(size).fill(255);
  const max = new Uint8Array(size);
  for (let i = 0; i < frameCount(f); i++) {
    const frame = frameAt(f, i);
    for (let p = 0; p < size; p++) {
      const v = frame[p]!;
      if (v < min[p]!) min[p] = v;
      if (v > max[p]!) max[p] = v;
    }
  }
  const mask = new Uint8Array(size);
  let moving = 0;
  for (let p = 0; p < size; p++) {
    if (max[p]! - min[p]! >= STATIC_RANGE) {
      mask[p] = 1;
      moving++;
    }
  }
  return exact || moving >= size * MIN_MOVING_SHARE ? mask : mask.fill(1);
}

function meanStd(frame: Uint8Array, mask: Uint8Array): { mean: number; std: number } {
  let n = 0;
  let sum = 0;
  let squares = 0;
  for (let p = 0; p < frame.length; p++) {
    if (!mask[p]) continue;
    const v = frame[p]!;
    n++;
    sum += v;
    squares += v * v;
  }
  const mean = n ? sum / n : 0;
  return { mean, std: n ? Math.sqrt(Math.max(0, squares / n - mean * mean)) : 0 };
}

/** Mean absolute difference of two frames over the mask, in units of their contrast. */
function difference(a: Uint8Array, b: Uint8Array, mask: Uint8Array, contrast: number): number {
  return meanAbsolute(a, b, mask) / Math.max(MIN_CONTRAST, contrast);
}

/** Mean absolute difference of two frames over the mask, in grey levels. */
function meanAbsolute(a: Uint8Array, b: Uint8Array, mask: Uint8Array): number {
  let n = 0;
  let sum = 0;
  for (let p = 0; p < a.length; p++) {
    if (!mask[p]) continue;
    n++;
    sum += Math.abs(a[p]! - b[p]!);
  }
  return n ? sum / n : 0;
}

/** The largest change of a block's mean (8×8 unless said) between two grey frames, in grey levels (compression noise stays under 2). */
export function largestBlockChange(a: Uint8Array, b: Uint8Array, width: number, height: number, block = 8): number {
  let largest = 0;
  for (let by = 0; by + block <= height; by += block) {
    for (let bx = 0; bx + block <= width; bx += block) {
      let sum = 0;
      for (let y = by; y < by + block; y++) for (let x = bx; x < bx + block; x++) sum += a[y * width + x]! - b[y * width + x]!;
      largest = Math.max(largest, Math.abs(sum) / (block * block));
    }
  }
  return largest;
}

/** Every frame's time, cut score, block change and brightness. */
export function frameStats(f: ScannedFrames, mask = movingMask(f)): FrameStats[] {
  const stats: FrameStats[] = [];
  for (let i = 0; i < frameCount(f); i++) {
    const frame = frameAt(f, i);
    const { mean, std } = meanStd(frame, mask);
    const previous = i > 0 ? frameAt(f, i - 1) : null;
    const contrast = previous ? (std + stats[i - 1]!.std) / 2 : std;
    const score = previous ? difference(previous, frame, mask, contrast) : 0;
    stats.push({
      seconds: round2(i / f.fps),
      score,
      blockChange: previous ? largestBlockChange(previous, frame, f.width, f.height) : 0,
      mean,
      std,
      // Asked only of a frame that scores like a cut (both readers check the score first): a frame pair costs about 0.1 ms.
      textOnly: previous !== null && score >= MIN_SCORE && textOnly(previous, frame, f.width),
    });
  }
  return stats;
}

const isBlank = (s: FrameStats) => s.std < UNIFORM_STD && (s.mean < DARK_MEAN || s.mean > BRIGHT_MEAN);

/** The cut times (seconds, ascending) in a scanned video: spikes in the scores, and dips through black or white between shots. */
export function findCuts(f: ScannedFrames): number[] {
  const mask = movingMask(f);
  const stats = frameStats(f, mask);
  const cuts = spikes(f, mask, stats)
    .filter((s) => s.verdict === "cut")
    .map((s) => s.seconds);
  cuts.push(...dips(f, stats));
  cuts.push(...gradualCuts(f, mask, stats, cuts));
  return spaced(cuts.sort((a, b) => a - b));
}

/** Why a spike was no cut, in the order asked: text on a still picture, a flash, motion, a change within the picture. */
export type SpikeVerdict = "cut" | "text only" | "flash" | "motion" | "within the picture";

export interface Spike {
  seconds: number;
  score: number;
  /** The score over its neighbours' mean (Infinity when they are all 0). */
  ratio: number;
  verdict: SpikeVerdict;
}

/**
 * Every frame that spikes (at least MIN_SCORE and NEIGHBOUR_RATIO times its neighbours' mean, not into or out of a blank
 * frame, not in the first or last MIN_SHOT_SECONDS) with what was decided of it: findCuts keeps the cuts, and the
 * real-clip bench prints them all (`BENCH_REAL_SPIKES=1`), so a rule is chosen on what it changes.
 */
export function spikes(f: ScannedFrames, mask: Uint8Array, stats: FrameStats[]): Spike[] {
  const found: Spike[] = [];
  for (let i = 1; i < stats.length; i++) {
    const s = stats[i]!;
    if (isBlank(s) || isBlank(stats[i - 1]!)) continue; // into or out of black: the dip rule decides
    // A shot shorter than MIN_SHOT_SECONDS at either end is no shot (a clip's first or last frames re-encoded).
    if (s.seconds < MIN_SHOT_SECONDS || s.seconds > stats.at(-1)!.seconds - MIN_SHOT_SECONDS) continue;
    const around = [...stats.slice(Math.max(1, i - NEIGHBOURS), i), ...stats.slice(i + 1, i + 1 + NEIGHBOURS)].map((n) => n.score);
    const neighbourhood = around.length ? around.reduce((a, b) => a + b, 0) / around.length : 0;
    if (s.score < MIN_SCORE || s.score < NEIGHBOUR_RATIO * neighbourhood) continue;
    const verdict: SpikeVerdict = s.textOnly
      ? "text only"
      : isFlash(f, stats, mask, i)
        ? "flash"
        : shiftExplains(f, mask, i)
          ? "motion"
          : changeWithinPicture(frameAt(f, i - 1), frameAt(f, i), mask, f.width)
            ? "within the picture"
            : "cut";
    found.push({ seconds: s.seconds, score: s.score, ratio: neighbourhood > 0 ? s.score / neighbourhood : Infinity, verdict });
  }
  return found;
}

/** Half-widths, in frames, of the windows a gradual transition is looked for in (at 10 frames a second: 0.3-0.8 s each side). */
const GRADUAL_HALF_WIDTHS = [3, 5, 8];
/** The two ends of a transition differ at least this much (mean difference in units of their contrast)... */
const GRADUAL_MIN_SCORE = 0.9;
/** ...the frame between them is made of them (a blend or a part of each) but for this share of their difference... */
const GRADUAL_RESIDUAL = 0.25;
/** ...the change runs one way: the frame-to-frame changes over the window add up to no more than this times it... */
const GRADUAL_MONOTONE = 1.6;
/** ...no one frame-to-frame step makes more than this share of it (a transition takes frames; a switch is one)... */
const GRADUAL_ONE_STEP = 0.5;
/** ...and it is this many times faster in the window than just before and after it. */
const GRADUAL_CONCENTRATION = 2.5;

/**
 * Cuts made gradually (a dissolve, a wipe, a circle or a radial reveal, an editor's transition): no frame spikes, but
 * the frames a window apart (0.3-0.8 s each side) are two shots:
 * - they differ like a cut's two frames, and the same scene moved does not explain it (`shiftExplains`);
 * - the frame between them is made of those two, each pixel as in one of them or one blend of both (`madeOf`);
 * - the change runs one way (the frame-to-frame changes add up to about the whole: flicker goes back and forth) and
 *   over several frames (a change in one step is the spike rule's: a caption switching on a still picture is no cut);
 * - it is short: several times faster than the change just before and after (a fading light, a slow pan, a sunset
 *   change as fast all along);
 * - no frame of the window is uniform (a fade through black is the dip rule's; a fade to or from a flat colour is a fade
 *   in or out, and a dissolve to a flat end card is not found), and the change is not text on a still picture
 *   (`textOnly`: a caption fading in), nor something coming onto or leaving a backdrop that stays between the window's
 *   two ends (`changeWithinPicture`: with the spike it made vetoed, a pop-up would come back here as a transition).
 * One cut per transition, at the middle of the run of frames found, none within a second of a hard cut, a dip or
 * another. Chosen on the transitions of ffmpeg's xfade between shots of the real clips' tuning part (a dissolve, a
 * fade, wipes, a circle, a radial reveal, pixelise, blur) and checked on the real clips: slides and squeezes move the
 * pictures and are not found, nor a dissolve between two shots in fast motion; a caption box fading in over a still
 * picture is taken for one (the box is all that moves, and it changes the histogram).
 */
export function gradualCuts(f: ScannedFrames, mask: Uint8Array, stats: FrameStats[], cuts: number[]): number[] {
  const n = frameCount(f);
  const steps = [0];
  for (let i = 1; i < n; i++) steps.push(meanAbsolute(frameAt(f, i - 1), frameAt(f, i), mask));
  const found: { i: number; k: number }[] = [];
  for (const k of GRADUAL_HALF_WIDTHS) {
    for (let i = k; i + k < n; i++) {
      if (transitionAt(f, mask, stats, steps, i, k)) found.push({ i, k });
    }
  }
  // Windows of each width find a transition over a run of frames around its middle: one cut, at the run's middle,
  // unless the same scene moved (a pan, a subject walking: its blocks are found nearby in the other end; asked once a run).
  const frames = [...new Set(found.map((c) => c.i))].sort((x, y) => x - y);
  const times: number[] = [];
  for (let start = 0; start < frames.length; ) {
    let end = start;
    while (end + 1 < frames.length && frames[end + 1]! - frames[end]! <= 2) end++;
    const middle = (frames[start]! + frames[end]!) / 2;
    const widest = found
      .filter((c) => c.i >= frames[start]! && c.i <= frames[end]!)
      .sort((x, y) => Math.abs(x.i - middle) - Math.abs(y.i - middle) || y.k - x.k)[0]!;
    const t = round2(middle / f.fps);
    if (![...cuts, ...times].some((u) => Math.abs(u - t) < 1) && !shiftExplains(f, mask, widest.i + widest.k, widest.i - widest.k))
      times.push(t);
    start = end + 1;
  }
  return times;
}

/** Whether frames `i - k` and `i + k` are two shots with a transition between them (see `gradualCuts`). */
function transitionAt(f: ScannedFrames, mask: Uint8Array, stats: FrameStats[], steps: number[], i: number, k: number): boolean {
  // Into or out of a uniform frame (black, white or a flat colour): a fade in or out, or a dip (the dip rule's).
  for (let j = i - k; j <= i + k; j++) if (stats[j]!.std < UNIFORM_STD) return false;
  const [a, m, b] = [frameAt(f, i - k), frameAt(f, i), frameAt(f, i + k)];
  const whole = meanAbsolute(a, b, mask);
  if (whole / Math.max(MIN_CONTRAST, (stats[i - k]!.std + stats[i + k]!.std) / 2) < GRADUAL_MIN_SCORE) return false;
  let travelled = 0;
  let largest = 0;
  for (let j = i - k + 1; j <= i + k; j++) {
    travelled += steps[j]!;
    largest = Math.max(largest, steps[j]!);
  }
  // A change made in one step is the spike rule's, whatever it decided (a caption switching on a still is no cut).
  if (travelled > GRADUAL_MONOTONE * whole || largest > GRADUAL_ONE_STEP * whole) return false;
  // A transition is short: the picture changes several times faster in the window than just before and after it
  // (a long fade of the light, a slow pan, a sunset change as fast all along).
  const around = Math.max(meanOf(steps, i - 2 * k + 1, i - k), meanOf(steps, i + k + 1, i + 2 * k));
  if (travelled / (2 * k) < GRADUAL_CONCENTRATION * around) return false;
  // Text fading in or out on a still picture is a text change, as for the spike rule (`textOnly`), not a new shot.
  return madeOf(a, m, b, mask) <= GRADUAL_RESIDUAL * whole && !textOnly(a, b, f.width) && !changeWithinPicture(a, b, mask, f.width);
}

/** The mean of `values` from `from` to `to` (inclusive, clamped to the array); 0 when that is empty. */
function meanOf(values: number[], from: number, to: number): number {
  const [a, b] = [Math.max(1, from), Math.min(values.length - 1, to)];
  if (b < a) return 0;
  let sum = 0;
  for (let j = a; j <= b; j++) sum += values[j]!;
  return sum / (b - a + 1);
}

/**
 * How far, on average, each pixel of `m` is from what a transition from `a` to `b` would show: `a`'s pixel, `b`'s (a
 * wipe shows part of each), or one blend of the two for the whole frame (a dissolve: the blend's weight fitted by least
 * squares). Motion puts things where neither frame had them, and no one blend explains it.
 */
function madeOf(a: Uint8Array, m: Uint8Array, b: Uint8Array, mask: Uint8Array): number {
  let num = 0;
  let den = 0;
  for (let p = 0; p < a.length; p++) {
    if (!mask[p]) continue;
    const d = a[p]! - b[p]!;
    num += (m[p]! - b[p]!) * d;
    den += d * d;
  }
  const w = den ? Math.min(1, Math.max(0, num / den)) : 0.5;
  let n = 0;
  let sum = 0;
  for (let p = 0; p < a.length; p++) {
    if (!mask[p]) continue;
    const [x, y, z] = [a[p]!, m[p]!, b[p]!];
    n++;
    sum += Math.min(Math.abs(y - x), Math.abs(y - z), Math.abs(y - (w * x + (1 - w) * z)));
  }
  return n ? sum / n : 0;
}

/** A change of some 8×8 block of at least this many grey levels in one frame... */
const OVERLAY_MIN_CHANGE = 8;
/** ...and this many times the change its neighbours show (a subtitle switches in a frame; motion changes every frame). */
const OVERLAY_RATIO = 2.5;

/**
 * When something appears, changes or goes in part of the frame without a cut: a subtitle or a caption switching, a
 * line of a screen recording, a title, a line coming onto a black or white card. It shows as one frame in which some
 * block changes far more than in the frames around it, while no cut was found there. Seconds, ascending, none within
 * two shortest shots of a cut or of the one before.
 */
export function overlayChanges(stats: FrameStats[], cuts: number[]): number[] {
  const changes: number[] = [];
  for (let i = 1; i < stats.length; i++) {
    const s = stats[i]!;
    // A text change that scores like a cut (a caption switching on a still screen) is no cut (`textOnly`): it is one of these;
    // so is text coming onto a blank card (the dip rule's to judge: when it made a cut there, the check for cuts nearby
    // below drops this). Text leaving it is not: what is left to read then is the blank.
    const ontoBlank = isBlank(stats[i - 1]!) && !isBlank(s);
    if (s.blockChange < OVERLAY_MIN_CHANGE || (s.score >= MIN_SCORE && !s.textOnly && !ontoBlank)) continue;
    // The neighbours' level: the fourth smallest of six, so a change spread over two frames still stands out.
    const around = [...stats.slice(Math.max(1, i - NEIGHBOURS), i), ...stats.slice(i + 1, i + 1 + NEIGHBOURS)]
      .map((n) => n.blockChange)
      .sort((a, b) => a - b);
    const level = around[Math.min(3, around.length - 1)] ?? 0;
    if (s.blockChange < OVERLAY_RATIO * level) continue;
    if (cuts.some((c) => Math.abs(c - s.seconds) < 2 * MIN_SHOT_SECONDS)) continue;
    if (changes.length && s.seconds - changes.at(-1)! < 2 * MIN_SHOT_SECONDS) continue;
    changes.push(s.seconds);
  }
  return changes;
}

/** Grey levels per histogram bin, and the share of pixels that must move to another bin for the picture to have changed... */
const HISTOGRAM_BIN = 8;
const PICTURE_CHANGE = 0.05;
/** ...unless the change lies in bands of rows: this share of it within a third of the 8-pixel bands of rows. */
const BAND_CHANGE = 0.8;

/**
 * Text that switches, appears or goes on a still picture (a caption, a subtitle strip, a meme's lines, a terminal's
 * output, a slide's bullets) changes enough of the moving part to score like a cut (it is all that moves), but it only
 * turns a few thin strokes to background and back and leaves the rest of the picture as it was: the frame's histogram
 * (bins of HISTOGRAM_BIN grey levels) stays, and the change lies in a few horizontal bands. A cut brings a new picture:
 * at every cut of the real clips' tuning part and of still pictures rendered for this (jump cuts, a cut inside a
 * landscape band of a vertical frame) about 10 % of the pixels or more moved to another bin, against 3 % or less at a
 * rendered caption, meme, slide or subtitle-strip switch (its change in 2 or 3 bands of 12). Both must hold, so a jump
 * cut that keeps the histogram (the same person and backdrop, shifted) still counts: its change spans the person's height.
 * Whole frames, with the static part: the text that changes is all that moves on a still screen.
 */
export function textOnly(a: Uint8Array, b: Uint8Array, width: number): boolean {
  const bins = new Int32Array(Math.ceil(256 / HISTOGRAM_BIN));
  const bands = new Float64Array(Math.ceil(a.length / width / 8));
  for (let p = 0; p < a.length; p++) {
    bins[Math.floor(a[p]! / HISTOGRAM_BIN)]!++;
    bins[Math.floor(b[p]! / HISTOGRAM_BIN)]!--;
    bands[Math.floor(p / width / 8)]! += Math.abs(a[p]! - b[p]!);
  }
  let moved = 0;
  for (const n of bins) moved += Math.abs(n);
  if (moved / 2 / a.length >= PICTURE_CHANGE) return false;
  const total = bands.reduce((sum, v) => sum + v, 0);
  const largest = [...bands].sort((x, y) => y - x).slice(0, Math.floor(bands.length / 3));
  return total > 0 && largest.reduce((sum, v) => sum + v, 0) >= BAND_CHANGE * total;
}

/** A moving pixel that changed by at most this many grey levels was kept; one that changed by more than CHANGED_LEVELS changed. */
const KEPT_LEVELS = 3;
const CHANGED_LEVELS = 24;
/** A change that keeps at least this share of the moving part... */
const PICTURE_KEPT_SHARE = 0.5;
/** ...of whose other pixels at least this share changed (not a few pixels of a dim, low-contrast change)... */
const CHANGED_SHARE = 0.2;
/** ...and in which fewer than this share of the changed pixels show detail in both frames (3×3 range of FLAT_RANGE or more)... */
const BOTH_DETAILED = 0.6;
const FLAT_RANGE = 12;

/**
 * ...is something coming onto or leaving a backdrop that stays, not a new shot: a window or a pop-up opening on a
 * desktop, a dialog closing, a figure added to a slide, a desktop flying in on a flat background. Three counts over the
 * moving part (`mask`), pixel by pixel:
 * - kept: half of it or more changed by KEPT_LEVELS grey levels or less (at the read clips' real cuts, 10-40 %: by
 *   chance and in shared dark areas; under movingMask's whole-frame fallback, where little moves, this always holds);
 * - changed: of the rest, CHANGED_SHARE or more changed by more than CHANGED_LEVELS (pixels that changed by 4-24 levels
 *   count in neither: a dim cut that changes little everywhere is not judged on a few pixels);
 * - detailed on both sides: under BOTH_DETAILED of the changed pixels have detail around them in both frames, so at most
 *   of them one frame is plain there.
 * A jump cut in front of a plain wall keeps as much of the frame, but the person is in both frames: at the one read
 * (ad-ru-captions) 65 % of its changed pixels were detailed on both sides, a thin margin over 60 %. Chosen on the read
 * real clips' spike candidates (screen recordings, GNOME tutorial animations, slides, a talking head's jump cuts). Not
 * found as cuts because of it: a subject appearing in front of a backdrop that stays, with no camera change, and a cut
 * between two shots on one plain backdrop whose subjects do not overlap (a product on white, then another elsewhere on
 * white; two slides of one template).
 */
export function changeWithinPicture(a: Uint8Array, b: Uint8Array, mask: Uint8Array, width: number): boolean {
  let moving = 0;
  let kept = 0;
  for (let p = 0; p < a.length; p++) {
    if (!mask[p]) continue;
    moving++;
    if (Math.abs(a[p]! - b[p]!) <= KEPT_LEVELS) kept++;
  }
  // Most cuts fail here: the detail around each changed pixel is looked at only when the frame was mostly kept.
  if (moving === 0 || kept < PICTURE_KEPT_SHARE * moving) return false;
  let changed = 0;
  let detailed = 0;
  for (let p = 0; p < a.length; p++) {
    if (!mask[p] || Math.abs(a[p]! - b[p]!) <= CHANGED_LEVELS) continue;
    changed++;
    if (detailAt(a, p, width) && detailAt(b, p, width)) detailed++;
  }
  return changed > 0 && changed >= CHANGED_SHARE * (moving - kept) && detailed < BOTH_DETAILED * changed;
}

/** Whether the 3×3 neighbourhood of pixel `p` (clamped at the edges) spans FLAT_RANGE grey levels or more. */
function detailAt(frame: Uint8Array, p: number, width: number): boolean {
  const height = frame.length / width;
  const [x, y] = [p % width, Math.floor(p / width)];
  let [low, high] = [255, 0];
  for (let yy = Math.max(0, y - 1); yy <= Math.min(height - 1, y + 1); yy++) {
    for (let xx = Math.max(0, x - 1); xx <= Math.min(width - 1, x + 1); xx++) {
      const v = frame[yy * width + xx]!;
      if (v < low) low = v;
      if (v > high) high = v;
    }
  }
  return high - low >= FLAT_RANGE;
}

/** The picture two frames after a spike is back to the one before it: a flash or a blink, not a new shot. */
function isFlash(f: ScannedFrames, stats: FrameStats[], mask: Uint8Array, i: number): boolean {
  const after = i + 2 < stats.length ? i + 2 : i + 1 < stats.length ? i + 1 : -1;
  if (after < 0) return false;
  const back = difference(frameAt(f, i - 1), frameAt(f, after), mask, (stats[i - 1]!.std + stats[after]!.std) / 2);
  return back < stats[i]!.score / 3;
}

/** Blocks of this many pixels a side are looked for in the previous frame up to SHIFT_RANGE pixels away (at 96 px: 8 %). */
const SHIFT_BLOCK = 16;
const SHIFT_RANGE = 8;
/** A spike whose difference falls below this share of itself once each block may shift is motion, not a cut. */
const SHIFT_EXPLAINED = 0.4;

/**
 * Fast motion of the camera or of a subject (a head turned, a figure running out of the frame) spikes the score like
 * a cut; but then each block of the new frame is found nearby in the previous one, while after a cut most are not.
 * True when the moving part's blocks, each moved to where it matches best, differ less than SHIFT_EXPLAINED of the
 * unmoved difference.
 */
export function shiftExplains(f: ScannedFrames, mask: Uint8Array, i: number, before = i - 1): boolean {
  const [a, b] = [frameAt(f, before), frameAt(f, i)];
  let shifted = 0;
  let still = 0;
  for (let by = 0; by + SHIFT_BLOCK <= f.height; by += SHIFT_BLOCK) {
    for (let bx = 0; bx + SHIFT_BLOCK <= f.width; bx += SHIFT_BLOCK) {
      if (movingShare(mask, f.width, bx, by) < 0.5) continue;
      let best = Number.POSITIVE_INFINITY;
      for (let dy = -SHIFT_RANGE; dy <= SHIFT_RANGE; dy++) {
        for (let dx = -SHIFT_RANGE; dx <= SHIFT_RANGE; dx++) {
          const [x0, y0] = [bx + dx, by + dy];
          if (x0 < 0 || y0 < 0 || x0 + SHIFT_BLOCK > f.width || y0 + SHIFT_BLOCK > f.height) continue;
          const d = blockDifference(a, b, f.width, bx, by, dx, dy);
          if (d < best) best = d;
          if (dx === 0 && dy === 0) still += d;
        }
      }
      shifted += best;
    }
  }
  return still > 0 && shifted < SHIFT_EXPLAINED * still;
}

function movingShare(mask: Uint8Array, width: number, bx: number, by: number): number {
  let n = 0;
  for (let y = by; y < by + SHIFT_BLOCK; y++) for (let x = bx; x < bx + SHIFT_BLOCK; x++) n += mask[y * width + x]!;
  return n / (SHIFT_BLOCK * SHIFT_BLOCK);
}

/** Sum of absolute differences between the block of `b` at (bx, by) and the block of `a` shifted by (dx, dy). */
function blockDifference(a: Uint8Array, b: Uint8Array, width: number, bx: number, by: number, dx: number, dy: number): number {
  let sum = 0;
  for (let y = by; y < by + SHIFT_BLOCK; y++) {
    const row = y * width;
    const from = (y + dy) * width + dx;
    for (let x = bx; x < bx + SHIFT_BLOCK; x++) sum += Math.abs(b[row + x]! - a[from + x]!);
  }
  return sum;
}

/**
 * Cuts at stretches of blank frames (of one kind: dark or bright). A short one (under CARD_SECONDS) between two
 * shots is a dip: one cut, where the next shot begins to show. A long one is a shot of its own (a white or black
 * card): cuts where it begins and ends. Neither counts at the very start (a fade in, a black opening) or end (a fade
 * out), nor where text appears on the blank or leaves it (`textOnBlank`): a title typed onto a white card, a subtitle
 * strip's line coming and going on black, are the same card, not a new shot.
 */
function dips(f: ScannedFrames, stats: FrameStats[]): number[] {
  const cuts: number[] = [];
  let bars: Region | undefined;
  const textOnCard = (i: number, toward: 1 | -1, level: number) => textOnBlank(f, i, toward, level, (bars ??= insideBars(f)));
  const kind = (s: FrameStats) => (isBlank(s) ? (s.mean < DARK_MEAN ? "dark" : "bright") : null);
  let i = 0;
  while (i < stats.length) {
    const k = kind(stats[i]!);
    if (!k) {
      i++;
      continue;
    }
    const start = i;
    while (i < stats.length && kind(stats[i]!) === k) i++;
    if (start === 0) continue;
    const card = stats[Math.min(i, stats.length - 1)]!.seconds - stats[start]!.seconds >= CARD_SECONDS;
    // Text on the blank on either side (the card's own level, as each edge's blank frame shows it).
    const textBefore = textOnCard(start - 1, -1, stats[start]!.mean);
    const textAfter = i < stats.length && textOnCard(i, 1, stats[i - 1]!.mean);
    if (card && !textBefore) cuts.push(stats[start]!.seconds);
    // A fade out at the end; a shot shorter than MIN_SHOT_SECONDS at the end is none (as for the spike rule).
    if (i >= stats.length || stats[i]!.seconds > stats.at(-1)!.seconds - MIN_SHOT_SECONDS) continue;
    if (!textAfter) cuts.push(stats[i]!.seconds);
    // A picture (not text on the blank) dipping into a title on it: the title card is the new shot, begun with the blank.
    else if (!card && blankShare(f, start - 1, stats[start]!.mean) < PICTURE_KEPT) cuts.push(stats[start]!.seconds);
  }
  return cuts;
}

/** Share of a frame within this many grey levels of a blank stretch's level: the blank itself, around text on it... */
const CARD_LEVEL = 16;
/** ...at least this share of the frame next to the blank and of the frame half a second further on... */
const CARD_KEPT = 0.8;
/** ...and about the same share in both (within this): the text stays still, where a dark shot's picture moves. */
const CARD_STILL = 0.03;
/** A frame with less than this share at a blank's level is a picture (a long subtitle line on a strip keeps 78 %). */
const PICTURE_KEPT = 0.5;

/**
 * Whether frame `i`, next to a blank stretch of grey level `level` (before it when `toward` is -1, after it when 1), is
 * that blank with text on it: most of the whole frame keeps the blank's level, there and half a second further from
 * the blank, and inside any letterbox bars (`insideBars`, where a letterboxed shot's picture is) by the same share. The
 * real clips' text on a white card or a black strip kept 83-97 % of the frame, the same share each time; a dark shot
 * after a dip to black kept 77-89 %, changing as its picture moved.
 */
function textOnBlank(f: ScannedFrames, i: number, toward: 1 | -1, level: number, inside: Region): boolean {
  const further = Math.min(frameCount(f) - 1, Math.max(0, i + toward * Math.round(f.fps / 2)));
  // At the video's first or last frame there is no later picture to tell a still card from a moving shot: a cut.
  if (further === i) return false;
  const kept = (j: number, region?: Region) => blankShare(f, j, level, region);
  // Most of the frame is the blank; and inside the bars, where a letterboxed shot's picture is, nothing moved.
  const mostly = kept(i) >= CARD_KEPT && kept(further) >= CARD_KEPT;
  return mostly && Math.abs(kept(i, inside) - kept(further, inside)) <= CARD_STILL;
}

interface Region {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The share of frame `j` (of `region`: the whole frame by default) within CARD_LEVEL grey levels of `level`. */
function blankShare(
  f: ScannedFrames,
  j: number,
  level: number,
  region: Region = { left: 0, top: 0, right: f.width, bottom: f.height },
): number {
  const { left, top, right, bottom } = region;
  const frame = frameAt(f, j);
  let n = 0;
  for (let y = top; y < bottom; y++) for (let x = left; x < right; x++) if (Math.abs(frame[y * f.width + x]! - level) <= CARD_LEVEL) n++;
  return n / ((right - left) * (bottom - top));
}

/**
 * The frame inside its letterbox or pillarbox bars: rows and columns from each edge that never change over the video
 * (a landscape video posted in a vertical frame). Bars are black like a dip, and would count as the card's blank.
 * A band of text on black keeps its black where no letter ever comes (above and below a subtitle strip's line) as
 * bars; the stillness of the line's own band is what is judged there.
 */
function insideBars(f: ScannedFrames): Region {
  const moving = movingMask(f, true);
  const rowStill = (y: number) => moving.subarray(y * f.width, (y + 1) * f.width).every((m) => m === 0);
  const columnStill = (x: number) => {
    for (let y = 0; y < f.height; y++) if (moving[y * f.width + x]) return false;
    return true;
  };
  let [top, bottom, left, right] = [0, f.height, 0, f.width];
  while (top < bottom - 1 && rowStill(top)) top++;
  while (bottom - 1 > top && rowStill(bottom - 1)) bottom--;
  while (left < right - 1 && columnStill(left)) left++;
  while (right - 1 > left && columnStill(right - 1)) right--;
  // Nothing (or next to nothing) moves: no bars to tell, the whole frame.
  if ((right - left) * (bottom - top) < 0.1 * f.width * f.height) return { left: 0, top: 0, right: f.width, bottom: f.height };
  return { left, top, right, bottom };
}

function spaced(cuts: number[]): number[] {
  const kept: number[] = [];
  for (const c of cuts) if (kept.length === 0 || c - kept.at(-1)! >= MIN_SHOT_SECONDS) kept.push(c);
  return kept;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
