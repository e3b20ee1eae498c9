import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";

describe("configuration", () => {
  it("applies the contract's defaults", () => {
    const c = loadConfig({ SCRAPE_PROVIDER: "simulated" });
    expect(c.port).toBe(4000);
    expect(c.rateLimitPerMinute).toBe(600);
    expect(c.providers).toMatchObject({
      scrape: "simulated",
      media: "simulated",
      transcribe: "pocketsphinx",
      analysis: "heuristic",
      radar: ["catalog"],
    });
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

describe("Redis: one server or a cluster", () => {
  it("is one server by default, at REDIS_URL", () => {
    expect(loadConfig({ SCRAPE_PROVIDER: "simulated" }).redis).toEqual({ cluster: false, url: "redis://127.0.0.1:6379" });
    expect(loadConfig({ SCRAPE_PROVIDER: "simulated", REDIS_URL: "rediss://:pw@cache.internal:6380/2" }).redis).toEqual({
      cluster: false,
      url: "rediss://:pw@cache.internal:6380/2",
    });
  });

  it("is a cluster with REDIS_CLUSTER_NODES (which wins over REDIS_URL) or a redis+cluster:// URL", () => {
    expect(
      loadConfig({ SCRAPE_PROVIDER: "simulated", REDIS_URL: "redis://x:1", REDIS_CLUSTER_NODES: "10.0.0.1:7000, 10.0.0.2:7001,[::1]:7002" })
        .redis,
    ).toEqual({
      cluster: true,
      nodes: [
        { host: "10.0.0.1", port: 7000 },
        { host: "10.0.0.2", port: 7001 },
        { host: "::1", port: 7002 },
      ],
      tls: false,
    });
    expect(
      loadConfig({ SCRAPE_PROVIDER: "simulated", REDIS_URL: "rediss+cluster://svc:p%40ss@a.internal:7000,b.internal:7000" }).redis,
    ).toEqual({
      cluster: true,
      nodes: [
        { host: "a.internal", port: 7000 },
        { host: "b.internal", port: 7000 },
      ],
      tls: true,
      username: "svc",
      password: "p@ss",
    });
    expect(loadConfig({ SCRAPE_PROVIDER: "simulated", REDIS_URL: "redis+cluster://:secret@127.0.0.1:7000" }).redis).toEqual({
      cluster: true,
      nodes: [{ host: "127.0.0.1", port: 7000 }],
      tls: false,
      password: "secret",
    });
  });

  it("refuses what is not a Redis URL or a list of host:port", () => {
    expect(() => loadConfig({ REDIS_URL: "http://127.0.0.1:6379" })).toThrow(/REDIS_URL: must be a redis:\/\//);
    expect(() => loadConfig({ REDIS_URL: "redis+cluster://a:7000,b" })).toThrow(/REDIS_URL: "b" is not host:port/);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: "a:7000,b:70000" })).toThrow(/REDIS_CLUSTER_NODES: "b:70000" is not host:port/);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: "redis://a:7000" })).toThrow(/REDIS_CLUSTER_NODES/);
  });
});
