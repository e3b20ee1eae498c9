/**
 * Live clients by the ten thousand: SUBSCRIBERS concurrent subscriptions on one API process (the real
 * `src/main/api.ts`), first over graphql-ws (one socket each), then over SSE (one stream each), with
 * events published from another process at RATE events/s.
 *
 * - WORKSPACES workspaces, each with two tracked videos, an API key (its owner) and a member signed in
 *   with a session cookie; subscribers alternate between the two credentials. Seven in ten subscribe
 *   to `trackedVideosChanged` (tracking updates of the whole workspace, with the video as stored), three
 *   in ten to `analysisStatusChanged` of one of the workspace's videos (analysis progress).
 * - The publisher is a process of its own calling the domain's `publishEvent`, as the worker's jobs
 *   do after their commits (it runs no job: the rate is the bench's choice): event i goes to workspace
 *   i mod WORKSPACES, alternately a tracking update and an analysis status, alternately for each video.
 *   Every subscriber must receive exactly the events of its workspace (and video) — counted, and any
 *   other workspace's video is a leak — and the delay from the event's `at` (stamped when published) to
 *   its arrival is recorded.
 * - Memory per idle subscription: the API process's resident memory after every subscriber is
 *   listening and idle, less before the first connected, over SUBSCRIBERS.
 * - Event-loop stalls: the API's own `nodejs_eventloop_lag_max_seconds` (reset at each scrape), read
 *   every second while events flow, and across closing every connection at once.
 * - Requests meanwhile: a probe process of its own sends GET /api/v1/videos?limit=20 at PROBE_RATE/s, before
 *   the subscribers connect (the usual p99) and while events flow.
 *
 * `npm run bench -- subscribers` (not in ALL: it takes minutes). BENCH_SUBSCRIBERS (10000),
 * BENCH_SUBSCRIBERS_WORKSPACES (100), BENCH_SUBSCRIBERS_RATE (200), BENCH_SUBSCRIBERS_SECONDS (30),
 * BENCH_SUBSCRIBERS_TRANSPORTS (`ws,sse`), BENCH_SUBSCRIBERS_PROFILE_DIR (a CPU profile of the API),
 * BENCH_SUBSCRIBERS_API_FLAGS (Node flags for the API process).
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const DB = "svc_bench_subscribers";
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 10_000);
const WORKSPACES = Number(process.env.BENCH_SUBSCRIBERS_WORKSPACES ?? 100);
const RATE = Number(process.env.BENCH_SUBSCRIBERS_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SUBSCRIBERS_SECONDS ?? 30);
const TRANSPORTS = (process.env.BENCH_SUBSCRIBERS_TRANSPORTS ?? "ws,sse").split(",") as Transport[];
const PROBE_RATE = 20;
const TARGET = { p99Ms: 1000, kibPerSubscription: 50, stallMs: 100 };

type Transport = "ws" | "sse";
type Kind = "tracked" | "analysis";

const TRACKED = "subscription { trackedVideosChanged { change videoId at video { id url } } }";
const ANALYSIS = "subscription($v: ID!) { analysisStatusChanged(videoId: $v) { analysisId videoId status at } }";

/** Event i of the publisher's sequence: its workspace, kind and video (0 or 1). The bench counts what each subscriber must get from it. */
function eventOf(i: number): { w: number; kind: Kind; video: number } {
  return {
    w: i % WORKSPACES,
    kind: Math.floor(i / WORKSPACES) % 2 === 0 ? "tracked" : "analysis",
    video: Math.floor(i / (2 * WORKSPACES)) % 2,
  };
}

// ---------------------------------------------------------------------------------------------
// Child modes: the publisher, and the request probe

interface Plan {
  workspaces: { id: string; videos: string[] }[];
}

