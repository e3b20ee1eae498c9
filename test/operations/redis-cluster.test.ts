/**
 * Every Redis use on a Redis Cluster (docs/scaling.md): a cluster of three primaries started on
 * loopback for this file (test/helpers/redis-cluster.ts), two API processes and a worker process
 * selecting it with REDIS_CLUSTER_NODES, and this process too (it creates workspaces and people
 * through the domain). Checked: readiness; a job queued by one API process, run by the worker and
 * read through the other, its event reaching a subscriber of the other; a subscription delivered when
 * the event is published on another node than the subscriber's; one rate limit shared by both API
 * processes; live-connection caps across them; key revocation reaching a live socket on the other
 * process; sign-in limits and the yt-dlp budget (rate-limiter-flexible); BullMQ's keys in one slot per
 * queue.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { Cluster } from "ioredis";
import { client, newWorkspace, request, stopAll } from "../helpers/api.js";
import { newPerson, PASSWORD, personClient } from "../helpers/people.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import { startRedisCluster, type LocalCluster } from "../helpers/redis-cluster.js";
import { waitFor } from "../helpers/wait.js";

const LIMIT = 20;
const METRICS_TOKEN = "cluster-metrics-token";
const prefix = process.env.REDIS_PREFIX!;

let cluster: LocalCluster;
let apiA: ServiceProcess;
let apiB: ServiceProcess;
let worker: ServiceProcess;

beforeAll(async () => {
  cluster = await startRedisCluster();
  // Before any module of the service is imported here: this process uses the cluster too.
  process.env.REDIS_CLUSTER_NODES = cluster.nodes;
  const env = {
    REDIS_CLUSTER_NODES: cluster.nodes,
    RATE_LIMIT_PER_MINUTE: String(LIMIT),
    GRAPHQL_MAX_SOCKETS_PER_KEY: "2",
    SIGN_IN_MAX_FAILURES_PER_EMAIL: "3",
    // The longest re-check allowed (config: at most 4 s, so that a lost event still ends a socket within 5 s).
    REVOCATION_CHECK_INTERVAL_MS: "4000",
    METRICS_TOKEN,
  };
  [apiA, apiB, worker] = await Promise.all([
    spawnService("api", env, 60_000),
    spawnService("api", env, 60_000),
    spawnService("worker", env, 60_000),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([apiA, apiB, worker].map((p) => p?.stop("SIGKILL")));
  await stopAll();
  await cluster?.stop();
});

const wsUrl = (p: ServiceProcess) => p.url!.replace("http", "ws") + "/graphql";

/** A graphql-ws client on one API process; `closed` holds the close code once the socket closes. */
function socket(p: ServiceProcess, key: string) {
  const state = { closed: undefined as number | undefined, closedAt: 0 };
  const c: Client = createClient({
    url: wsUrl(p),
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
    lazy: false,
    on: {
      closed: (e: any) => {
        state.closed ??= e?.code;
        state.closedAt ||= Date.now();
      },
    },
    onNonLazyError: () => undefined,
  });
  return { c, state };
}

/** Each node's count of subscribers to the channel (pub/sub subscriptions are a node's own). */
const subscribers = (channel: string) =>
  Promise.all(cluster.ports.map(async (port) => Number(((await cluster.node(port).pubsub("NUMSUB", channel)) as [string, number])[1])));

/** Subscribes and collects every answer. */
function collect<T = any>(c: Client, query: string, variables?: Record<string, unknown>): T[] {
  const got: T[] = [];
  c.subscribe({ query, variables }, { next: (v: any) => got.push(v), error: () => undefined, complete: () => undefined });
  return got;
}

