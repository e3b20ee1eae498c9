/**
 * Renders a short vertical video with ffmpeg from a plain description of it: coloured scenes with hard
 * cuts between them, a still of a face in the scenes where someone "talks to camera", text overlays
 * (wrapped, white with a black outline, as short-form videos show them) at given times, and an
 * optional sound track. The simulated media provider renders its videos with it, and the analysis
 * evaluation set (bench/analysis-eval) renders its cases with it.
 *
 * The face is a photograph that ships in a Debian package, `python-matplotlib-data` (Grace Hopper, public
 * domain): with the file absent, face scenes are rendered without it and `faceShown` says so.
 */
import { access, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runProgram } from "../process.ts";

export const FACE_IMAGE = "/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg";
export const FACE_IMAGE_PACKAGE = "python-matplotlib-data";
/** fonts-dejavu-core; without it ffmpeg's drawtext falls back to fontconfig's default sans-serif. */
const FONT_FILE = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

export interface SceneSpec {
  seconds: number;
  /** ffmpeg colour, e.g. `0x1f3a5f` or `navy`. */
  colour: string;
  /** A face photograph in the middle of the scene, as a creator talking to camera. */
  face?: boolean;
}

export interface OverlaySpec {
  text: string;
  from: number;
  to: number;
  /** Vertical place: the hook near the top, a call to action near the bottom. */
  position?: "top" | "middle" | "bottom";
  /** Font size in pixels at the video's width of 540 (scaled with the width). */
  size?: number;
}

export interface VideoSpec {
  width?: number;
  height?: number;
  fps?: number;
  scenes: SceneSpec[];
  overlays: OverlaySpec[];
  /** A sound track (e.g. espeak-ng speech); without it the video has no audio stream. */
  audioPath?: string;
  /** Written into the file's metadata (`comment`), e.g. that the video is simulated. */
  comment?: string;
}

export interface RenderOptions {
  ffmpegPath: string;
  timeoutMs: number;
  /** Work files (the overlays' text) go here. */
  workDir: string;
  provider: string;
  signal?: AbortSignal;
}

/** Characters per overlay line at a font size of 40 on a 540-wide frame. */
const CHARS_PER_LINE_AT_40 = 19;

/** Writes the video to `outPath`; resolves with whether a face photograph was shown. */
export async function renderVideo(spec: VideoSpec, outPath: string, opts: RenderOptions): Promise<{ faceShown: boolean }> {
  const width = spec.width ?? 540;
  const height = spec.height ?? 960;
  const fps = spec.fps ?? 15;
  const faceScenes = spec.scenes.filter((s) => s.face).length;
  const faceShown = faceScenes > 0 && (await exists(FACE_IMAGE));
  const font = (await exists(FONT_FILE)) ? `fontfile=${FONT_FILE}` : "font=Sans";
  const inputs: string[] = [];
  const graph: string[] = [];
  if (faceShown) {
    inputs.push("-loop", "1", "-framerate", String(fps), "-i", FACE_IMAGE);
    const faceWidth = Math.round(width * 0.8);
    graph.push(
      `[0:v]scale=${faceWidth}:-2,format=yuv420p,split=${faceScenes}${Array.from({ length: faceScenes }, (_, i) => `[face${i}]`).join("")}`,
    );
  }
  let faceIndex = 0;
  spec.scenes.forEach((scene, i) => {
    const background = `color=c=${scene.colour}:s=${width}x${height}:r=${fps}:d=${scene.seconds.toFixed(3)},format=yuv420p`;
    if (scene.face && faceShown) {
      graph.push(`${background}[bg${i}]`, `[bg${i}][face${faceIndex++}]overlay=(W-w)/2:(H-h)/2:shortest=1[scene${i}]`);
    } else {
      graph.push(`${background}[scene${i}]`);
    }
  });
  const drawn: string[] = [`${spec.scenes.map((_, i) => `[scene${i}]`).join("")}concat=n=${spec.scenes.length}:v=1:a=0`];
  for (const [i, overlay] of spec.overlays.entries()) {
    const size = Math.round(((overlay.size ?? 40) * width) / 540);
    const textFile = join(opts.workDir, `overlay-${i}.txt`);
    await writeFile(textFile, wrap(overlay.text, Math.round((CHARS_PER_LINE_AT_40 * 40) / (overlay.size ?? 40))));
    const y = overlay.position === "bottom" ? "h*0.78-text_h/2" : overlay.position === "middle" ? "(h-text_h)/2" : "h*0.18";
    drawn.push(
      `drawtext=${font}:textfile=${textFile}:expansion=none:fontsize=${size}:fontcolor=white:borderw=${Math.max(2, Math.round(size / 12))}:bordercolor=black:line_spacing=${Math.round(size / 4)}:x=(w-text_w)/2:y=${y}:enable='between(t,${overlay.from},${overlay.to})'`,
    );
  }
  graph.push(`${drawn.join(",")},format=yuv420p[video]`);
  if (spec.audioPath) inputs.push("-i", spec.audioPath);
  const audioInput = faceShown ? 1 : 0;
  const total = spec.scenes.reduce((t, s) => t + s.seconds, 0);
  const args = [
    "-nostdin",
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    ...inputs,
    "-filter_complex",
    graph.join(";"),
    "-map",
    "[video]",
    ...(spec.audioPath ? ["-map", `${audioInput}:a`, "-c:a", "aac", "-b:a", "64k"] : []),
    "-t",
    total.toFixed(3),
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-crf",
    "28",
    "-movflags",
    "+faststart",
    ...(spec.comment ? ["-metadata", `comment=${spec.comment}`] : []),
    outPath,
  ];
  await runProgram(opts.provider, opts.ffmpegPath, args, { timeoutMs: opts.timeoutMs, signal: opts.signal, maxStdoutBytes: 64 * 1024 });
  return { faceShown };
}

/** Words wrapped into lines of at most `width` characters (a longer word stands alone): drawtext does not wrap. */
export function wrap(text: string, width: number): string {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.join("\n");
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
