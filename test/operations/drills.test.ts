/**
 * Fault drills against real processes (src/main/api.ts and src/main/worker.ts spawned as in
 * production) on a PostgreSQL cluster and a Redis server of this file's own (./private-services.ts):
 * the shared ones serve the other test files and are never stopped.
 *
 * (a) PostgreSQL stopped and restarted under load: requests answer 503 SERVICE_UNAVAILABLE while it
 *     is down (never 500), the service recovers by itself, and every video whose tracking was
 *     accepted is scraped (no job lost). (a') A job that meets the outage waits for it without using
 *     its attempts (src/jobs/worker.ts), so a long outage loses none either.
 * (b) Redis killed and restarted: the API answers 503 meanwhile, the workers and the API's event
 *     subscriber reconnect, a GraphQL subscription opened before the crash receives events again,
 *     every job completes and none is left in `active`.
 * (c) A worker SIGKILLed in the middle of a scrape (a yt-dlp stand-in that blocks on its first
 *     run; it ends with the killed worker) and in the middle of an outbound call (the
 *     OpenAI-compatible analysis provider against a stand-in server that never answers its first
 *     request): the job is retried by another worker,
 *     one history point is written, and the analysis is charged exactly once.
 * (d) SIGTERM with requests in flight: they all complete, new connections are refused, /readyz
 *     answers 503 `draining` on a connection still open, and the process exits 0.
 */
import "../setup/visual-on.js"; // first: the visual stage on, as deployed, before the configuration is read
import { execFile } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { createClient } from "graphql-ws";
import pg from "pg";
import WebSocket from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { request, type HttpResult } from "../helpers/api.js";
import { processAlive, spawnService, type ServiceProcess } from "../helpers/processes.js";
import { migratedDatabase, startPostgres, startRedis, type PrivatePostgres, type PrivateRedis } from "./private-services.js";
import { waitFor } from "../helpers/wait.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURE = fileURLToPath(new URL("../fixtures/ytdlp/tiktok-video.json", import.meta.url));
const FIXTURE_VIDEO_ID = "7350269128141550069";

let postgres: PrivatePostgres;
let redisServer: PrivateRedis;
let db: pg.Pool;
let env: Record<string, string>;
let api: ServiceProcess;
let key: string;
let workspaceId: string;
let dir: string;
const workers: ServiceProcess[] = [];

async function query<T extends pg.QueryResultRow = any>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await db.query<T>(text, values)).rows;
}

async function startWorker(extra: Record<string, string> = {}): Promise<ServiceProcess> {
  const w = await spawnService("worker", { ...env, ...extra });
  workers.push(w);
  return w;
}

let seq = 0;
const ttUrl = () => `https://www.tiktok.com/@drill.user/video/${7_400_000_000_000_000_000n + BigInt(++seq)}`;

/** A request that never throws: a refused or cut connection is status 0. */
async function call(method: string, path: string, body?: unknown): Promise<HttpResult> {
  try {
    return await request(api.url!, method, path, { key, body });
  } catch {
    return { status: 0, headers: new Headers(), body: undefined, text: "" };
  }
}

async function videosReady(ids: string[]): Promise<boolean> {
  const rows = await query<{ n: string }>("SELECT count(*) AS n FROM videos WHERE id = ANY($1::uuid[]) AND scrape_status = 'ready'", [ids]);
  return Number(rows[0]!.n) === ids.length;
}

async function scrapeQueueCounts() {
  const connection = new Redis(redisServer.url, { maxRetriesPerRequest: null });
  const q = new Queue("scrape", { connection, prefix: "drill:bull" });
  try {
    return await q.getJobCounts("active", "wait", "delayed", "failed");
  } finally {
    await q.close();
    connection.disconnect();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "drills-"));
  [postgres, redisServer] = await Promise.all([startPostgres(), startRedis()]);
  const url = await migratedDatabase(postgres, "drill");
  db = new pg.Pool({ connectionString: url, max: 3 });
  db.on("error", () => undefined);
  env = {
    DATABASE_URL: url,
    REDIS_URL: redisServer.url,
    REDIS_PREFIX: "drill",
    SCRAPE_PROVIDER: "simulated",
    MEDIA_PROVIDER: "simulated",
    SEED_DEMO: "false",
    RATE_LIMIT_PER_MINUTE: "100000",
    SHUTDOWN_TIMEOUT_MS: "10000",
  };
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["src/cli/index.ts", "workspace", "create", "--name", "Drill", "--plan", "free", "--json"],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
    },
  );
  ({ workspaceId, apiKey: key } = JSON.parse(stdout) as { workspaceId: string; apiKey: string });
  api = await spawnService("api", env);
}, 120_000);

afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop("SIGKILL");
});