/** Publishes RATE events/s for SECONDS through the domain's publishEvent, then prints how many. */
async function publisher(planFile: string): Promise<void> {
  const plan = JSON.parse(readFileSync(planFile, "utf8")) as Plan;
  const { publishEvent } = await import("../src/domain/shared/events.js");
  const { closeRedis } = await import("../src/infra/redis.js");
  const started = performance.now();
  let i = 0;
  while (performance.now() - started < SECONDS * 1000) {
    const due = Math.floor(((performance.now() - started) * RATE) / 1000);
    const sends: Promise<void>[] = [];
    for (; i < due; i++) {
      const e = eventOf(i);
      const w = plan.workspaces[e.w]!;
      const videoId = w.videos[e.video]!;
      const at = new Date().toISOString();
      sends.push(
        e.kind === "tracked"
          ? publishEvent("trackedVideoChanged", w.id, { workspaceId: w.id, videoId, change: "updated", at })
          : publishEvent("analysisStatusChanged", `${w.id}:${videoId}`, {
              analysisId: `bench-${i}`,
              videoId,
              status: "downloading",
              error: null,
              at,
            }),
      );
    }
    await Promise.all(sends);
    await new Promise((r) => setTimeout(r, 5));
  }
  console.log(`PUBLISHED ${JSON.stringify({ events: i, seconds: (performance.now() - started) / 1000 })}`);
  await closeRedis();
}

/** GET /api/v1/videos?limit=20 at PROBE_RATE/s for `seconds`; prints the latencies' p50/p99/max. */
async function probe(base: string, key: string, seconds: number): Promise<void> {
  const { percentile } = await import("./lib/results.js");
  const latencies: number[] = [];
  let failed = 0;
  const pending: Promise<void>[] = [];
  const started = performance.now();
  for (let n = 0; n < seconds * PROBE_RATE; n++) {
    const wait = started + (n * 1000) / PROBE_RATE - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t = performance.now();
    pending.push(
      fetch(`${base}/api/v1/videos?limit=20`, { headers: { authorization: `Bearer ${key}` } })
        .then(async (r) => {
          await r.arrayBuffer();
          if (r.status !== 200) failed++;
          latencies.push(performance.now() - t);
        })
        .catch(() => void failed++),
    );
  }
  await Promise.all(pending);
  const r = {
    requests: latencies.length,
    failed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
  };
  console.log(`PROBE ${JSON.stringify(r)}`);
}

// ---------------------------------------------------------------------------------------------
// Subscribers (the bench process plays them: plain ws and http, no client library per connection)

interface Subscriber {
  w: number;
  kind: Kind;
  video: number;
  owner: boolean;
  probes: number;
  received: number;
  leaks: number;
  duplicates: number;
  seen: Set<string>;
  errors: string[];
  close(): void;
}

interface Credentials {
  key: string;
  cookie: string;
}

interface Bench {
  api: string;
  workspaces: { id: string; videos: string[]; credentials: Credentials }[];
  latencies: number[];
}

/** What a subscriber does with one answer: probes confirm it listens; measured events are checked and timed. */
function receive(b: Bench, s: Subscriber, payload: any): void {
  if (payload.errors) return void s.errors.push(JSON.stringify(payload.errors).slice(0, 300));
  const own = b.workspaces[s.w]!.videos;
  const e = s.kind === "tracked" ? payload.data?.trackedVideosChanged : payload.data?.analysisStatusChanged;
  if (!e) return void s.errors.push(JSON.stringify(payload).slice(0, 300));
  const probe = s.kind === "tracked" ? e.change === "ADDED" : String(e.analysisId).startsWith("probe");
  if (s.kind === "tracked" ? !own.includes(e.videoId) : e.videoId !== own[s.video]) s.leaks++;
  if (probe) return void s.probes++;
  const id = s.kind === "tracked" ? `${e.videoId}@${e.at}` : e.analysisId;
  if (s.seen.has(id)) s.duplicates++;
  s.seen.add(id);
  s.received++;
  b.latencies.push(Date.now() - Date.parse(e.at));
}

function documentOf(b: Bench, s: Subscriber): { query: string; variables?: Record<string, string> } {
  return s.kind === "tracked" ? { query: TRACKED } : { query: ANALYSIS, variables: { v: b.workspaces[s.w]!.videos[s.video]! } };
}

