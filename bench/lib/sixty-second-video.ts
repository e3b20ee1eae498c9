/**
 * The visual-time benches' video (src/providers/media/render-video.ts): 15 scenes of 4 s (14 cuts), a face in every
 * third scene, a text hook in the first 3 s and a caption every 10 s, 540×960 at 15 frames a second.
 */
import { join } from "node:path";
import { config } from "../../src/config.js";
import { renderVideo, type OverlaySpec, type SceneSpec } from "../../src/providers/media/render-video.js";

const COLOURS = ["0x1f3a5f", "0xf2c14e", "0x7a1f3d", "0x9fe3f0", "0x1e5631", "0xf7b7c3"];

/** Renders the video into `root`; its path. */
export async function sixtySecondVideo(root: string): Promise<string> {
  const video = join(root, "sixty.mp4");
  const scenes: SceneSpec[] = Array.from({ length: 15 }, (_, i) => ({
    seconds: 4,
    colour: COLOURS[i % COLOURS.length]!,
    face: i % 3 === 1,
  }));
  const overlays: OverlaySpec[] = [
    { text: "3 mistakes every new runner makes", from: 0, to: 3, position: "top" },
    ...[10, 20, 30, 40, 50].map((s, i) => ({
      text: `Mistake ${i + 1}: skipping the warm-up`,
      from: s,
      to: s + 4,
      position: "bottom" as const,
    })),
  ];
  await renderVideo({ scenes, overlays }, video, {
    ffmpegPath: config.programs.ffmpeg,
    timeoutMs: 120_000,
    workDir: root,
    provider: "bench",
  });
  return video;
}
