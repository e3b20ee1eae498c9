/**
 * Run by `npm ci` (the postinstall, before the Prisma client and the dashboard are built): the checks npm cannot make
 * truthfully on this project (README, "Install: what npm prints and why").
 *
 * npm compares each package's `engines.node` with the Node.js that runs npm itself: the system's, which runs none of
 * them. This compares them with the Node.js that does: the one running this script, node_modules/.bin/node (the pinned
 * Node.js 24), which npm scripts put first on the PATH. It also says when the npm that ran the install is older than
 * package.json's `devEngines` asks, since an older npm runs every dependency's install script, denied ones included.
 * It prints nothing when all is well and never fails the install (test/operations/install.test.ts fails instead).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface EngineMismatch {
  /** Where the package is installed, relative to the checkout (`node_modules/…`). */
  path: string;
  version: string;
  /** Its `engines.node`. */
  wants: string;
}

interface LockEntry {
  version?: string;
  engines?: unknown;
  link?: boolean;
}

/** Installed packages of the lock file (present on disk: another platform's optional packages are not) whose
 *  `engines.node` does not admit `nodeVersion`. */
export function engineMismatches(nodeVersion: string, root = ROOT): EngineMismatch[] {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const out: EngineMismatch[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const wants = (entry.engines as { node?: unknown } | undefined)?.node;
    if (!path || entry.link || typeof wants !== "string" || !existsSync(join(root, path))) continue;
    if (!semver.satisfies(nodeVersion, wants, { includePrerelease: true })) out.push({ path, version: entry.version ?? "?", wants });
  }
  return out;
}

/** The npm version that runs this script (from `npm_config_user_agent`, `npm/11.19.1 node/v20.20.2 …`) when it is
 *  outside `wanted`; null when it fits or is unknown (not run by npm). */
export function npmOutside(wanted: string, userAgent = process.env.npm_config_user_agent ?? ""): string | null {
  const version = /^npm\/(\S+)/.exec(userAgent)?.[1];
  return version && !semver.satisfies(version, wanted) ? version : null;
}

function report(): void {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devEngines?: { packageManager?: { version?: string } } };
  const lines: string[] = [];
  for (const m of engineMismatches(process.version)) {
    lines.push(`${m.path} ${m.version} wants Node.js ${m.wants}; the service runs on ${process.version}`);
  }
  const npmWanted = pkg.devEngines?.packageManager?.version;
  const npm = npmWanted ? npmOutside(npmWanted) : null;
  if (npm) {
    lines.push(
      `npm ${npm} ran this install; package.json's allowScripts (which dependencies' install scripts run) needs npm ${npmWanted}: ` +
        "older npm runs them all (sudo npm install -g npm@11)",
    );
  }
  for (const line of lines) console.warn(`install check: ${line}`);
}

if (import.meta.main) report();
