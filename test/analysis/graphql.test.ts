/**
 * GraphQL video analysis: analyzeVideo / videoAnalysis through the same services as REST, and the
 * analysisStatusChanged subscription over graphql-ws and SSE, fed by a worker in another process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import { advance, complete, loadAnalysis } from "../../src/domain/analysis/service.js";
import { announce } from "../../src/domain/analysis/events.js";
import { getBalance } from "../../src/domain/credits/service.js";
import { prisma } from "../../src/infra/db.js";
import type { RunningApi } from "../../src/main/server.js";
import { CTA_TYPE_VALUES, HOOK_STYLE_VALUES, UGC_FIT_VALUES } from "../../src/domain/analysis/vocabulary.js";
import { analysisCharges, leaveCredits, trackedVideo, waitFor, waitForStatus } from "./fixtures.js";

let api: RunningApi;
let worker: ServiceProcess;
beforeAll(async () => {
  api = await startTestApi();
  worker = await spawnService("worker");
});
afterAll(async () => {
  await worker?.stop();
  await stopAll(api);
});

const SUBSCRIPTION = `subscription($videoId: ID!) { analysisStatusChanged(videoId: $videoId) { analysisId videoId status error at } }`;
const ANALYZE = `mutation($videoId: ID!, $force: Boolean) { analyzeVideo(videoId: $videoId, force: $force) { analysisId videoId status outcome message } }`;
const READ = `query($videoId: ID!) { videoAnalysis(videoId: $videoId) { analysisId: uuid status error transcript segments { start end text } transcriptSource hookStyle hookPhrase ugcFit ugcConfidence ctaType ctaDestinationUrl completedAt } }`;

function wsClient(key: string): Client {
  return createClient({
    url: api.url.replace("http", "ws") + "/graphql",
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
  });
}

/** Collects the statuses a graphql-ws subscriber receives until `until` says stop. */
function collectWs(c: Client, videoId: string, until: (statuses: string[]) => boolean) {
  const statuses: string[] = [];
  const errors: unknown[] = [];
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  const stop = c.subscribe(
    { query: SUBSCRIPTION, variables: { videoId } },
    {
      next: (v: any) => {
        if (v.errors) errors.push(v.errors);
        else statuses.push(v.data.analysisStatusChanged.status);
        if (until(statuses) || v.errors) resolveDone();
      },
      error: (e) => {
        errors.push(e);
        resolveDone();
      },
      complete: () => resolveDone(),
    },
  );
  return { statuses, errors, done, stop };
}

