/**
 * The real-clip bench's bookkeeping (bench/analysis-eval/real-metrics.ts): which held-out additions stay unread, so the
 * next change is measured on clips nobody tuned toward, and the manifest's `readParts` naming only parts that exist.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { hiddenParts, printable, type RealClip, unreadParts } from "../../bench/analysis-eval/real-metrics.js";

const manifest = JSON.parse(readFileSync(new URL("../../bench/analysis-eval/real/manifest.json", import.meta.url), "utf8")) as {
  clips: RealClip[];
  readParts?: string[];
};

describe("the real-clip bench's unread parts", () => {
  const clips = [
    { heldOut: false },
    { heldOut: true },
    { heldOut: true, addedToHeldOut: "2026-12-07" },
    { heldOut: true, addedToHeldOut: "2026-12-06T19" },
    { heldOut: true, addedToHeldOut: "2026-12-06T19" },
    { heldOut: true, addedToHeldOut: "2026-12-06" },
  ];

  it("are the additions not in readParts, each once, oldest first; the first held-out clips and the tuning part are never unread", () => {
    expect(unreadParts(clips)).toEqual(["2026-12-06", "2026-12-06T19", "2026-12-07"]);
    expect(unreadParts(clips, ["2026-12-06", "2026-12-07"])).toEqual(["2026-12-06T19"]);
  });

  it("hide their clips' misses unless they are asked for", () => {
    const hide = hiddenParts(unreadParts(clips, ["2026-12-06"]), false);
    expect(clips.map((c) => printable(c, hide))).toEqual([true, true, false, false, false, true]);
    expect(hiddenParts(["2026-12-07"], true)).toEqual([]);
  });

  it("readParts names only additions the manifest has (a misspelt part would print nothing of it and hide nothing)", () => {
    const added = new Set(manifest.clips.flatMap((c) => (c.addedToHeldOut ? [c.addedToHeldOut] : [])));
    for (const part of manifest.readParts ?? []) expect(added, part).toContain(part);
  });
});
