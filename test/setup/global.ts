/**
 * Runs once per `npm test`: chooses where PostgreSQL and Redis are (./services.ts: the set or default addresses, or
 * this checkout's own servers, which it starts), builds this run's template database with every migration applied
 * (through the real `prisma migrate deploy`, as `npm start` does) and removes databases left by earlier runs. Test
 * files learn the servers and the template's name through vitest's provide/inject.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { dropDatabase, dropStaleDatabases, templateName, urlFor, withAdmin } from "./db-admin.js";
import { dropKeysUnder, keysUnder, runKeyPrefix } from "./redis-keys.js";
import { chooseTestServices } from "./services.js";

declare module "vitest" {
  export interface ProvidedContext {
    templateDb: string;
    runPid: number;
    /** This run's id in Redis key prefixes (test/setup/redis-keys.ts). */
    runId: string;
    /** The servers the run uses (./services.ts): PostgreSQL's `postgres` database as a superuser, and Redis. */
    services: { adminUrl: string; redisUrl: string };
  }
}

export default async function setup(project: TestProject) {
  const services = await chooseTestServices();
  for (const c of [services.postgres, services.redis]) console.log(c.line);
  project.provide("services", { adminUrl: services.postgres.url, redisUrl: services.redis.url });
  await dropStaleDatabases();
  const template = templateName(process.pid);
  await dropDatabase(template);
  await withAdmin((c) => c.query(`CREATE DATABASE "${template}"`));
  try {
    execFileSync("npx", ["prisma", "migrate", "deploy"], {
      env: { ...process.env, DATABASE_URL: urlFor(template) },
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (e) {
    const err = e as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`prisma migrate deploy failed on the test template:\n${err.stdout?.toString() ?? ""}\n${err.stderr?.toString() ?? ""}`);
  }
  project.provide("templateDb", template);
  project.provide("runPid", process.pid);
  const runId = `${process.pid}x${randomBytes(3).toString("hex")}`;
  project.provide("runId", runId);
  return async () => {
    try {
      await teardown(template, runId);
    } finally {
      for (const line of await services.release()) console.log(line);
    }
  };
}

async function teardown(template: string, runId: string): Promise<void> {
  await dropDatabase(template);
  // Every test file removes its Redis keys (test/setup/per-file.ts): any left under this run's prefixes is a leak
  // (a process or timer that outlived its file). They are removed, and the run fails, naming the prefixes.
  const left = await keysUnder(runKeyPrefix(runId));
  if (left.length > 0) {
    const byPrefix = new Map<string, number>();
    for (const key of left) {
      const prefix = key.replace(/^\{/, "").split(":")[0]!;
      byPrefix.set(prefix, (byPrefix.get(prefix) ?? 0) + 1);
    }
    await dropKeysUnder(runKeyPrefix(runId));
    // vitest reports an error thrown here ("error during close") but keeps the exit status: fail it too.
    process.exitCode = 1;
    const list = [...byPrefix].map(([p, n]) => `${p}: ${n}`).join(", ");
    throw new Error(
      `Redis keys of this test run were left behind (${left.length}; by prefix: ${list}), e.g. ${left.slice(0, 5).join(", ")}`,
    );
  }
}
