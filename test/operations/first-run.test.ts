/**
 * The first run, as a newcomer meets it: the scrape provider is chosen on purpose
 * (an installed yt-dlp only when its release is recent, else simulated data with a start-up line and /readyz saying
 * why and how to install a current one), /readyz lists every program the configured providers run and is `degraded`
 * (200, with the reasons) when one is missing, and a program that cannot be started is named with its package.
 * Stand-in programs (test/fixtures/programs) play yt-dlp, ffmpeg and pocketsphinx.
 */
import "../setup/visual-on.js"; // first: the visual stage on, as deployed, before the configuration is read
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installHint, loadConfig } from "../../src/config.js";
import { programsNeeded, settleScrapeProvider, ytdlpFreshness, YTDLP_STALE_DAYS } from "../../src/infra/health.js";
import { notInstalled, runProgram } from "../../src/providers/process.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";

const PROGRAMS = fileURLToPath(new URL("../fixtures/programs/", import.meta.url));
const NOW = new Date("2026-11-24T12:00:00Z");

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "first-run-"));
  // The per-file set-up chooses simulated data for every test file; this one starts services the way `npm start` does.
  delete process.env.SCRAPE_PROVIDER;
  delete process.env.MEDIA_PROVIDER;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const logLines = (p: ServiceProcess) =>
  p
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, any>);

async function readyz(p: ServiceProcess): Promise<{ status: number; body: any }> {
  const r = await fetch(`${p.url}/readyz`);
  return { status: r.status, body: await r.json() };
}

describe("the default scrape provider (settleScrapeProvider)", () => {
  const fresh = (version: string | null) => ytdlpFreshness(NOW, { ytdlp: "/usr/bin/yt-dlp", ytdlpUsed: true, ytdlpVersion: version });

  it("keeps a found yt-dlp only when its release is recent; an old or broken one means simulated data, saying why and how", () => {
    expect(settleScrapeProvider("found", "ytdlp", fresh("2026.11.01"), "/usr/bin/yt-dlp")).toEqual({
      scrape: "ytdlp",
      reason: expect.stringMatching(/recent \(23 days old\)/),
    });
    const old = settleScrapeProvider("found", "ytdlp", fresh("2023.03.04"), "/usr/bin/yt-dlp");
    expect(old.scrape).toBe("simulated");
    expect(old.reason).toMatch(new RegExp(`yt-dlp 2023.03.04 \\(/usr/bin/yt-dlp\\) is 1361 days old, more than ${YTDLP_STALE_DAYS}`));
    expect(old.reason).toMatch(/install a current yt-dlp .*or set SCRAPE_PROVIDER=ytdlp/);
    expect(settleScrapeProvider("found", "ytdlp", fresh(null))).toMatchObject({
      scrape: "simulated",
      reason: expect.stringMatching(/could not be run/),
    });
    expect(settleScrapeProvider("missing", "simulated", null)).toMatchObject({
      scrape: "simulated",
      reason: expect.stringMatching(/no yt-dlp found/),
    });
  });

  it("SCRAPE_PROVIDER set is the operator's choice, whatever yt-dlp's age", () => {
    expect(settleScrapeProvider("set", "ytdlp", fresh("2023.03.04"))).toEqual({ scrape: "ytdlp", reason: null });
    expect(settleScrapeProvider("set", "simulated", fresh("2026.11.01"))).toEqual({ scrape: "simulated", reason: null });
    expect(loadConfig({ SCRAPE_PROVIDER: "ytdlp" }).providerChoice.scrape).toBe("set");
    expect(loadConfig({ YTDLP_PATH: join(PROGRAMS, "yt-dlp-2023") }).providerChoice.scrape).toBe("found");
    expect(loadConfig({ YTDLP_PATH: join(dir, "nowhere") }).providerChoice.scrape).toBe("missing");
  });

  it("an API process started with Debian's old yt-dlp and no SCRAPE_PROVIDER scrapes simulated data, and says why at start and in /readyz", async () => {
    const api = await spawnService("api", { YTDLP_PATH: join(PROGRAMS, "yt-dlp-2023") });
    try {
      const { status, body } = await readyz(api);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        status: "ready",
        providers: { scrape: "simulated", media: "simulated" },
        providerChoice: { scrape: "found" },
      });
      expect(body.providerChoice.reason).toMatch(/yt-dlp 2023\.03\.04 .* days old.*install a current yt-dlp \(README, "yt-dlp freshness"/);
      // Simulated media are captions; only visual analysis (on by default) runs programs: ffmpeg (the simulated video, keyframes) and tesseract.
      expect(body.programs).toMatchObject({ ytdlp: null, pocketsphinx: null, espeak: null });
      expect(body.programs.ffmpeg.neededFor).toEqual([
        "visual analysis of simulated videos: rendering their video (VISUAL_ANALYSIS)",
        "visual analysis: keyframes and cuts (VISUAL_ANALYSIS)",
      ]);
      expect(body.programs.tesseract).toMatchObject({
        present: true,
        debianPackage: "tesseract-ocr tesseract-ocr-eng",
        neededFor: ["visual analysis: on-screen text (VISUAL_ANALYSIS)"],
      });
      expect(body.visual).toMatchObject({
        enabled: true,
        maxKeyframes: 12,
        concurrency: 1,
        providers: {
          keyframes: { provider: "ffmpeg", present: true },
          text: { provider: "tesseract", present: true },
          faces: {
            provider: "face-api",
            present: true,
            model: expect.stringMatching(/@vladmandic\/face-api\/model\/tiny_face_detector_model\.bin$/),
          },
        },
      });
      // No SMTP_URL (a fresh machine): mail is kept in the log and the dev mailbox, said here, and the service is ready.
      expect(body.mail).toMatchObject({ configured: false, transport: "log" });
      const line = logLines(api).find((l) => typeof l.msg === "string" && l.msg.startsWith("scrape provider:"));
      expect(line).toMatchObject({ level: 40, msg: expect.stringMatching(/^scrape provider: simulated, because yt-dlp 2023\.03\.04/) });
      expect(api.output()).toMatch(/API listening on port \d+; scrape provider: simulated/);
    } finally {
      await api.stop();
    }
  });
});

