import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";

describe("configuration", () => {
  it("applies the contract's defaults", () => {
    const c = loadConfig({ SCRAPE_PROVIDER: "simulated" });
    expect(c.port).toBe(4000);
    expect(c.rateLimitPerMinute).toBe(600);
    expect(c.providers).toMatchObject({ scrape: "simulated", media: "simulated", transcribe: "pocketsphinx", analysis: "heuristic", radar: ["catalog"] });
    expect(c.programs.ytdlp).toBe("yt-dlp");
  });

  it("refuses invalid values with every problem named", () => {
    expect(() => loadConfig({ PORT: "abc", SCRAPE_PROVIDER: "nope", RADAR_PROVIDERS: "catalog,bogus" })).toThrow(
      /PORT[\s\S]*SCRAPE_PROVIDER[\s\S]*RADAR_PROVIDERS/,
    );
  });

  it("reads comma lists of radar providers", () => {
    expect(loadConfig({ SCRAPE_PROVIDER: "simulated", RADAR_PROVIDERS: "catalog, ytdlp" }).providers.radar).toEqual(["catalog", "ytdlp"]);
  });
});
