/**
 * A stalled backing service (SIGSTOP: connections stay open, nothing answers) under the real API process
 * (src/main/api.ts), on a PostgreSQL cluster and a Redis server of this file's own (./private-services.ts;
 * the shared ones are never stopped). With bounded waits (REDIS_COMMAND_TIMEOUT_MS, DATABASE_CONNECT_TIMEOUT_MS,
 * DATABASE_QUERY_TIMEOUT_MS; shorter here than their defaults) a request answers 503 SERVICE_UNAVAILABLE with
 * Retry-After within a few seconds (GraphQL: the same code and `retryAfter`), instead of waiting for the
 * stall to end; once the service answers again, so do requests, with no restart.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, type HttpResult } from "../helpers/api.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import { waitFor } from "../helpers/wait.js";
import { migratedDatabase, startPostgres, startRedis, type PrivatePostgres, type PrivateRedis } from "./private-services.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

let postgres: PrivatePostgres;
let redisServer: PrivateRedis;
let api: ServiceProcess;
let key: string;

beforeAll(async () => {
  [postgres, redisServer] = await Promise.all([startPostgres(), startRedis()]);
  const url = await migratedDatabase(postgres, "stalls");
  const env = {
    DATABASE_URL: url,
    REDIS_URL: redisServer.url,
    REDIS_PREFIX: "stalls",
    SEED_DEMO: "false",
    // Shorter than the defaults (2 s, 3 s, 5 s, 6 s), so the file stays quick; not so short that a loaded machine's
    // ordinary request runs into them.
    REDIS_COMMAND_TIMEOUT_MS: "1500",
    DATABASE_CONNECT_TIMEOUT_MS: "1500",
    DATABASE_STATEMENT_TIMEOUT_MS: "2000",
    DATABASE_QUERY_TIMEOUT_MS: "2500",
  };
  const [{ stdout }, started] = await Promise.all([
    promisify(execFile)(process.execPath, ["src/cli/index.ts", "workspace", "create", "--name", "Stalls", "--plan", "free", "--json"], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    }),
    spawnService("api", env),
  ]);
  ({ apiKey: key } = JSON.parse(stdout) as { apiKey: string });
  api = started;
}, 60_000);

afterAll(async () => {
  await api?.stop("SIGKILL");
  await Promise.all([postgres?.destroy(), redisServer?.destroy()]);
});

/** The answer and how long it took. */
async function timed(fn: () => Promise<HttpResult>): Promise<{ r: HttpResult; ms: number }> {
  const started = performance.now();
  const r = await fn();
  return { r, ms: performance.now() - started };
}

const restWorkspace = () => request(api.url!, "GET", "/api/v1/workspace", { key });
const gqlWorkspace = () => request(api.url!, "POST", "/graphql", { key, body: { query: "{ workspace { id } }" } });

function expectUnavailable({ r, ms }: { r: HttpResult; ms: number }, withinMs: number) {
  expect(r.status, r.text).toBe(503);
  expect(r.body).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  expect(r.headers.get("retry-after")).toBe("5");
  expect(ms).toBeLessThan(withinMs);
}

function expectGqlUnavailable({ r, ms }: { r: HttpResult; ms: number }, withinMs: number) {
  const codes = (r.body?.errors ?? []).map((e: any) => e.extensions?.code);
  expect(codes, r.text).toContain("SERVICE_UNAVAILABLE");
  const err = r.body.errors.find((e: any) => e.extensions?.code === "SERVICE_UNAVAILABLE");
  expect(err.extensions.retryAfter ?? Number(r.headers.get("retry-after"))).toBe(5);
  expect(ms).toBeLessThan(withinMs);
}

/** Before the fault: the API answers (its first requests open its connections, slower on a loaded machine). */
const answering = () => waitFor("the API to answer 200 before the fault", async () => (await restWorkspace()).status === 200, 30_000, 200);

describe("a stalled dependency gives a quick 503, not a held request", () => {
  it("Redis stopped (SIGSTOP): REST and GraphQL answer 503 with Retry-After within the command timeout; recovery without restart", async () => {
    await answering();
    redisServer.pause();
    try {
      const [rest, gql] = await Promise.all([timed(restWorkspace), timed(gqlWorkspace)]);
      expectUnavailable(rest, 5_000); // REDIS_COMMAND_TIMEOUT_MS: 1.5 s a command
      expectGqlUnavailable(gql, 5_000);
    } finally {
      redisServer.resume();
    }
    await waitFor("requests to succeed again", async () => (await restWorkspace()).status === 200, 10_000, 200);
  });

  it("PostgreSQL stopped (SIGSTOP, every backend): REST and GraphQL answer 503 with Retry-After within the query timeout", async () => {
    await answering();
    await postgres.pause();
    try {
      const [rest, gql] = await Promise.all([timed(restWorkspace), timed(gqlWorkspace)]);
      expectUnavailable(rest, 6_000); // DATABASE_QUERY_TIMEOUT_MS: 2.5 s (a new connection: DATABASE_CONNECT_TIMEOUT_MS, 1.5 s)
      expectGqlUnavailable(gql, 6_000);
    } finally {
      await postgres.resume();
    }
    await waitFor("requests to succeed again", async () => (await restWorkspace()).status === 200, 10_000, 200);
  });
});