/** An SSE subscriber (Yoga: POST /graphql with Accept: text/event-stream). */
async function collectSse(key: string, videoId: string, until: (statuses: string[]) => boolean) {
  const controller = new AbortController();
  const res = await fetch(`${api.url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ query: SUBSCRIPTION, variables: { videoId } }),
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
  const statuses: string[] = [];
  const done = (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) return;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block.split("\n").find((l) => l.startsWith("data:"));
          if (!data || !/^event: next/m.test(block)) continue;
          const payload = JSON.parse(data.slice(5));
          statuses.push(payload.data.analysisStatusChanged.status);
          if (until(statuses)) return;
        }
      }
    } finally {
      controller.abort();
    }
  })().catch((e) => {
    if ((e as Error).name !== "AbortError") throw e;
  });
  return { statuses, done };
}

const ended = (s: string[]) => s.includes("COMPLETED") || s.includes("FAILED");
const FULL_SEQUENCE = ["PENDING", "DOWNLOADING", "TRANSCRIBED", "ANALYZING", "COMPLETED"];

describe("GraphQL video analysis", () => {
  it("graphql-ws and SSE subscribers receive the full ordered sequence from a worker in another process", async () => {
    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId);
    const c = wsClient(ws.key);
    const viaWs = collectWs(c, videoId, ended);
    const viaSse = await collectSse(ws.key, videoId, ended);
    await new Promise((r) => setTimeout(r, 300)); // both subscriptions reach Redis

    const r = await gql(api.url, ws.key, ANALYZE, { videoId });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.analyzeVideo).toMatchObject({
      videoId,
      status: "PENDING",
      outcome: "QUEUED",
      message: expect.stringMatching(/queued/i),
    });

    await Promise.race([
      Promise.all([viaWs.done, viaSse.done]),
      new Promise((_, rej) => setTimeout(() => rej(new Error("no end state")), 60_000)),
    ]);
    expect(viaWs.errors).toEqual([]);
    expect(viaWs.statuses).toEqual(FULL_SEQUENCE);
    expect(viaSse.statuses).toEqual(FULL_SEQUENCE);
    viaWs.stop();
    await c.dispose();

    const read = await gql(api.url, ws.key, READ, { videoId });
    expect(read.body.data.videoAnalysis).toMatchObject({
      analysisId: r.body.data.analyzeVideo.analysisId,
      status: "COMPLETED",
      error: null,
      transcriptSource: "captions",
      hookStyle: "QUESTION",
      ugcFit: expect.stringMatching(/^(HIGH|MEDIUM|LOW)$/),
      ctaType: expect.stringMatching(/^(FOLLOW|LINK_IN_BIO)$/),
    });
    expect(read.body.data.videoAnalysis.segments.length).toBeGreaterThan(0);
    expect(await analysisCharges(ws.workspaceId)).toEqual([-5]);

    // Already completed; then force (the worker in the other process runs the fresh one).
    const again = await gql(api.url, ws.key, ANALYZE, { videoId });
    expect(again.body.data.analyzeVideo).toMatchObject({ status: "COMPLETED", outcome: "ALREADY_COMPLETED" });
    const forced = await gql(api.url, ws.key, ANALYZE, { videoId, force: true });
    expect(forced.body.data.analyzeVideo).toMatchObject({ status: "PENDING", outcome: "QUEUED" });
    expect(forced.body.data.analyzeVideo.analysisId).not.toBe(r.body.data.analyzeVideo.analysisId);
    const inProgress = await gql(api.url, ws.key, ANALYZE, { videoId, force: true });
    expect(inProgress.body.data.analyzeVideo).toMatchObject({
      analysisId: forced.body.data.analyzeVideo.analysisId,
      outcome: "IN_PROGRESS",
    });
    await waitForStatus(ws.workspaceId, videoId, ["completed"]);
    expect(await analysisCharges(ws.workspaceId)).toEqual([-5, -5]);
  });

  it("a late subscriber gets the current state first, then only newer states, each once", async () => {
    const ws = await newWorkspace();
    const videoId = await trackedVideo(ws.workspaceId);
    // An analysis already at `transcribed`, moved on by the domain functions from this process.
    const a = await prisma.videoAnalysis.create({
      data: { workspaceId: ws.workspaceId, videoId, status: "transcribed", transcript: "hello", segments: [] },
    });
    const c = wsClient(ws.key);
    const sub = collectWs(c, videoId, ended);
    await waitFor("the current state", async () => sub.statuses.length > 0);
    expect(sub.statuses).toEqual(["TRANSCRIBED"]);
    // Stale and repeated announcements (as a retried job makes) are not delivered again.
    await announce((await loadAnalysis(a.id))!);
    await advance(a.id, "transcribed", "analyzing");
    await announce((await loadAnalysis(a.id))!);
    await complete(
      a.id,
      { hookStyle: "none", hookPhrase: "", ugcFit: "medium", ugcConfidence: 10, ctaType: "none", ctaDestinationUrl: null },
      "heuristic",
    );
    await sub.done;
    expect(sub.statuses).toEqual(["TRANSCRIBED", "ANALYZING", "COMPLETED"]);
    sub.stop();
    // A subscriber to a finished analysis gets its final state.
    const late = collectWs(c, videoId, ended);
    await late.done;
    expect(late.statuses).toEqual(["COMPLETED"]);
    late.stop();
    await c.dispose();
  });

  it("errors: NOT_FOUND for another workspace's video (query, mutation, subscription), INSUFFICIENT_CREDITS, VALIDATION_ERROR", async () => {
    const owner = await newWorkspace();
    const other = await newWorkspace();
    const videoId = await trackedVideo(owner.workspaceId);
    for (const [q, vars] of [
      [READ, { videoId }],
      [ANALYZE, { videoId }],
    ] as const) {
      const r = await gql(api.url, other.key, q, vars);
      expect(r.body.errors![0]!.extensions!.code).toBe("NOT_FOUND");
      expect(r.body.errors![0]!.message).toMatch(/video not found/i);
    }
    const c = wsClient(other.key);
    const sub = collectWs(c, videoId, () => true);
    await sub.done;
    expect(JSON.stringify(sub.errors)).toContain("NOT_FOUND");
    await c.dispose();

    const none = await gql(api.url, owner.key, READ, { videoId });
    expect(none.body).toEqual({ data: { videoAnalysis: null } });

    await leaveCredits(owner.workspaceId, 3);
    const poor = await gql(api.url, owner.key, ANALYZE, { videoId });
    expect(poor.body.errors![0]!.extensions!.code).toBe("INSUFFICIENT_CREDITS");
    expect(poor.body.errors![0]!.message).toMatch(/5 credits/);
    expect(poor.body.errors![0]!.message).toMatch(/\b3\b/);
    expect((await getBalance(owner.workspaceId)).reserved).toBe(0);

    const bad = await gql(api.url, owner.key, ANALYZE, { videoId: "nope" });
    expect(bad.body.errors![0]!.extensions!.code).toBe("VALIDATION_ERROR");
  });

  it("the HookStyle, UgcFit, CtaType and AnalysisStatus enums carry every value of the vocabulary, UPPER_CASE", async () => {
    const ws = await newWorkspace();
    const r = await gql(
      api.url,
      ws.key,
      `{ h: __type(name: "HookStyle") { enumValues { name description } } u: __type(name: "UgcFit") { enumValues { name } } c: __type(name: "CtaType") { enumValues { name } } s: __type(name: "AnalysisStatus") { enumValues { name } } }`,
    );
    // (the schema is printed sorted, so compare as sets)
    const names = (k: string) => r.body.data[k].enumValues.map((v: { name: string }) => v.name).sort();
    const upper = (values: readonly string[]) => values.map((v) => v.toUpperCase()).sort();
    expect(names("h")).toEqual(upper(HOOK_STYLE_VALUES));
    expect(names("u")).toEqual(upper(UGC_FIT_VALUES));
    expect(names("c")).toEqual(upper(CTA_TYPE_VALUES));
    expect(names("s")).toEqual(upper(["pending", "downloading", "transcribed", "analyzing", "completed", "failed"]));
    expect(r.body.data.h.enumValues.every((v: { description: string }) => v.description.length > 0)).toBe(true);
  });

  it("a fresh API process serves many subscriptions opened at once on separate connections (each gets the current state; once failed with INTERNAL_ERROR when the subscriber connection ran a ready check)", async () => {
    const ws = await newWorkspace();
    const fresh = await spawnService("api");
    try {
      const videos = await Promise.all(Array.from({ length: 20 }, () => trackedVideo(ws.workspaceId)));
      for (const v of videos)
        await prisma.videoAnalysis.create({ data: { workspaceId: ws.workspaceId, videoId: v, status: "downloading" } });
      // One connection per subscriber, all opened at once (as the benchmark does).
      const clients = videos.map(() =>
        createClient({
          url: fresh.url!.replace("http", "ws") + "/graphql",
          webSocketImpl: WebSocket,
          connectionParams: { authorization: `Bearer ${ws.key}` },
          retryAttempts: 0,
        }),
      );
      const subs = videos.map((v, i) => collectWs(clients[i]!, v, (s) => s.length > 0));
      await Promise.all(subs.map((s) => s.done));
      expect(subs.map((s) => s.errors)).toEqual(videos.map(() => []));
      expect(subs.map((s) => s.statuses)).toEqual(videos.map(() => ["DOWNLOADING"]));
      subs.forEach((s) => s.stop());
      await Promise.all(clients.map((c) => c.dispose()));
    } finally {
      await fresh.stop();
    }
  });
});