describe("the programs the providers need", () => {
  it("simulated media need no program (the transcript comes from captions); yt-dlp media need ffmpeg and pocketsphinx; visual analysis ffmpeg and tesseract", () => {
    const base = { transcribe: "pocketsphinx", analysis: "heuristic", radar: ["catalog"] } as const;
    const needed = (providers: Parameters<typeof programsNeeded>[0], visual = false) => programsNeeded(providers, false, visual);
    expect(needed({ ...base, radar: [...base.radar], scrape: "simulated", media: "simulated" })).toEqual({});
    expect(Object.keys(needed({ ...base, radar: [...base.radar], scrape: "ytdlp", media: "ytdlp" })).sort()).toEqual([
      "ffmpeg",
      "pocketsphinx",
      "ytdlp",
    ]);
    expect(
      Object.keys(needed({ ...base, radar: [...base.radar], transcribe: "openai", scrape: "simulated", media: "ytdlp" })).sort(),
    ).toEqual(["ffmpeg", "ytdlp"]);
    expect(needed({ ...base, radar: ["catalog", "ytdlp"], scrape: "simulated", media: "simulated" })).toEqual({
      ytdlp: ["radar: searching the platforms"],
    });
    expect(Object.keys(needed({ ...base, radar: [...base.radar], scrape: "simulated", media: "simulated" }, true)).sort()).toEqual([
      "ffmpeg",
      "tesseract",
    ]);
  });

  it("with a recent yt-dlp, /readyz lists yt-dlp, ffmpeg and pocketsphinx (present, version, package) and is degraded while one is missing", async () => {
    const ffmpeg = join(dir, "ffmpeg"); // missing at start
    const api = await spawnService("api", {
      YTDLP_PATH: join(PROGRAMS, "yt-dlp-recent"),
      FFMPEG_PATH: ffmpeg,
      POCKETSPHINX_PATH: join(PROGRAMS, "pocketsphinx_continuous"),
      VISUAL_ANALYSIS: "false",
    });
    try {
      const first = await readyz(api);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        status: "degraded",
        providers: { scrape: "ytdlp", media: "ytdlp" },
        providerChoice: { scrape: "found", reason: expect.stringMatching(/is recent \(10 days old\)/) },
      });
      expect(first.body.programs.ytdlp).toMatchObject({
        present: true,
        version: expect.stringMatching(/^\d{4}\.\d{2}\.\d{2}$/),
        debianPackage: "yt-dlp",
        stale: false,
        ageDays: 10,
      });
      expect(first.body.programs.ffmpeg).toEqual({
        path: ffmpeg,
        present: false,
        version: null,
        debianPackage: "ffmpeg",
        neededFor: [expect.stringMatching(/analysis of videos without captions/)],
      });
      expect(first.body.programs.pocketsphinx).toMatchObject({
        present: true,
        version: null,
        debianPackage: "pocketsphinx pocketsphinx-en-us",
      });
      expect(first.body.programs.espeak).toBeNull();
      expect(first.body.degraded).toEqual([
        expect.stringMatching(
          /^ffmpeg \(.*\) is not installed: analysis of videos without captions.* cannot run; install it \(Debian\/Ubuntu: sudo apt-get install -y ffmpeg\)/,
        ),
      ]);
      // Start-up named the missing program and its package.
      expect(logLines(api).find((l) => l.program === "ffmpeg")).toMatchObject({
        level: 40,
        debianPackage: "ffmpeg",
        msg: expect.stringMatching(/sudo apt-get install -y ffmpeg/),
      });
      // Installed while running: the next check sees it.
      await copyFile(join(PROGRAMS, "ffmpeg"), ffmpeg);
      const second = await readyz(api);
      expect(second.body.status).toBe("ready");
      expect(second.body.programs.ffmpeg.present).toBe(true);
      expect(second.body.degraded).toBeUndefined();
    } finally {
      await api.stop();
    }
  });

  it("versions are read at start-up for /readyz", async () => {
    const api = await spawnService("api", {
      SCRAPE_PROVIDER: "ytdlp",
      YTDLP_PATH: join(PROGRAMS, "yt-dlp-recent"),
      FFMPEG_PATH: join(PROGRAMS, "ffmpeg"),
      POCKETSPHINX_PATH: join(PROGRAMS, "pocketsphinx_continuous"),
    });
    try {
      const { body } = await readyz(api);
      expect(body).toMatchObject({ status: "ready", providerChoice: { scrape: "set", reason: null } });
      expect(body.programs.ffmpeg).toMatchObject({ present: true, version: "6.1.1-standin" });
    } finally {
      await api.stop();
    }
  });

  it("a program that cannot be started is named with how to install it (the analysis' failure message)", async () => {
    expect(notInstalled("ffmpeg")).toBe(`ffmpeg is not installed or not on PATH: ${installHint("ffmpeg")}`);
    expect(notInstalled("/opt/bin/pocketsphinx_continuous")).toMatch(/sudo apt-get install -y pocketsphinx pocketsphinx-en-us/);
    expect(notInstalled("yt-dlp")).toMatch(/install a current yt-dlp/);
    expect(notInstalled("/tmp/something-else")).toBe("/tmp/something-else is not installed or not on PATH");
    const error = (await runProgram("media:ytdlp", join(dir, "ffmpeg-missing", "ffmpeg"), ["-version"], { timeoutMs: 5000 }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(/ffmpeg is not installed or not on PATH: install it \(Debian\/Ubuntu: sudo apt-get install -y ffmpeg\)/);
  });
});
