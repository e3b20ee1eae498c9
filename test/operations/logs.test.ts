/**
 * Structured logs carry the request id, the workspace id and the job id, and a job's lines can be
 * followed from the request that queued it to its completion: the real API and worker entry points,
 * each its own process, their JSON logs read from their output.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, gql, newWorkspace, request, stopAll } from "../helpers/api.js";
import { logLines, spawnService, type LogLine, type ServiceProcess } from "../helpers/processes.js";
import { waitUntil } from "../helpers/wait.js";

let apiProcess: ServiceProcess;
let worker: ServiceProcess;
let workspace: { workspaceId: string; key: string };
beforeAll(async () => {
  [apiProcess, worker] = await Promise.all([spawnService("api"), spawnService("worker")]);
  workspace = await newWorkspace();
});
afterAll(async () => {
  await Promise.all([apiProcess?.stop(), worker?.stop()]);
  await stopAll();
});

type Line = LogLine;
const lines = logLines;

const until = <T>(what: string, read: () => T | undefined, timeoutMs = 20_000): Promise<T> =>
  waitUntil(what, read, (value) => value !== undefined, timeoutMs, 100) as Promise<T>;

/** The API's and the worker's lines of one request id, once the job it queued has completed. */
async function chainOf(requestId: string): Promise<{ api: Line[]; jobs: Line[] }> {
  const jobs = await until("the job's completion", () => {
    const mine = lines(worker).filter((l) => l.requestId === requestId);
    return mine.some((l) => l.msg === "job completed") ? mine : undefined;
  });
  const api = await until("the API's access log line", () => {
    const mine = lines(apiProcess).filter((l) => l.requestId === requestId);
    return mine.some((l) => l.msg === "request") ? mine : undefined;
  });
  return { api, jobs };
}

describe("a request's id, from the request to the job it queued", () => {
  it("REST: the X-Request-Id sent is echoed, logged with the workspace, and carried into the scrape job's start and end", async () => {
    const requestId = "trace-rest-0001";
    const r = await request(apiProcess.url!, "POST", "/api/v1/videos", {
      key: workspace.key,
      body: { url: "https://youtu.be/logchain001" },
      headers: { "x-request-id": requestId },
    });
    expect(r.status).toBe(201);
    expect(r.headers.get("x-request-id")).toBe(requestId);

    const { api, jobs } = await chainOf(requestId);
    const access = api.find((l) => l.msg === "request");
    expect(access).toMatchObject({ requestId, workspaceId: workspace.workspaceId, method: "POST", path: "/api/v1/videos", status: 201 });

    const started = jobs.find((l) => l.msg === "job started")!;
    const completed = jobs.find((l) => l.msg === "job completed")!;
    expect(started).toMatchObject({ requestId, workspaceId: workspace.workspaceId, queue: "scrape", job: "scrape-video", attempt: 1 });
    expect(started.jobId).toMatch(new RegExp(`^video-${r.body.data.videoId}-`));
    expect(completed).toMatchObject({ requestId, workspaceId: workspace.workspaceId, queue: "scrape", jobId: started.jobId });
    expect(completed.ms).toEqual(expect.any(Number));
    expect(Date.parse(completed.time)).toBeGreaterThanOrEqual(Date.parse(started.time));
    // Every line of the job names it (none from another job or request slipped in).
    for (const l of jobs) expect(l.jobId, JSON.stringify(l)).toBe(started.jobId);
  });

  it("GraphQL: a mutation's request id reaches the job it queued", async () => {
    const requestId = "trace-graphql-0001";
    const r = await request(apiProcess.url!, "POST", "/graphql", {
      key: workspace.key,
      body: { query: 'mutation Track { trackVideo(url: "https://youtu.be/logchain002") { __typename } }' },
      headers: { "x-request-id": requestId },
    });
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const { api, jobs } = await chainOf(requestId);
    expect(api.find((l) => l.msg === "request")).toMatchObject({ requestId, workspaceId: workspace.workspaceId, path: "/graphql" });
    expect(jobs.find((l) => l.msg === "job started")).toMatchObject({ requestId, workspaceId: workspace.workspaceId, queue: "scrape" });
  });

  it("a request id of its own when none (or a malformed one) is sent; concurrent requests keep their own ids", async () => {
    const c = client(apiProcess.url!, workspace.key);
    const sent = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        request(apiProcess.url!, "POST", "/api/v1/videos", {
          key: workspace.key,
          body: { url: `https://youtu.be/logchain1${String(i).padStart(2, "0")}` },
          headers: i % 2 ? { "x-request-id": "not a valid id!" } : {},
        }),
      ),
    );
    const ids = sent.map((r) => r.headers.get("x-request-id")!);
    expect(new Set(ids).size).toBe(6);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    for (const [i, id] of ids.entries()) {
      const { jobs } = await chainOf(id);
      expect(jobs.find((l) => l.msg === "job started")!.jobId).toMatch(new RegExp(`^video-${sent[i]!.body.data.videoId}-`));
    }
    expect((await c.get("/api/v1/videos?limit=1")).status).toBe(200);
  });

  it("unauthenticated requests are logged with their request id and no workspace", async () => {
    const requestId = "trace-anonymous-0001";
    expect((await request(apiProcess.url!, "GET", "/api/v1/videos", { headers: { "x-request-id": requestId } })).status).toBe(401);
    const line = await until("the access log line", () => lines(apiProcess).find((l) => l.requestId === requestId && l.msg === "request"));
    expect(line.status).toBe(401);
    expect(line.workspaceId).toBeUndefined();
    expect((await gql(apiProcess.url!, null, "{ credits { __typename } }")).status).toBe(401);
  });
});

describe("LOG_CONTEXT=false", () => {
  let plainApi: ServiceProcess;
  let plainWorker: ServiceProcess;
  beforeAll(async () => {
    [plainApi, plainWorker] = await Promise.all([
      spawnService("api", { LOG_CONTEXT: "false" }),
      spawnService("worker", { LOG_CONTEXT: "false" }),
    ]);
  });
  afterAll(() => Promise.all([plainApi?.stop(), plainWorker?.stop()]));

  it("keeps the ids on the access log and the job start/end lines; the job no longer knows its request", async () => {
    const requestId = "trace-plain-0001";
    const r = await request(plainApi.url!, "POST", "/api/v1/videos", {
      key: workspace.key,
      body: { url: "https://youtu.be/logchain900" },
      headers: { "x-request-id": requestId },
    });
    expect(r.status).toBe(201);
    const jobId = (l: Line) => typeof l.jobId === "string" && l.jobId.startsWith(`video-${r.body.data.videoId}-`);
    // Either worker may take the job (both listen to this file's queues): the API queued it without ids.
    const workerLines = () => [...lines(plainWorker), ...lines(worker)];
    const done = await until("the job's completion", () => workerLines().find((l) => jobId(l) && l.msg === "job completed"));
    expect(done).toMatchObject({ queue: "scrape", job: "scrape-video" });
    expect(done.requestId).toBeUndefined();
    expect(workerLines().find((l) => jobId(l) && l.msg === "job started")).toMatchObject({ queue: "scrape" });
    const access = await until("the access log line", () => lines(plainApi).find((l) => l.requestId === requestId && l.msg === "request"));
    expect(access).toMatchObject({ status: 201, path: "/api/v1/videos" });
  });
});