/** One graphql-ws socket with one subscription; resolves once the subscription is sent (acknowledged connection). */
function openWs(b: Bench, s: Subscriber): Promise<void> {
  const c = b.workspaces[s.w]!.credentials;
  const socket = new WebSocket(
    b.api.replace("http", "ws") + "/graphql",
    "graphql-transport-ws",
    s.owner ? {} : { headers: { cookie: c.cookie, origin: b.api } },
  );
  s.close = () => socket.close(1000);
  return new Promise((resolve, reject) => {
    socket.on("open", () =>
      socket.send(JSON.stringify({ type: "connection_init", payload: s.owner ? { authorization: `Bearer ${c.key}` } : {} })),
    );
    socket.on("message", (data) => {
      const m = JSON.parse(data.toString());
      if (m.type === "next") receive(b, s, m.payload);
      else if (m.type === "connection_ack") {
        socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: documentOf(b, s) }));
        resolve();
      } else if (m.type === "ping") socket.send('{"type":"pong"}');
      else if (m.type === "error") s.errors.push(JSON.stringify(m.payload).slice(0, 300));
    });
    socket.on("error", (e) => reject(e));
    socket.on("close", (code) => {
      if (code !== 1000 && code !== 1005) s.errors.push(`closed ${code}`);
      reject(new Error(`closed ${code}`));
    });
  });
}

/** One SSE stream (POST, Accept: text/event-stream); resolves once the server answered its headers. */
function openSse(b: Bench, s: Subscriber): Promise<void> {
  const c = b.workspaces[s.w]!.credentials;
  const url = new URL(`${b.api}/graphql`);
  const auth = s.owner ? { authorization: `Bearer ${c.key}` } : { cookie: c.cookie, origin: b.api, "x-requested-with": "bench" };
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        agent: false,
        headers: { ...auth, "content-type": "application/json", accept: "text/event-stream" },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`SSE answered ${res.statusCode}`));
        resolve();
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const message = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (!message.startsWith("event: next")) continue;
            const data = message.slice(message.indexOf("data:") + 5);
            receive(b, s, JSON.parse(data));
          }
        });
        res.on("error", () => undefined);
      },
    );
    s.close = () => req.destroy();
    req.on("error", (e) => reject(e));
    req.end(JSON.stringify(documentOf(b, s)));
  });
}

// ---------------------------------------------------------------------------------------------
// Measuring the API process from outside

const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]);

async function metric(b: Bench, name: string, labels = ""): Promise<number> {
  const text = await (await fetch(`${b.api}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name}${labels} `) || (labels === "" && l.startsWith(`${name}{`)));
  return line ? Number(line.split(" ").pop()) : Number.NaN;
}

/** The API's garbage collections so far, by kind (prom-client's `nodejs_gc_duration_seconds`): count, seconds, and how many took over 100 ms. */
async function gcSoFar(b: Bench): Promise<Record<string, { count: number; seconds: number; over100ms: number }>> {
  const text = await (await fetch(`${b.api}/metrics`)).text();
  const out: Record<string, { count: number; seconds: number; over100ms: number }> = {};
  const of = (kind: string) => (out[kind] ??= { count: 0, seconds: 0, over100ms: 0 });
  for (const line of text.split("\n")) {
    const m = /^nodejs_gc_duration_seconds_(count|sum|bucket)\{(.*)\} (\S+)$/.exec(line);
    if (!m) continue;
    const kind = /kind="([^"]+)"/.exec(m[2]!)?.[1] ?? "?";
    const value = Number(m[3]);
    if (m[1] === "count") of(kind).count += value;
    else if (m[1] === "sum") of(kind).seconds += value;
    else if (/le="0\.1"/.test(m[2]!)) of(kind).over100ms -= value; // over 100 ms = count - (le 0.1)
  }
  for (const g of Object.values(out)) g.over100ms += g.count;
  return out;
}

/** What `after` adds to `before` (gcSoFar), kind by kind. */
function gcBetween(before: Awaited<ReturnType<typeof gcSoFar>>, after: Awaited<ReturnType<typeof gcSoFar>>) {
  return Object.fromEntries(
    Object.entries(after).map(([kind, a]) => {
      const b = before[kind] ?? { count: 0, seconds: 0, over100ms: 0 };
      return [kind, { count: a.count - b.count, seconds: +(a.seconds - b.seconds).toFixed(3), over100ms: a.over100ms - b.over100ms }];
    }),
  );
}

/** The API's longest event-loop stall (ms) since the last read (prom-client resets it at each scrape). */
const stallMs = async (b: Bench) => (await metric(b, "nodejs_eventloop_lag_max_seconds")) * 1000;

// ---------------------------------------------------------------------------------------------
// The run

