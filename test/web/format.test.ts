/** How numbers and dates read in the dashboard (web/src/lib/format.ts): "1.2M", "3 h ago", "4.3 %". */
import { describe, expect, it } from "vitest";
import {
  formatClock,
  formatCount,
  formatDelta,
  formatPercent,
  formatRelative,
  humanize,
  platformName,
  PLATFORMS,
  plural,
  shortTitle,
  truncate,
  videoTitle,
} from "../../web/src/lib/format.js";

describe("dashboard formats", () => {
  it("writes counts compact, and a missing measure as a dash", () => {
    expect([formatCount(999), formatCount(1_234), formatCount(1_234_567), formatCount(2_500_000_000), formatCount(null)]).toEqual([
      "999",
      "1.2K",
      "1.2M",
      "2.5B",
      "—",
    ]);
    expect([formatDelta(1_200), formatDelta(-30), formatDelta(0)]).toEqual(["+1.2K", "-30", "0"]);
    expect(formatPercent(4.349)).toBe("4.3 %");
  });

  it("writes times relative to now, past and future", () => {
    const now = Date.parse("2026-11-25T12:00:00Z");
    const at = (ms: number) => new Date(now + ms).toISOString();
    expect(formatRelative(at(-3 * 3600_000 - 5_000), now)).toBe("3 h ago");
    expect(formatRelative(at(-45_000), now)).toBe("45 s ago");
    expect(formatRelative(at(-2 * 86400_000), now)).toBe("2 d ago");
    expect(formatRelative(at(5 * 60_000), now)).toBe("in 5 min");
    expect(formatRelative(at(-3_000), now)).toBe("just now");
  });

  it("writes transcript clocks and enum values for people", () => {
    expect([formatClock(0), formatClock(65.9), formatClock(600)]).toEqual(["0:00", "1:05", "10:00"]);
    expect(humanize("LINK_IN_BIO")).toBe("Link in bio");
  });

  it("names a video without a description one way, counts with one plural rule, and knows the platforms once", () => {
    expect(videoTitle({ description: "Three tips", username: "maker" })).toBe("Three tips");
    expect(videoTitle({ description: "", username: "maker" })).toBe("Video by @maker");
    expect(videoTitle({ description: null, username: null })).toBe("Untitled video");
    expect([plural(1, "video"), plural(0, "video"), plural(1_200, "video"), plural(2, "entry", "entries")]).toEqual([
      "1 video",
      "0 videos",
      "1,200 videos",
      "2 entries",
    ]);
    expect(PLATFORMS.map((p) => p.value)).toEqual(["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"]);
    expect(platformName("PLATFORM_B")).toBe("Platform B");
  });

  it("cuts long text at a word, with an ellipsis, and folds its white space", () => {
    expect(truncate("Three tips for sourdough", 80)).toBe("Three tips for sourdough");
    expect(truncate("Three tips for a better sourdough starter, every single morning", 30)).toBe("Three tips for a better…");
    expect(truncate("Line one,\n  line two", 80)).toBe("Line one, line two");
    // Never past max, ellipsis included; a single long word is cut inside.
    expect(truncate("supercalifragilisticexpialidocious", 10)).toBe("supercali…");
    expect(truncate("a, b, c, d, e, f, g, h", 10)).toBe("a, b, c…");
    const cut = shortTitle({ description: "word ".repeat(40), username: "maker" });
    expect(cut.length).toBeLessThanOrEqual(80);
    expect(cut.endsWith("word…")).toBe(true);
    expect(shortTitle({ description: "", username: "maker" })).toBe("Video by @maker");
  });
});
