/**
 * The chart's time axis (web/src/lib/time-axis.ts): ticks by the buckets' resolution and labels that
 * never repeat. The splits below are what uPlot's own time axis chose for these charts at 640 px
 * (a tick every 6 hours over a 4-day daily chart: the bug, every tick of a day read "Nov 25"), and
 * the splits the chart now asks for.
 */
import { describe, expect, it } from "vitest";
import { timeTickLabels, timeTickSplits } from "../../web/src/lib/time-axis.js";

const at = (iso: string) => Date.parse(iso) / 1000;
const every = (fromIso: string, hours: number, n: number) => Array.from({ length: n }, (_, i) => at(fromIso) + i * hours * 3600);
const en = { locale: "en-US", timeZone: "UTC" };

describe("the chart's time axis", () => {
  it("a daily chart labels days, once each, even on uPlot's 6-hourly splits", () => {
    const uplotSplits = every("2026-11-25T00:00:00Z", 6, 16);
    const labels = timeTickLabels(uplotSplits, "day", en);
    const shown = labels.filter(Boolean);
    expect(shown).toEqual(["Nov 25", "Nov 26", "Nov 27", "Nov 28"]);
    expect(new Set(shown).size).toBe(shown.length);
  });

  it("a daily chart's own splits are UTC midnights, one label per tick", () => {
    const splits = timeTickSplits(at("2026-11-01T10:00:00Z"), at("2026-11-30T09:00:00Z"), "day", 8);
    expect(splits.every((t) => t % 86_400 === 0)).toBe(true);
    const labels = timeTickLabels(splits, "day", en);
    expect(labels.every((l) => l !== "")).toBe(true);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels[0]).toBe("Nov 5");
  });

  it("a daily chart over more than a year says the year", () => {
    const splits = timeTickSplits(at("2025-01-01T00:00:00Z"), at("2026-06-01T00:00:00Z"), "day", 6);
    expect(timeTickLabels(splits, "day", en)[0]).toMatch(/2025/);
  });

  it("an hourly chart labels hours, with the day on each day's first tick, never the same text twice", () => {
    const uplotSplits = every("2026-11-25T00:00:00Z", 6, 9);
    expect(timeTickLabels(uplotSplits, "hour", en)).toEqual([
      "Nov 25 00:00",
      "06:00",
      "12:00",
      "18:00",
      "Nov 26 00:00",
      "Nov 26 06:00",
      "Nov 26 12:00",
      "Nov 26 18:00",
      "Nov 27 00:00",
    ]);
    // uPlot's 30-minute splits on a short hourly chart: ticks within one hour are not labelled twice.
    const halfHours = every("2026-11-25T10:00:00Z", 0.5, 5);
    const labels = timeTickLabels(halfHours, "hour", { locale: "en-GB", timeZone: "UTC" }).filter(Boolean);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it("an hourly chart's own splits are whole hours", () => {
    const splits = timeTickSplits(at("2026-11-25T10:20:00Z"), at("2026-11-25T21:40:00Z"), "hour", 6);
    expect(splits.every((t) => t % 3600 === 0)).toBe(true);
    expect(splits.length).toBeLessThanOrEqual(6);
    const labels = timeTickLabels(splits, "hour", en);
    expect(labels[0]).toBe("Nov 25 12:00");
    expect(new Set(labels).size).toBe(labels.length);
  });
});
