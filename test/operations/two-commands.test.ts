/**
 * The README's first block is the whole set-up of a fresh Debian machine: one `sudo apt-get install` line, then
 * `npm ci && npm start` (the tests: `npm test`). This checks that the line names the Debian package of every program
 * and file the service and its tests look for: the programs `/readyz` reports (src/config.ts, PROGRAMS), the servers
 * this checkout starts when none is set (src/main/local-services.ts), tesseract's language data the on-screen text is
 * read with (src/providers/vision/ocr.ts), and the programs and files the tests use, which a
 * scan of the sources keeps complete; and that CI (.ci/run) installs with that very line.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PROGRAMS } from "../../src/config.js";
import { FACE_IMAGE, FACE_IMAGE_PACKAGE } from "../../src/providers/media/render-video.js";
import { TESSERACT_LANGUAGES } from "../../src/providers/vision/ocr.js";
import { languagePackages } from "../../src/providers/vision/tesseract.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const readme = readFileSync(join(ROOT, "README.md"), "utf8");

/** The README's first fenced block, its lines. */
function firstBlock(markdown: string): string[] {
  const block = /^```[a-z]*\n([\s\S]*?)^```/m.exec(markdown);
  return (block?.[1] ?? "").split("\n").filter((line) => line.trim() !== "");
}

const packagesOf = (line: string) =>
  line.split(/\s+/).filter((word) => !["sudo", "apt-get", "install"].includes(word) && !word.startsWith("-"));

/** System files the code and the tests read (by path prefix), and their Debian packages. */
const SYSTEM_FILES: Record<string, string> = {
  [FACE_IMAGE]: FACE_IMAGE_PACKAGE, // the face of simulated videos (src/providers/media/render-video.ts)
  "/usr/share/fonts/truetype/dejavu/": "fonts-dejavu-core", // the font of their on-screen text
  "/usr/share/pocketsphinx/test/data/": "pocketsphinx-testdata", // real recorded speech (test/fixtures/media/server.ts)
  "/usr/bin/chromium": "chromium", // the dashboard's browser tests (test/web/harness.ts)
  "/usr/lib/postgresql": "postgresql", // PostgreSQL's server programs: this checkout's own, and the tests' private ones
  "/usr/bin/yt-dlp": "yt-dlp", // a path the yt-dlp tests name
};

/** Programs the tests run themselves (spawn, execFile …), and their Debian packages; null: the base system or Node.js. */
const TEST_PROGRAMS: Record<string, string | null> = {
  promtool: "prometheus", // test/operations/metrics.test.ts
  ffmpeg: "ffmpeg",
  ffprobe: "ffmpeg",
  "espeak-ng": "espeak-ng", // other languages spoken for the speech gate (test/providers/transcription-pocketsphinx.test.ts, test/analysis/missing-streams-e2e.test.ts)
  "yt-dlp": "yt-dlp",
  "redis-server": "redis-server", // private and cluster Redis servers (test/operations/private-services.ts, test/helpers/redis-cluster.ts)
  "redis-cli": "redis-server", // redis-tools, which redis-server depends on
  psql: "postgresql",
  initdb: "postgresql",
  pg_ctl: "postgresql",
  npm: null,
  npx: null,
  bash: null,
  id: null,
  runuser: null,
  stat: null,
};

/** Every package the service, its servers and its tests need. */
const NEEDED = new Set([
  ...Object.values(PROGRAMS).flatMap((p) => p.debianPackage.split(" ")),
  "postgresql",
  "redis-server", // src/main/local-services.ts
  ...Object.values(SYSTEM_FILES),
  ...Object.values(TEST_PROGRAMS).filter((p): p is string => p !== null),
  ...TESSERACT_LANGUAGES.flatMap(languagePackages), // the language data the on-screen text is read with
]);

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.includes("generated"))
    .map((f) => join(dir, f));
}

describe("the README's two commands", () => {
  it("are its first block: one apt-get line, then npm ci && npm start", () => {
    const lines = firstBlock(readme);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^sudo apt-get install -y (--no-install-recommends )?[a-z0-9.+ -]+$/);
    expect(lines[1]).toBe("npm ci && npm start");
    expect(readme).toMatch(/the tests are `npm test`/);
  });

  it("install the Debian package of every program and file the service and its tests look for", () => {
    const listed = new Set(packagesOf(firstBlock(readme)[0] ?? ""));
    expect([...NEEDED].filter((p) => !listed.has(p))).toEqual([]);
  });

  it("know every program the tests start and every system file the code reads (a new one is added to the lists above)", () => {
    const started = new Set<string>();
    const paths = new Set<string>();
    for (const file of [...sources("test"), ...sources("src")]) {
      const text = readFileSync(join(ROOT, file), "utf8");
      if (file.startsWith("test")) {
        for (const m of text.matchAll(/\b(?:spawnSync|execFileSync|spawn|execFile|run|pgRun)\(\s*"([A-Za-z0-9_.-]+)"/g)) started.add(m[1]!);
      }
      for (const m of text.matchAll(/"(\/usr\/(?:bin|lib|share)\/[^"$]*)/g)) paths.add(m[1]!);
    }
    expect([...started].filter((p) => !(p in TEST_PROGRAMS))).toEqual([]);
    expect([...paths].filter((p) => !Object.keys(SYSTEM_FILES).some((known) => p.startsWith(known)))).toEqual([]);
    // The scan sees what the lists name (so that it would see a new one).
    expect(started).toContain("promtool");
    expect(paths).toContain("/usr/share/pocketsphinx/test/data/goforward.raw");
  });

  it("are what CI runs: .ci/run installs with the README's line, then runs npm ci, npm start and npm test", () => {
    // .ci/readme-install-line prints the line .ci/run installs with (and nothing else: it is safe to run here).
    const line = execFileSync(join(ROOT, ".ci/readme-install-line"), { encoding: "utf8" }).trim();
    expect(line).toBe(firstBlock(readme)[0]);
    const ci = readFileSync(join(ROOT, ".ci/run"), "utf8");
    expect(ci).toMatch(/install_line="\$\(\.ci\/readme-install-line\)"/);
    expect(ci).toMatch(/\nnpm ci\n[\s\S]*npm start[\s\S]*npm test/);
  });
});
