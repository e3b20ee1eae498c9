/**
 * yt-dlp freshness: its version is read at start-up (src/main/lifecycle.ts, never on importing the
 * configuration) when a provider uses it, logged (a warning when it is older than 90 days or cannot
 * be run) and shown by /readyz. A stand-in program plays yt-dlp's
 * `--version`; the real Debian yt-dlp (2023.03) is checked too when installed.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { ytdlpFreshness, YTDLP_STALE_DAYS } from "../../src/infra/health.js";
import { readYtdlpVersion } from "../../src/main/lifecycle.js";
import { spawnService } from "../helpers/processes.js";
import { startTestApi, stopAll } from "../helpers/api.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ytdlp-version-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await stopAll();
});

async function program(name: string, version: string): Promise<{ path: string; ran: () => boolean }> {
  const path = join(dir, name);
  const marker = join(dir, `${name}.ran`);
  await writeFile(path, `#!/bin/sh\ntouch '${marker}'\necho '${version}'\n`, { mode: 0o755 });
  return { path, ran: () => existsSync(marker) };
}

const NOW = new Date("2026-11-24T12:00:00Z");

describe("ytdlpFreshness", () => {
  it("reads the release day from the version and reports a release older than 90 days as stale", () => {
    const at = (version: string | null) => ytdlpFreshness(NOW, { ytdlp: "/usr/bin/yt-dlp", ytdlpUsed: true, ytdlpVersion: version });
    expect(at("2023.03.04")).toEqual({
      path: "/usr/bin/yt-dlp",
      version: "2023.03.04",
      releasedOn: "2023-03-04",
      ageDays: 1361,
      stale: true,
    });
    expect(at("2026.10.01")).toMatchObject({ releasedOn: "2026-10-01", ageDays: 54, stale: false });
    expect(at("2026.08.26")).toMatchObject({ ageDays: YTDLP_STALE_DAYS, stale: false });
    expect(at("2026.08.25")).toMatchObject({ ageDays: YTDLP_STALE_DAYS + 1, stale: true });
    // Nightly builds carry a time after the day.
    expect(at("2026.11.20.232749")).toMatchObject({ releasedOn: "2026-11-20", ageDays: 4, stale: false });
    // A version that names no day: its age is unknown (not stale for that); a program that does not run: stale.
    expect(at("custom-build")).toMatchObject({ releasedOn: null, ageDays: null, stale: false });
    expect(at(null)).toMatchObject({ version: null, stale: true });
    expect(ytdlpFreshness(NOW, { ytdlp: "yt-dlp", ytdlpUsed: false, ytdlpVersion: null })).toBeNull();
  });

  it("importing the configuration runs no program; start-up reads `yt-dlp --version` only when the scrape or media provider uses it", async () => {
    const fresh = await program("fresh", "2026.11.01");
    const used = loadConfig({ SCRAPE_PROVIDER: "ytdlp", YTDLP_PATH: fresh.path });
    expect(used.programs.ytdlpUsed).toBe(true);
    expect(fresh.ran()).toBe(false);
    expect(await readYtdlpVersion(used.programs)).toBe("2026.11.01");
    expect(fresh.ran()).toBe(true);
    const unused = await program("unused", "2026.11.01");
    const simulated = loadConfig({ SCRAPE_PROVIDER: "simulated", YTDLP_PATH: unused.path });
    expect(simulated.programs.ytdlpUsed).toBe(false);
    expect(await readYtdlpVersion(simulated.programs)).toBeNull();
    // Downloading media with it reads it too; the radar's yt-dlp search alone does not.
    const media = loadConfig({ SCRAPE_PROVIDER: "simulated", MEDIA_PROVIDER: "ytdlp", YTDLP_PATH: unused.path });
    expect(media.programs.ytdlpUsed).toBe(true);
    expect(loadConfig({ SCRAPE_PROVIDER: "simulated", RADAR_PROVIDERS: "catalog,ytdlp", YTDLP_PATH: unused.path }).programs.ytdlpUsed).toBe(
      false,
    );
    expect(unused.ran()).toBe(false);
    // Without SCRAPE_PROVIDER, an installed yt-dlp (found, not run) is the default provider.
    const found = await program("found", "2026.11.01");
    expect(loadConfig({ YTDLP_PATH: found.path }).providers.scrape).toBe("ytdlp");
    expect(found.ran()).toBe(false);
    expect(loadConfig({ YTDLP_PATH: join(dir, "missing") })).toMatchObject({
      providers: { scrape: "simulated" },
      programs: { ytdlpUsed: false },
    });
    // A program that is installed but does not run: its version is unknown (and reported stale).
    const broken = join(dir, "broken");
    await writeFile(broken, "#!/bin/sh\nexit 3\n", { mode: 0o755 });
    expect(await readYtdlpVersion({ ytdlp: broken, ytdlpUsed: true })).toBeNull();
  });

  it.skipIf(spawnSync("yt-dlp", ["--version"]).status !== 0)("Debian's yt-dlp is read, and is stale", async () => {
    const version = await readYtdlpVersion(loadConfig({ SCRAPE_PROVIDER: "ytdlp" }).programs);
    expect(version).toMatch(/^\d{4}\.\d{2}\.\d{2}/);
    expect(ytdlpFreshness(NOW, { ytdlp: "yt-dlp", ytdlpUsed: true, ytdlpVersion: version })).toMatchObject({
      stale: version! < "2026.08.26",
    });
  });
});

describe("/readyz and the start-up log", () => {
  it("an API process using an old yt-dlp logs a warning at start and reports the version and its age in /readyz", async () => {
    const old = await program("old", "2023.03.04");
    const api = await spawnService("api", { SCRAPE_PROVIDER: "ytdlp", YTDLP_PATH: old.path });
    try {
      const r = await fetch(`${api.url}/readyz`);
      const body = (await r.json()) as any;
      expect(r.status).toBe(200);
      expect(body.programs.ytdlp).toMatchObject({ path: old.path, version: "2023.03.04", releasedOn: "2023-03-04", stale: true });
      expect(body.programs.ytdlp.ageDays).toBeGreaterThan(YTDLP_STALE_DAYS);
      const warning = api
        .output()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l))
        .find((l) => l.ytdlp);
      expect(warning).toMatchObject({ level: 40, ytdlp: { version: "2023.03.04", stale: true } });
      expect(warning.msg).toMatch(/days old.*install a current release/);
    } finally {
      await api.stop();
    }
  });

  it("without yt-dlp in use, /readyz says so (null)", async () => {
    const api = await startTestApi();
    const body = (await (await fetch(`${api.url}/readyz`)).json()) as any;
    expect(body).toMatchObject({ status: "ready", programs: { ytdlp: null }, providers: { scrape: "simulated" } });
    await api.close();
  });
});