interface TransportResult {
  transport: Transport;
  connectSeconds: number;
  kibPerSubscription: number;
  published: number;
  publishSeconds: number;
  expected: number;
  received: number;
  missing: number;
  leaks: number;
  duplicates: number;
  errors: string[];
  p50: number;
  p99: number;
  max: number;
  stallMs: number;
  closeStallMs: number;
  probeDuring: { p50: number; p99: number; max: number; failed: number };
  executed: number;
  shared: number;
  apiCpuMsPerDelivery: number;
  /** The API's garbage collections while events flowed (and were delivered), by kind. */
  gcWhilePublishing: Record<string, { count: number; seconds: number; over100ms: number }>;
  loadDuring: number;
}

async function runTransport(
  b: Bench,
  transport: Transport,
  apiPid: number,
  planFile: string,
  serviceEnv: Record<string, string>,
): Promise<TransportResult> {
  const { percentile } = await import("./lib/results.js");
  const { cpuMs, startChild } = await import("./lib/load.js");
  const { publishEvent } = await import("../src/domain/shared/events.js");
  b.latencies = [];
  const subscribers: Subscriber[] = [];
  for (let k = 0; k < SUBSCRIBERS; k++) {
    const w = k % WORKSPACES;
    const n = Math.floor(k / WORKSPACES);
    subscribers.push({
      w,
      kind: n % 10 < 7 ? "tracked" : "analysis",
      video: Math.floor(n / 10) % 2,
      owner: n % 2 === 0,
      probes: 0,
      received: 0,
      leaks: 0,
      duplicates: 0,
      seen: new Set(),
      errors: [],
      close: () => undefined,
    });
  }
  const rssBefore = rssKiB(apiPid);
  const connectStarted = performance.now();
  const open = transport === "ws" ? openWs : openSse;
  for (let i = 0; i < subscribers.length; i += 100) await Promise.all(subscribers.slice(i, i + 100).map((s) => open(b, s)));
  const connectSeconds = (performance.now() - connectStarted) / 1000;

  // Probes on every channel until every subscriber got one: all are listening.
  const probeAll = async (n: number) => {
    for (const w of b.workspaces) {
      const at = new Date().toISOString();
      await publishEvent("trackedVideoChanged", w.id, { workspaceId: w.id, videoId: w.videos[0]!, change: "added", at });
      for (const v of w.videos)
        await publishEvent("analysisStatusChanged", `${w.id}:${v}`, {
          analysisId: `probe-${n}`,
          videoId: v,
          status: "pending",
          error: null,
          at,
        });
    }
  };
  for (let n = 0; subscribers.some((s) => s.probes === 0); n++) {
    if (n > 60)
      throw new Error(
        `${subscribers.filter((s) => s.probes === 0).length} subscribers never listened: ${subscribers.find((s) => s.errors.length)?.errors}`,
      );
    await probeAll(n);
    await new Promise((r) => setTimeout(r, 1000));
  }
  await new Promise((r) => setTimeout(r, 3000)); // idle
  const kibPerSubscription = (rssKiB(apiPid) - rssBefore) / SUBSCRIBERS;
  console.log(`${transport}: ${SUBSCRIBERS} listening after ${connectSeconds.toFixed(1)} s, ${kibPerSubscription.toFixed(1)} KiB each`);

  // Events from the publisher process, requests from the probe process, stalls read every second.
  const executedBefore = await metric(b, "graphql_subscription_answers_total", '{outcome="executed"}');
  const sharedBefore = await metric(b, "graphql_subscription_answers_total", '{outcome="shared"}');
  await stallMs(b);
  const gcBefore = await gcSoFar(b);
  const cpuBefore = cpuMs(apiPid);
  const probing = startChild(
    [SELF, "probe", b.api, b.workspaces[0]!.credentials.key, String(SECONDS)],
    serviceEnv,
    /PROBE (\{.*\})/,
    (SECONDS + 120) * 1000,
  );
  const publishing = startChild([SELF, "publish", planFile], serviceEnv, /PUBLISHED (\{.*\})/, (SECONDS + 120) * 1000);
  let stall = 0;
  let flowing = true;
  const watching = (async () => {
    while (flowing) {
      await new Promise((r) => setTimeout(r, 1000));
      stall = Math.max(stall, await stallMs(b));
    }
  })();
  const published = JSON.parse((await publishing).match[1]!) as { events: number; seconds: number };
  const probed = JSON.parse((await probing).match[1]!) as TransportResult["probeDuring"];
  const loadDuring = os.loadavg()[0]!;
  // What each subscriber had to get.
  const expectedOf = new Map<string, number>();
  for (let i = 0; i < published.events; i++) {
    const e = eventOf(i);
    const key = e.kind === "tracked" ? `${e.w}:tracked` : `${e.w}:analysis:${e.video}`;
    expectedOf.set(key, (expectedOf.get(key) ?? 0) + 1);
  }
  const wantOf = (s: Subscriber) => expectedOf.get(s.kind === "tracked" ? `${s.w}:tracked` : `${s.w}:analysis:${s.video}`) ?? 0;
  const expected = subscribers.reduce((n, s) => n + wantOf(s), 0);

  // Deliveries still on their way: until every one arrived, or none arrived for 10 s (at most 5 minutes).
  const receivedNow = () => subscribers.reduce((n, s) => n + s.received, 0);
  for (let last = -1, still = 0, waited = 0; receivedNow() < expected && still < 10 && waited < 300; waited++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = receivedNow();
    still = now === last ? still + 1 : 0;
    last = now;
  }
  flowing = false;
  await watching;
  const missing = subscribers.reduce((n, s) => n + Math.max(0, wantOf(s) - (s.received - s.duplicates)), 0);
  const cpu = cpuMs(apiPid) - cpuBefore;
  const gcWhilePublishing = gcBetween(gcBefore, await gcSoFar(b));
  const executed = (await metric(b, "graphql_subscription_answers_total", '{outcome="executed"}')) - executedBefore;
  const shared = (await metric(b, "graphql_subscription_answers_total", '{outcome="shared"}')) - sharedBefore;

  // Every connection closed at once.
  await stallMs(b);
  for (const s of subscribers) s.close();
  await new Promise((r) => setTimeout(r, 3000));
  const closeStallMs = await stallMs(b);

  const received = subscribers.reduce((n, s) => n + s.received, 0);
  return {
    transport,
    connectSeconds,
    kibPerSubscription,
    published: published.events,
    publishSeconds: published.seconds,
    expected,
    received,
    missing,
    leaks: subscribers.reduce((n, s) => n + s.leaks, 0),
    duplicates: subscribers.reduce((n, s) => n + s.duplicates, 0),
    errors: subscribers.flatMap((s) => s.errors).slice(0, 3),
    p50: percentile(b.latencies, 50),
    p99: percentile(b.latencies, 99),
    max: b.latencies.reduce((m, x) => Math.max(m, x), 0),
    stallMs: stall,
    closeStallMs,
    probeDuring: probed,
    executed,
    shared,
    apiCpuMsPerDelivery: cpu / Math.max(1, received),
    gcWhilePublishing,
    loadDuring,
  };
}

