/**
 * Each analysis's work directory on the worker's machine: the downloading stage fetches its media
 * there and keeps the small video rendition for the analyzing stage, across the `transcribed` commit
 * (a job may end between the two: a worker handing its job back at shutdown, or killed). It is removed
 * when the analysis ends (completed, failed, deleted) and by the sweeper for analyses no longer running;
 * a run resumed on another machine finds none and fetches the rendition again.
 *
 * `<tmpdir>/video-service-analyses/<REDIS_PREFIX>/<analysisId>/`: the prefix keeps deployments (and
 * test files) that share a machine apart, as it does their Redis keys, so one's sweeper never removes
 * another's directories.
 */
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { config } from "../../config.ts";
import type { MediaResult } from "./ports.ts";

const UNAVAILABLE = "video-unavailable.txt";
const VIDEO = "video";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function analysisDirRoot(): string {
  return join(tmpdir(), "video-service-analyses", config.redisPrefix.replace(/[^\w.-]/g, "_"));
}

export const analysisDir = (analysisId: string) => join(analysisDirRoot(), analysisId);

/** A fresh directory inside the analysis's own (made if missing), for one provider call's files. */
export async function scratchDir(analysisId: string, name: string): Promise<string> {
  await mkdir(analysisDir(analysisId), { recursive: true });
  return mkdtemp(join(analysisDir(analysisId), `${name}-`));
}

/**
 * Keeps what the media provider said of the video rendition: the file moved into the analysis's
 * directory (out of the fetch's scratch directory, which is removed), or why there is none.
 */
export async function keepVideo(analysisId: string, media: Pick<MediaResult, "videoPath" | "videoUnavailable">): Promise<void> {
  const dir = analysisDir(analysisId);
  await mkdir(dir, { recursive: true });
  if (media.videoPath) await rename(media.videoPath, join(dir, VIDEO + extname(media.videoPath)));
  else await writeFile(join(dir, UNAVAILABLE), media.videoUnavailable ?? "The media provider gave no video rendition.");
}

/** The rendition kept by the downloading stage, the reason there is none, or null when nothing was kept here. */
export async function keptVideo(analysisId: string): Promise<{ path: string } | { unavailable: string } | null> {
  const dir = analysisDir(analysisId);
  const names = await readdir(dir).catch(() => [] as string[]);
  const video = names.find((n) => n === VIDEO || n.startsWith(`${VIDEO}.`));
  if (video) return { path: join(dir, video) };
  if (names.includes(UNAVAILABLE)) return { unavailable: await readFile(join(dir, UNAVAILABLE), "utf8") };
  return null;
}

export const removeAnalysisDir = (analysisId: string) => rm(analysisDir(analysisId), { recursive: true, force: true });

/** Removes the directories of this machine's analyses that are not running (per `running`). Returns how many. */
export async function removeEndedAnalysisDirs(running: (ids: string[]) => Promise<Set<string>>): Promise<number> {
  const ids = (await readdir(analysisDirRoot()).catch(() => [] as string[])).filter((n) => UUID.test(n));
  if (ids.length === 0) return 0;
  const alive = await running(ids);
  const ended = ids.filter((id) => !alive.has(id));
  await Promise.all(ended.map(removeAnalysisDir));
  return ended.length;
}