describe("the service on a Redis Cluster of three primaries", () => {
  it("reports Redis ready (cluster_state:ok) on /readyz, and BullMQ's keys of each queue in one slot (its hash tag)", async () => {
    const ready = await request(apiA.url!, "GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.checks.redis).toBe("ok");
    // The worker upserted its job schedulers: every key of a queue hashes to that queue's slot.
    const slots = new Map<string, Set<number>>();
    for (const port of cluster.ports) {
      const node = cluster.node(port);
      for (const key of await node.keys(`{${prefix}:bull:*`)) {
        const queue = /^\{[^}]*:bull:([a-z]+)\}/.exec(key)?.[1];
        expect(queue, key).toBeTruthy();
        if (!slots.has(queue!)) slots.set(queue!, new Set());
        slots.get(queue!)!.add(Number(await node.cluster("KEYSLOT", key)));
      }
    }
    expect([...slots.keys()].sort()).toEqual(expect.arrayContaining(["maintenance", "scrape", "webhooks"]));
    for (const [queue, s] of slots) expect(s.size, queue).toBe(1);
    const metrics = await request(apiB.url!, "GET", "/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/^bullmq_jobs\{.*queue="scrape".*\} \d+$/m);
  });

  it("track → scrape → read: queued through one API process, run by the worker, read through the other; the worker's events reach a subscriber of the other", async () => {
    const { key, workspaceId } = await newWorkspace();
    const sub = socket(apiB, key);
    const changes = collect(sub.c, "subscription { trackedVideosChanged { change videoId video { scrapeStatus } } }");
    // No current state comes first on this stream: wait until the other process's SUBSCRIBE is active on a node.
    await waitFor(
      "the subscription active in the cluster",
      () => subscribers(`${prefix}:trackedVideoChanged:${workspaceId}`).then((n) => n.some((x) => x > 0)),
      10_000,
    );
    const tracked = await client(apiA.url!, key).post("/api/v1/videos", {
      url: "https://www.tiktok.com/@cluster.creator/video/7300000000000000001",
    });
    expect(tracked.status).toBe(201);
    const videoId = tracked.body.data.videoId as string;
    await waitFor(
      "the scrape's UPDATED event (ready) on the other API process",
      () =>
        changes.find(
          (e) =>
            e.data?.trackedVideosChanged?.change === "UPDATED" &&
            e.data.trackedVideosChanged.videoId === videoId &&
            e.data.trackedVideosChanged.video?.scrapeStatus === "READY",
        ),
      20_000,
    );
    expect(changes.some((e) => e.data?.trackedVideosChanged?.change === "ADDED")).toBe(true);
    const read = await client(apiB.url!, key).get(`/api/v1/videos/${videoId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ scrapeStatus: "ready", dataSource: "simulated", username: "cluster.creator" });
    expect(Number.isInteger(read.body.data.viewCount)).toBe(true);
    await sub.c.dispose();
  });

  it("delivers a subscription's event published on another node than the subscriber's", async () => {
    const { key, workspaceId } = await newWorkspace();
    const sub = socket(apiA, key);
    const balances = collect(sub.c, "subscription { creditsUpdated { totalRemaining } }");
    // Sent first, once the subscription is set up on the cluster: seconds on a machine busy with the whole suite.
    await waitFor("the current balance (sent first)", () => balances.length > 0, 30_000);
    // The API process subscribed on one node; the cluster carries a PUBLISH on any node to every node.
    const channel = `${prefix}:creditsUpdated:${workspaceId}`;
    const counts = await subscribers(channel);
    expect(counts.filter((n) => n > 0)).toEqual([1]);
    const others = cluster.ports.filter((_, i) => counts[i] === 0);
    expect(others).toHaveLength(2);
    for (const port of others) await cluster.node(port).publish(channel, JSON.stringify({ workspaceId, at: new Date().toISOString() }));
    await waitFor("both events published on the other nodes", () => balances.length >= 3, 10_000);
    expect(balances.every((b) => typeof b.data?.creditsUpdated?.totalRemaining === "number")).toBe(true);
    await sub.c.dispose();
  });

  it("counts one rate limit for a key across both API processes (REST and GraphQL)", async () => {
    const { key } = await newWorkspace();
    const remaining: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const base = (i % 2 ? apiA : apiB).url!;
      const r =
        i % 4 === 3
          ? await request(base, "POST", "/graphql", { key, body: { query: "{ workspace { plan } }" } })
          : await request(base, "GET", "/api/v1/workspace", { key });
      expect(r.status, `request ${i + 1}`).toBe(200);
      remaining.push(Number(r.headers.get("ratelimit-remaining")));
    }
    expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i));
    for (const p of [apiA, apiB]) {
      const refused = await request(p.url!, "GET", "/api/v1/workspace", { key });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("RATE_LIMITED");
    }
  });

  it("caps a key's live sockets across both API processes", async () => {
    const { key } = await newWorkspace();
    const one = socket(apiA, key);
    const two = socket(apiB, key);
    const ask = (c: Client) =>
      new Promise<any>((resolve) =>
        c.subscribe({ query: "{ workspace { plan } }" }, { next: resolve, error: resolve, complete: () => undefined }),
      );
    expect((await ask(one.c)).data.workspace.plan).toBe("free");
    expect((await ask(two.c)).data.workspace.plan).toBe("free");
    const three = socket(apiA, key);
    await waitFor("the third socket closed", () => three.state.closed, 10_000);
    expect(three.state.closed).toBe(4429);
    await two.c.dispose();
    // A place is free again once the other process has removed its lease in Redis.
    const four = await waitFor(
      "a socket within the cap answering",
      async () => {
        const s = socket(apiA, key);
        if ((await ask(s.c)).data?.workspace) return s;
        await s.c.dispose();
        return null;
      },
      10_000,
      200,
    );
    expect(four.state.closed).toBeUndefined();
    await Promise.all([one.c.dispose(), three.c.dispose(), four.c.dispose()]);
  });

  it("key revocation through one API process closes the key's live socket on the other (4403, within 5 s) and refuses it on both", async () => {
    const { key } = await newWorkspace();
    const created = await client(apiA.url!, key).post("/api/v1/settings/api-keys", { name: "live" });
    expect(created.status).toBe(201);
    const extra = created.body.data as { id: string; key: string };
    const sub = socket(apiB, extra.key);
    const balances = collect(sub.c, "subscription { creditsUpdated { totalRemaining } }");
    await waitFor("the current balance", () => balances.length > 0, 10_000);
    const revokedAt = Date.now();
    expect((await client(apiA.url!, key).delete(`/api/v1/settings/api-keys/${extra.id}`)).status).toBe(200);
    await waitFor("the socket closed", () => sub.state.closed, 10_000);
    expect(sub.state.closed).toBe(4403);
    // Within the contract's 5 s: through the event at once, or the re-check should the event be lost. (Telling
    // the two apart by time alone was flaky: one run closed at 3.96 s against a 3.5 s bound.)
    expect(sub.state.closedAt - revokedAt).toBeLessThan(5_000);
    for (const p of [apiA, apiB]) expect((await request(p.url!, "GET", "/api/v1/workspace", { key: extra.key })).status).toBe(401);
    await sub.c.dispose();
  });

  it("counts failed sign-ins across both API processes (rate-limiter-flexible on the cluster)", async () => {
    const { workspaceId } = await newWorkspace();
    await newPerson("cluster-person@example.com", workspaceId);
    for (let i = 0; i < 3; i++) {
      const r = await personClient((i % 2 ? apiA : apiB).url!).signIn("cluster-person@example.com", `wrong password ${i}`);
      expect(r.status, `attempt ${i + 1}`).toBe(401);
    }
    const refused = await personClient(apiA.url!).signIn("cluster-person@example.com", PASSWORD);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("keeps the yt-dlp call budget on the cluster", async () => {
    const { createRedis } = await import("../../src/infra/redis.js");
    const { redisOutboundBudget } = await import("../../src/providers/outbound-budget.js");
    const connection = createRedis("test-budget", { maxRetriesPerRequest: 1 });
    expect(connection).toBeInstanceOf(Cluster);
    const budget = redisOutboundBudget({
      redis: connection,
      keyPrefix: `${prefix}:ytdlp-budget`,
      perWindow: { platformA: 2 },
      maxWaitMs: 0,
    });
    await budget.take("platformA");
    await budget.take("platformA");
    await expect(budget.take("platformA")).rejects.toThrow(/budget \(2 per 60 s\) is spent/);
    await budget.take("platformB"); // no budget set for it
  });
});