afterAll(async () => {
  await api?.stop("SIGKILL");
  await db?.end().catch(() => undefined);
  await Promise.all([postgres?.destroy(), redisServer?.destroy()]);
  await rm(dir, { recursive: true, force: true });
});

describe("fault drills", () => {
  it("(a) PostgreSQL stopped and restarted under load: 503 while down, never 500, recovers by itself, no job lost", async () => {
    await startWorker();
    const accepted: string[] = [];
    const failures: HttpResult[] = [];
    let down = false;
    let during = 0;
    let afterRestart = 0;
    let restarted = false;
    let stop = false;
    const load = async () => {
      while (!stop) {
        const r = accepted.length < 40 ? await call("POST", "/api/v1/videos", { url: ttUrl() }) : await call("GET", "/api/v1/workspace");
        if (r.status === 201) accepted.push(r.body.data.videoId);
        if (r.status >= 500 || r.status === 0) failures.push(r);
        if (down) during++;
        if (restarted && r.status < 300) afterRestart++;
      }
    };
    const loops = [load(), load(), load(), load()];
    await waitFor("load before the fault", () => accepted.length >= 8);

    await postgres.stop();
    down = true;
    await waitFor("20 requests while PostgreSQL is down", () => during >= 20);
    expect(failures.some((f) => f.status === 503)).toBe(true);
    down = false;
    await postgres.start();
    restarted = true;
    await waitFor("requests to succeed again after the restart", () => afterRestart >= 20);
    stop = true;
    await Promise.all(loops);

    // Every refusal was the contract's 503, never a 500 or a cut connection.
    expect(failures.length).toBeGreaterThan(0);
    for (const f of failures) {
      expect(f.status, f.text).toBe(503);
      expect(f.body).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
      expect(f.text).not.toMatch(/at .*\.(ts|js):\d+/); // no stack trace
    }
    // No job lost: every video whose tracking was answered 201 gets scraped.
    await waitFor("every accepted video to be scraped", () => videosReady(accepted), 60_000, 250).catch(async (e: Error) => {
      // Say where the videos not scraped are: their state, error and attempts, and the queue's counts.
      const left = await query(
        "SELECT id, scrape_status, scrape_error, scrape_attempts, next_refresh_at FROM videos WHERE id = ANY($1::uuid[]) AND scrape_status <> 'ready'",
        [accepted],
      );
      throw new Error(`${e.message}\nnot scraped: ${JSON.stringify(left)}\nscrape queue: ${JSON.stringify(await scrapeQueueCounts())}`);
    });
    expect((await query("SELECT 1 FROM tracked_videos WHERE workspace_id = $1", [workspaceId])).length).toBeGreaterThanOrEqual(
      accepted.length,
    );
  }, 90_000);

  it("(a') a job that meets PostgreSQL down waits for it without using its attempts, however long it is away", async () => {
    // Tracked with no worker running: the first scrape waits in the queue.
    const r = await call("POST", "/api/v1/videos", { url: ttUrl() });
    expect(r.status, r.text).toBe(201);
    const videoId: string = r.body.data.videoId;
    await postgres.stop();
    try {
      await startWorker();
      const connection = new Redis(redisServer.url, { maxRetriesPerRequest: null });
      const q = new Queue("scrape", { connection, prefix: "drill:bull" });
      try {
        const job = async () =>
          (await q.getJobs(["wait", "active", "delayed", "failed", "completed"])).find((j) => j.data.videoId === videoId);
        // Three starts against a stopped database: with attempts used, the default five would be down to two.
        await waitFor("the job to meet the outage three times", async () => ((await job())?.attemptsStarted ?? 0) >= 3, 30_000, 100);
        const j = (await job())!;
        expect(j.attemptsMade).toBe(0);
        expect(await j.getState()).not.toBe("failed");
      } finally {
        await q.close();
        connection.disconnect();
      }
    } finally {
      await postgres.start();
    }
    await waitFor("the video to be scraped once PostgreSQL is back", () => videosReady([videoId]), 60_000, 250);
  }, 120_000);

  it("(b) Redis killed and restarted: 503 meanwhile, workers and subscribers reconnect, no job stuck in active, events flow again", async () => {
    await startWorker();
    const seen: { change: string; videoId: string }[] = [];
    const ws = createClient({
      url: api.url!.replace("http", "ws") + "/graphql",
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
      retryAttempts: 0,
      lazy: false,
    });
    ws.subscribe(
      { query: "subscription { trackedVideosChanged { change videoId } }" },
      {
        next: (v: any) => v.data?.trackedVideosChanged && seen.push(v.data.trackedVideosChanged),
        error: () => undefined,
        complete: () => undefined,
      },
    );
    try {
      const tracked: string[] = [];
      const track = async () => {
        const r = await call("POST", "/api/v1/videos", { url: ttUrl() });
        if (r.status === 201) tracked.push(r.body.data.videoId);
        return r;
      };
      // The subscription is live: a tracking reaches it (tracked again until one does, no fixed wait).
      await waitFor(
        "the subscription to receive an event",
        async () => (await track(), seen.some((e) => tracked.includes(e.videoId))),
        15_000,
        200,
      );
      for (let i = 0; i < 5; i++) expect((await track()).status).toBe(201);

      await redisServer.stop();
      const whileDown = await waitFor(
        "a 503 while Redis is down",
        async () => {
          const r = await call("GET", "/api/v1/workspace");
          return r.status >= 500 || r.status === 0 ? r : null;
        },
        15_000,
      );
      expect(whileDown.status, whileDown.text).toBe(503);
      expect(whileDown.body).toMatchObject({ code: "SERVICE_UNAVAILABLE" });

      await redisServer.start();
      await waitFor("the API to answer again", async () => (await call("GET", "/api/v1/workspace")).status === 200, 20_000, 200);
      // The subscription opened before the crash receives the events of trackings made after it.
      const before = new Set(tracked);
      await waitFor(
        "an event after the restart on the old subscription",
        async () => {
          const r = await track();
          expect([201, 503]).toContain(r.status);
          return seen.some((e) => !before.has(e.videoId) && tracked.includes(e.videoId));
        },
        20_000,
        300,
      );

      // The workers reconnected: every tracked video is scraped, and no job is left in `active`.
      await waitFor("every tracked video to be scraped", () => videosReady(tracked), 60_000, 250);
      await waitFor("no scrape job in active", async () => (await scrapeQueueCounts()).active === 0, 30_000, 250);
    } finally {
      await ws.dispose();
    }
  }, 90_000);

  it("(c) a worker SIGKILLed in the middle of a scrape: another worker retries it, one history point is written", async () => {
    const started = join(dir, "ytdlp-started");
    const runs = join(dir, "ytdlp-runs");
    const ytdlp = join(dir, "ytdlp");
    // The first scrape of the fixture's video records its pid and blocks; later ones print the fixture.
    await writeFile(
      ytdlp,
      `#!/bin/sh
if [ "$1" = "--version" ]; then echo 2099.01.01; exit 0; fi
for last; do :; done
case "$last" in
  *${FIXTURE_VIDEO_ID}*) echo run >> '${runs}'
    if [ ! -e '${started}' ]; then echo $$ > '${started}'; sleep 300; fi
    cat '${FIXTURE}' ;;
  *) echo "ERROR: not this drill's video" >&2; exit 1 ;;
esac
`,
    );
    await chmod(ytdlp, 0o755);
    const scraper = { SCRAPE_PROVIDER: "ytdlp", YTDLP_PATH: ytdlp, SCRAPE_LOCK_MS: "5000", SCRAPE_STALLED_INTERVAL_MS: "1000" };
    const first = await startWorker(scraper);
    const r = await call("POST", "/api/v1/videos", { url: `https://www.tiktok.com/@chef.marta/video/${FIXTURE_VIDEO_ID}` });
    expect(r.status, r.text).toBe(201);
    const videoId: string = r.body.data.videoId;
    await waitFor("the scrape to be inside yt-dlp", () => existsSync(started) && readFile(started, "utf8").then((s) => s.trim() !== ""));

    await startWorker(scraper); // ready to take the job over once its lock expires
    await first.stop("SIGKILL");
    // The killed worker's yt-dlp ends with it (its parent-death signal, src/providers/process.ts), not at its own timeout.
    const standIn = Number((await readFile(started, "utf8")).trim());
    await waitFor("the killed worker's yt-dlp to end with it", () => !processAlive(standIn), 5_000);

    await waitFor("the retried scrape to store the video", () => videosReady([videoId]), 60_000, 250);
    const [video] = await query("SELECT view_count::text AS views FROM videos WHERE id = $1", [videoId]);
    expect(video.views).toBe("2841533");
    expect(await query("SELECT 1 FROM video_metric_points WHERE video_id = $1", [videoId])).toHaveLength(1);
    expect((await readFile(runs, "utf8")).trim().split("\n")).toHaveLength(2);
  }, 90_000);

  it("(c) a worker SIGKILLed in the middle of an outbound call: the analysis is retried and charged exactly once", async () => {
    let requests = 0;
    const model: Server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        requests++;
        if (requests === 1) return; // never answered: its worker is killed meanwhile
        const answer = {
          hookStyle: "question",
          hookPhrase: "Why?",
          ugcFit: "high",
          ugcConfidence: 80,
          ctaType: "none",
          ctaDestinationUrl: null,
          hookSource: "speech",
          reasons: ["hook: a question said first"],
        };
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ choices: [{ message: { role: "assistant", content: JSON.stringify(answer) } }] }));
      });
    });
    await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
    const analysisEnv = {
      ANALYSIS_PROVIDER: "openai",
      OPENAI_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
      OPENAI_TIMEOUT_MS: "300000",
      // Long enough that the worker taking over keeps its lock on a loaded machine (a second stall fails the job:
      // BullMQ's maxStalledCount is 1; at 8 s it failed once with load average 9 on 2 cores), short enough that the
      // killed worker's job is taken over well within the wait below.
      ANALYSIS_LOCK_MS: "15000",
      ANALYSIS_STALLED_INTERVAL_MS: "1000",
    };
    try {
      const [video] = await query<{ id: string }>(
        "SELECT v.id FROM videos v JOIN tracked_videos t ON t.video_id = v.id WHERE t.workspace_id = $1 AND v.scrape_status = 'ready' AND v.data_source = 'simulated' AND v.description <> '' LIMIT 1",
        [workspaceId],
      );
      const first = await startWorker(analysisEnv);
      const queued = await call("POST", `/api/v1/video-analysis/${video!.id}/analyze`);
      expect(queued.status, queued.text).toBe(202);
      await waitFor("the worker to call the model", () => requests === 1);
      await startWorker(analysisEnv); // ready to take the job over once its lock expires
      await first.stop("SIGKILL");
      const done = await waitFor(
        "the analysis to finish",
        async () => {
          const [a] = await query("SELECT status::text, analysis_provider FROM video_analyses WHERE video_id = $1 AND workspace_id = $2", [
            video!.id,
            workspaceId,
          ]);
          return a && ["completed", "failed"].includes(a.status) ? a : null;
        },
        90_000,
        200,
      );
      expect(done).toMatchObject({ status: "completed", analysis_provider: "openai" });
      expect(requests).toBe(2);
      const charges = await query(
        "SELECT amount FROM credit_ledger WHERE workspace_id = $1 AND kind = 'charge' AND idempotency_key LIKE 'reservation:%'",
        [workspaceId],
      );
      expect(charges.map((c) => c.amount)).toEqual([-5]);
      expect(await query("SELECT status FROM credit_reservations WHERE workspace_id = $1", [workspaceId])).toEqual([
        { status: "captured" },
      ]);
    } finally {
      model.closeAllConnections();
      await new Promise<void>((resolve) => model.close(() => resolve()));
    }
    // Two worker processes, a face model and a real lock expiry: over 90 s once with load average 10 on 2 cores.
  }, 150_000);

  it("(d) SIGTERM with requests in flight: they all complete, new ones are refused, /readyz says draining, exit 0", async () => {
    const draining = await spawnService("api", env);
    const port = Number(new URL(draining.url!).port);
    // Three requests in flight: headers sent with `Expect: 100-continue`; the server's "100 Continue"
    // says the request reached its handler. The body follows after the signal.
    const bodies = [0, 1, 2].map((i) => JSON.stringify({ name: `in flight ${i}` }));
    const sockets = bodies.map((body) => {
      const s = connect(port, "127.0.0.1");
      let text = "";
      s.on("data", (d: Buffer) => (text += d.toString()));
      const ended = new Promise<string>((resolve) => s.on("close", () => resolve(text)));
      s.write(
        `POST /api/v1/folders HTTP/1.1\r\nHost: drill\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      return { s, ended, body, text: () => text };
    });
    await waitFor(
      "the three requests to reach the handler",
      () => sockets.every((x) => x.text().startsWith("HTTP/1.1 100 Continue")),
      10_000,
      20,
    );
    const exited = new Promise<number | null>((resolve) => draining.child.once("exit", (code) => resolve(code)));
    draining.child.kill("SIGTERM");

    // New connections are refused.
    await waitFor(
      "new connections to be refused",
      async () => {
        try {
          await fetch(`${draining.url}/healthz`);
          return false;
        } catch {
          return true;
        }
      },
      5000,
      50,
    );
    // The requests in flight complete; /readyz, pipelined after one of them, answers 503 draining.
    for (const [i, { s, body }] of sockets.entries()) {
      s.write(body + (i === 0 ? "GET /readyz HTTP/1.1\r\nHost: drill\r\n\r\n" : ""));
    }
    // The server closes each connection: after the 503 (Connection: close), or at the end of the drain.
    const answers = await Promise.all(sockets.map(({ ended }) => ended));
    for (const a of answers) expect(a).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
    expect(answers[0]).toMatch(/HTTP\/1\.1 503 [\s\S]*"status":"draining"/);
    expect(await exited).toBe(0);
    expect(draining.output()).toMatch(/shut down/);
    expect(await query("SELECT 1 FROM folders WHERE workspace_id = $1 AND name LIKE 'in flight %'", [workspaceId])).toHaveLength(3);
  }, 90_000);
});
