/**
 * What an operator reads while Redis is down: the real worker and API processes (src/main/worker.ts,
 * src/main/api.ts) on a Redis server of this file's own (./private-services.ts), killed for a few seconds
 * while requests keep arriving, then started again. Each process logs the outage once when it starts
 * (`error`, "redis unavailable"), a count while it lasts (`warn`, "redis still unavailable", every
 * OUTAGE_LOG_INTERVAL_MS) and once when it ends ("redis available again"): not a line per reconnection
 * attempt of every connection, nor an error with a stack trace per refused request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newWorkspace, request, stopAll } from "../helpers/api.js";
import { logLines, spawnService, type LogLine, type ServiceProcess } from "../helpers/processes.js";
import { waitFor } from "../helpers/wait.js";
import { startRedis, type PrivateRedis } from "./private-services.js";

let redisServer: PrivateRedis;
let worker: ServiceProcess;
let api: ServiceProcess;
let key: string;

beforeAll(async () => {
  redisServer = await startRedis();
  const env = { REDIS_URL: redisServer.url, LOG_FORMAT: "json", OUTAGE_LOG_INTERVAL_MS: "1000" };
  [worker, api, { key }] = await Promise.all([spawnService("worker", env), spawnService("api", env), newWorkspace()]);
});

afterAll(async () => {
  await Promise.all([worker?.stop("SIGKILL"), api?.stop("SIGKILL")]);
  await redisServer?.destroy();
  await stopAll();
});

const after = (p: ServiceProcess, from: number): LogLine[] => logLines(p).slice(from);
const named = (lines: LogLine[], msg: string) => lines.filter((l) => l.msg === msg);

describe("a Redis outage in the logs", () => {
  it("once when it starts, a count while it lasts, once when it ends; no line per attempt or per request", async () => {
    const [workerFrom, apiFrom] = [logLines(worker).length, logLines(api).length];
    await redisServer.stop();
    const refused: number[] = [];
    const until = Date.now() + 4000;
    while (Date.now() < until) {
      const r = await request(api.url!, "GET", "/api/v1/workspace", { key });
      refused.push(r.status);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(refused.length).toBeGreaterThanOrEqual(3);
    expect(new Set(refused)).toEqual(new Set([503]));
    await redisServer.start();
    for (const [p, from] of [
      [worker, workerFrom],
      [api, apiFrom],
    ] as const) {
      await waitFor("the end of the outage in the log", () => named(after(p, from), "redis available again").length > 0, 10_000);
      const lines = after(p, from);
      const started = named(lines, "redis unavailable");
      expect(started).toHaveLength(1);
      expect(started[0]!.level).toBe(50);
      const counts = named(lines, "redis still unavailable");
      expect(counts.length).toBeGreaterThanOrEqual(2);
      expect(counts.at(-1)!.failures).toBeGreaterThan(counts[0]!.failures);
      const ended = named(lines, "redis available again");
      expect(ended).toHaveLength(1);
      expect(ended[0]!.failures).toBeGreaterThanOrEqual(counts.at(-1)!.failures);
      // Everything at warn or above: the start, the counts (one a second over about 4-5 s), the end; a job or two may fail meanwhile.
      const loud = lines.filter((l) => l.level >= 40);
      expect(loud.length, JSON.stringify(loud.map((l) => l.msg))).toBeLessThanOrEqual(12);
      expect(lines.filter((l) => typeof l.err === "object" && /\n\s+at /.test(l.err?.stack ?? ""))).toEqual([]);
    }
  });
});