async function seed(): Promise<Bench["workspaces"]> {
  const { prisma } = await import("../src/infra/db.js");
  const { createWorkspace } = await import("../src/domain/workspace/service.js");
  const { createUser } = await import("../src/domain/people/users.js");
  const { setMembership } = await import("../src/domain/people/members.js");
  const { OPERATOR } = await import("../src/domain/actors/actor.js");
  const workspaces: Bench["workspaces"] = [];
  for (let w = 0; w < WORKSPACES; w++) {
    const { workspace, secret } = await createWorkspace({ name: `bench ${w}`, plan: "enterprise" });
    const videos: string[] = [];
    for (let v = 0; v < 2; v++) {
      const video = await prisma.video.create({
        data: {
          platform: "platformA",
          platformVideoId: `bench-${w}-${v}`,
          url: `https://bench.invalid/v/${w}/${v}`,
          dataSource: "simulated",
          scrapeStatus: "ready",
          lastScrapedAt: new Date(),
        },
      });
      await prisma.trackedVideo.create({ data: { workspaceId: workspace.id, videoId: video.id } });
      videos.push(video.id);
    }
    const user = await createUser({ email: `bench-${w}@bench.invalid`, name: `bench ${w}`, password: "correct horse battery" });
    await setMembership({ workspaceId: workspace.id, userId: user.id, role: "member", by: OPERATOR });
    workspaces.push({ id: workspace.id, videos, credentials: { key: secret, cookie: "" } });
  }
  return workspaces;
}

