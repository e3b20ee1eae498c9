/**
 * Renders an evaluation case's video (../../src/providers/media/render-video.ts: ffmpeg) with its voice
 * spoken by espeak-ng, into a cache directory keyed by the case's content, so a re-run renders only what
 * changed. The transcript of a voiced case is its text as captions, timed over the real speech as the
 * simulated media provider times them: the evaluation measures the analysis, not speech recognition
 * (bench/wer.ts measures that).
 */
import { createHash } from "node:crypto";
import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Segment } from "../../src/domain/analysis/ports.js";
import { renderVideo, type SceneSpec } from "../../src/providers/media/render-video.js";
import { spokenForm, timeSentences } from "../../src/providers/media/simulated.js";
import { readWavInfo } from "../../src/providers/media/wav.js";
import { runProgram } from "../../src/providers/process.js";
import { splitSentences } from "../../src/providers/transcription/segments.js";
import type { VideoCase } from "./cases.js";

export const CACHE_DIR = join(tmpdir(), "analysis-eval-cache");
const PROVIDER = "bench:render";

export interface RenderedCase {
  videoPath: string;
  captions: { text: string; segments: Segment[] } | null;
}

export async function renderCase(c: VideoCase, cacheDir = CACHE_DIR): Promise<RenderedCase> {
  const spec = { scenes: c.scenes, overlays: c.overlays, voice: c.voice ?? null, v: 1 };
  const key = createHash("sha1").update(JSON.stringify(spec)).digest("hex").slice(0, 12);
  const base = join(cacheDir, `${c.id}-${key}`);
  const rendered: RenderedCase = { videoPath: `${base}.mp4`, captions: null };
  if (await exists(`${base}.json`)) return JSON.parse(await readFile(`${base}.json`, "utf8")) as RenderedCase;
  await mkdir(cacheDir, { recursive: true });
  let scenes: SceneSpec[] = c.scenes;
  let audioPath: string | undefined;
  if (c.voice) {
    audioPath = `${base}.wav`;
    const sentences = splitSentences(c.voice);
    const spoken = sentences.map(spokenForm);
    await runProgram(PROVIDER, "espeak-ng", ["-v", "en-us", "-s", "165", "-w", audioPath, "--stdin"], {
      timeoutMs: 30_000,
      stdin: spoken.join("\n"),
    });
    const seconds = (await readWavInfo(audioPath))?.durationSeconds ?? 0;
    rendered.captions = { text: sentences.join(" "), segments: timeSentences(sentences, spoken, seconds) };
    scenes = longEnough(scenes, seconds + 0.3);
  }
  await renderVideo({ scenes, overlays: c.overlays, ...(audioPath ? { audioPath } : {}) }, rendered.videoPath, {
    ffmpegPath: "ffmpeg",
    timeoutMs: 60_000,
    workDir: cacheDir,
    provider: PROVIDER,
  });
  await writeFile(`${base}.json`, JSON.stringify(rendered));
  return rendered;
}

/** The scenes with the last one lengthened so the video lasts at least `seconds` (the speech's length). */
function longEnough(scenes: SceneSpec[], seconds: number): SceneSpec[] {
  const total = scenes.reduce((t, s) => t + s.seconds, 0);
  if (total >= seconds) return scenes;
  return scenes.map((s, i) => (i === scenes.length - 1 ? { ...s, seconds: s.seconds + seconds - total } : s));
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