/** Signs each workspace's member in through the real /auth route: the session cookie its subscribers carry. */
async function signIn(api: string, workspaces: Bench["workspaces"]): Promise<void> {
  for (const [w, ws] of workspaces.entries()) {
    const res = await fetch(`${api}/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: api },
      body: JSON.stringify({ email: `bench-${w}@bench.invalid`, password: "correct horse battery" }),
    });
    if (res.status !== 200) throw new Error(`sign-in ${w}: ${res.status} ${await res.text()}`);
    ws.credentials.cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }
}

function report(results: TransportResult[], usual: { p50: number; p99: number; max: number }, loadBefore: number): string {
  const f = (n: number, d = 0) => n.toFixed(d);
  const met = (ok: boolean) => (ok ? "met" : "NOT met");
  const rows = results.map((r) =>
    [
      r.transport === "ws" ? "graphql-ws" : "SSE",
      `${r.published} in ${f(r.publishSeconds, 1)} s (${f(r.published / r.publishSeconds)}/s)`,
      `${r.received} of ${r.expected}; missing ${r.missing}, leaked ${r.leaks}, duplicated ${r.duplicates}`,
      `${f(r.p50)} / **${f(r.p99)}** / ${f(r.max)}`,
      `**${f(r.kibPerSubscription, 1)}**`,
      `**${f(r.stallMs)}**`,
      `${f(r.probeDuring.p50)} / **${f(r.probeDuring.p99)}** / ${f(r.probeDuring.max)}${r.probeDuring.failed ? ` (${r.probeDuring.failed} failed)` : ""}`,
      f(r.closeStallMs),
      `${r.executed} / ${r.shared}`,
      f(r.apiCpuMsPerDelivery * 1000, 1),
      f(r.connectSeconds, 1),
    ].join(" | "),
  );
  const verdicts = results.map(
    (r) =>
      `- ${r.transport === "ws" ? "graphql-ws" : "SSE"}: exact delivery ${met(r.missing === 0 && r.leaks === 0 && r.duplicates === 0 && r.errors.length === 0)}` +
      `; p99 ≤ ${TARGET.p99Ms} ms ${met(r.p99 <= TARGET.p99Ms)}; ≤ ${TARGET.kibPerSubscription} KiB per idle subscription ${met(r.kibPerSubscription <= TARGET.kibPerSubscription)}` +
      `; no stall over ${TARGET.stallMs} ms while events flow ${met(r.stallMs <= TARGET.stallMs)}, nor when every connection closes ${met(r.closeStallMs <= TARGET.stallMs)}` +
      `; requests' p99 ${f(r.probeDuring.p99)} ms against ${f(usual.p99)} ms before the subscribers connected` +
      `${r.errors.length ? `; errors: ${r.errors.join(" · ")}` : ""} (1-minute load average ${f(r.loadDuring, 1)} at the end of publishing).`,
  );
  const gcLines = results.map(
    (r) =>
      `- ${r.transport === "ws" ? "graphql-ws" : "SSE"}, the API's garbage collections while events flowed (\`nodejs_gc_duration_seconds\`): ` +
      Object.entries(r.gcWhilePublishing)
        .map(([kind, g]) => `${kind} ${g.count} (${f(g.seconds, 2)} s, ${g.over100ms} over 100 ms)`)
        .join(", ") +
      ".",
  );
  return [
    `## Subscribers: ${SUBSCRIBERS.toLocaleString("en")} live subscriptions on one API process, graphql-ws then SSE`,
    "",
    "Command: `npm run bench -- subscribers` (BENCH_SUBSCRIBERS, BENCH_SUBSCRIBERS_WORKSPACES, BENCH_SUBSCRIBERS_RATE, BENCH_SUBSCRIBERS_SECONDS, " +
      "BENCH_SUBSCRIBERS_TRANSPORTS). " +
      `${SUBSCRIBERS} subscriptions, one connection each, across ${WORKSPACES} workspaces (two tracked videos each); half with the workspace's API key ` +
      "(owner), half with a member's session cookie; 7 in 10 on `trackedVideosChanged { change videoId at video { id url } }`, 3 in 10 on " +
      "`analysisStatusChanged(videoId)` of one video. A publisher process calls the domain's `publishEvent` (as the worker's jobs do after " +
      `their commits) at ${RATE} events/s for ${SECONDS} s, alternately a tracking update and an analysis status, spread over the workspaces and ` +
      `videos; a probe process sends GET /api/v1/videos?limit=20 at ${PROBE_RATE}/s (its usual p50 / p99 / max before any subscriber: ` +
      `${f(usual.p50)} / ${f(usual.p99)} / ${f(usual.max)} ms). Delay: from the event's \`at\` (stamped when published) to its arrival at the client. ` +
      "Memory: the API process's resident memory once every subscription listens and is idle, less before the first connected, per subscription. " +
      "Stalls: the API's own `nodejs_eventloop_lag_max_seconds`, read every second. Executions / shared: `graphql_subscription_answers_total`.",
    "",
    "| transport | events published | deliveries | delay p50 / p99 / max (ms) | KiB per idle subscription | longest stall while publishing (ms) | requests meanwhile p50 / p99 / max (ms) | stall when all close at once (ms) | answers executed / shared | API CPU µs per delivery | connect (s) |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${r} |`),
    "",
    ...verdicts,
    ...gcLines,
    "",
    `Everything (the bench with its ${SUBSCRIBERS} client connections, the API, the publisher, the probe) runs on this machine's ${os.cpus().length} cores, ` +
      (loadBefore < os.cpus().length
        ? `with nothing else running (1-minute load average ${f(loadBefore, 1)} when it started, the tail of earlier work): the load is the bench's own.`
        : `**which other work was using during this run** (1-minute load average ${f(loadBefore, 1)} when it started): the figures are ` +
          "pessimistic; a quiet machine is the reference."),
  ].join("\n");
}

async function main(): Promise<void> {
  const { admin, benchServiceEnv, createMigratedDatabase, dropRedisKeys } = await import("./lib/db.js");
  const loadBefore = os.loadavg()[0]!;
  const url = await createMigratedDatabase(DB);
  const prefix = `bench_subscribers_${process.pid}`;
  const serviceEnv = benchServiceEnv(url, prefix, {
    // One connection per subscriber, thousands per credential: past the default caps per key (README).
    GRAPHQL_MAX_SOCKETS_PER_KEY: "1000000",
    GRAPHQL_MAX_SUBSCRIPTIONS_PER_KEY: "1000000",
    GRAPHQL_SUBSCRIPTION_MAX_LIFETIME_SECONDS: "0",
  });
  Object.assign(process.env, serviceEnv);
  const { startChild, stopChildren } = await import("./lib/load.js");
  const { writeSection } = await import("./lib/results.js");
  try {
    const workspaces = await seed();
    // BENCH_SUBSCRIBERS_PROFILE_DIR=<dir>: a V8 CPU profile of the API process, written there when it stops.
    const profile = process.env.BENCH_SUBSCRIBERS_PROFILE_DIR
      ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_SUBSCRIBERS_PROFILE_DIR}`]
      : [];
    // BENCH_SUBSCRIBERS_API_FLAGS: Node flags for the API process (a V8 heap setting to compare, say).
    const flags = (process.env.BENCH_SUBSCRIBERS_API_FLAGS ?? "").split(" ").filter(Boolean);
    const api = await startChild(
      [...flags, ...profile, "src/main/api.ts"],
      { ...serviceEnv, LOG_LEVEL: "info" },
      /API listening on port (\d+)/,
    );
    const b: Bench = { api: `http://127.0.0.1:${api.match[1]}`, workspaces, latencies: [] };
    await signIn(b.api, workspaces);
    const planFile = `${os.tmpdir()}/bench-subscribers-${process.pid}.json`;
    (await import("node:fs")).writeFileSync(planFile, JSON.stringify({ workspaces: workspaces.map(({ id, videos }) => ({ id, videos })) }));
    const usual = JSON.parse(
      (await startChild([SELF, "probe", b.api, workspaces[0]!.credentials.key, "10"], serviceEnv, /PROBE (\{.*\})/, 180_000)).match[1]!,
    );
    const results: TransportResult[] = [];
    for (const t of TRANSPORTS) {
      results.push(await runTransport(b, t, api.child.pid!, planFile, serviceEnv));
      console.log(JSON.stringify(results.at(-1)));
      await new Promise((r) => setTimeout(r, 3000));
    }
    const text = report(results, usual, loadBefore);
    console.log(text);
    await writeSection("subscribers", text);
  } finally {
    stopChildren();
    const { closeServiceConnections } = await import("./lib/db.js");
    await closeServiceConnections();
    await dropRedisKeys(prefix).catch(() => undefined);
    await admin(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`).catch(() => undefined);
  }
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === "publish") await publisher(rest[0]!);
else if (mode === "probe") await probe(rest[0]!, rest[1]!, Number(rest[2]));
else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
process.exit(0);
