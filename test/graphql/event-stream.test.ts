/**
 * SSE answers written on node:http (src/http/graphql/event-stream.ts) are Yoga's own, byte for byte:
 * each stream below is opened on two servers of this process, one with the direct path (the default)
 * and one with GRAPHQL_DIRECT_POST=false (Yoga's request path), and the two must have the same status,
 * the same headers (but the per-request ones) and the same body, once Yoga's keep-alive pings (`:`
 * lines, every 300 ms under NODE_ENV=test, so their number depends on timing) are left out.
 */
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { getSSEProcessor } from "graphql-yoga";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../src/config.js";
import { announceTracking } from "../../src/domain/tracking/events.js";
import { capturing, type EventStreamAnswer, type EventStreamOptions, writeEventStream } from "../../src/http/graphql/event-stream.js";
import { directlyAnswered } from "../../src/http/graphql/json-post.js";
import type { RunningApi } from "../../src/main/server.js";
import { trackedVideo } from "../analysis/fixtures.js";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, signedIn } from "../helpers/people.js";
import { waitFor } from "../helpers/wait.js";

let direct: RunningApi;
let viaYoga: RunningApi;
let key: string;
let workspaceId: string;
let videoId: string;

beforeAll(async () => {
  direct = await startTestApi();
  (config.graphql as { directPost: boolean }).directPost = false;
  viaYoga = await startTestApi();
  (config.graphql as { directPost: boolean }).directPost = true;
  ({ key, workspaceId } = await newWorkspace("pro"));
  videoId = await trackedVideo(workspaceId);
  await newPerson("sse-bytes@stream.test", workspaceId, "member");
  const member = await signedIn(direct.url, "sse-bytes@stream.test");
  session = { cookie: member.cookieHeader(), "x-requested-with": "dashboard", "x-workspace-id": workspaceId };
});
afterAll(() => stopAll(direct, viaYoga));

/** Headers that differ from one request to the next whatever the path. */
const PER_REQUEST = new Set(["date", "x-request-id", "ratelimit-remaining", "ratelimit-reset", "keep-alive", "connection"]);
const PING = ":\n\n";

/** One SSE stream as it arrives: its status, headers and text so far; `stop` leaves it. */
interface Stream {
  status: number;
  headers: Record<string, string>;
  text: string;
  ended: Promise<void>;
  stop(): void;
}

/** A member's session instead of the key: the cookie and the headers the dashboard sends. */
let session: Record<string, string>;

async function open(
  api: RunningApi,
  init: { method?: "GET" | "POST"; body?: string; query?: string; asMember?: boolean },
): Promise<Stream> {
  const controller = new AbortController();
  const who = init.asMember ? session : { authorization: `Bearer ${key}` };
  const headers: Record<string, string> = { ...who, accept: "text/event-stream" };
  if (init.body) headers["content-type"] = "application/json";
  const url = init.query ? `${api.url}/graphql?${init.query}` : `${api.url}/graphql`;
  const r = await fetch(url, { method: init.method ?? "POST", headers, body: init.body, signal: controller.signal });
  const kept = [...r.headers].filter(([name]) => !PER_REQUEST.has(name)).sort(([a], [b]) => a.localeCompare(b));
  const s: Stream = {
    status: r.status,
    headers: Object.fromEntries(kept),
    text: "",
    ended: Promise.resolve(),
    stop: () => controller.abort(),
  };
  s.ended = (async () => {
    const reader = r.body!.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (let c = await reader.read(); !c.done; c = await reader.read()) s.text += c.value;
    } catch (e) {
      if ((e as Error).name !== "AbortError") throw e;
    }
  })();
  return s;
}

/** The stream as a client reads it, without the pings: it starts with one, then Yoga's messages in order. */
function withoutPings(s: Stream): { status: number; headers: Record<string, string>; messages: string[] } {
  expect(s.text.startsWith(PING), "the stream starts with a ping (some browsers wait for a first byte)").toBe(true);
  return { status: s.status, headers: s.headers, messages: s.text.split("\n\n").filter((m) => m !== "" && m !== ":") };
}

/** The stream on both servers; the direct path must have written one of them (no fall back to Yoga's). */
async function both(init: Parameters<typeof open>[1]): Promise<[Stream, Stream]> {
  const before = directlyAnswered.count;
  const streams = await Promise.all([open(direct, init), open(viaYoga, init)]);
  expect(directlyAnswered.count - before, "written by the direct path on one server, Yoga's on the other").toBe(1);
  return streams;
}

function same(a: Stream, b: Stream) {
  const seen = withoutPings(a);
  expect(seen, "direct vs Yoga").toEqual(withoutPings(b));
  return seen;
}

const TRACKED = "subscription { trackedVideosChanged { change videoId at video { id url } } }";

/**
 * A live subscription on both servers: opened, the tracking changes announced once both listen, every event received,
 * then a ping or two more, then the client leaves. The streams as they ended.
 */
async function liveOnBoth(asMember: boolean, changes: ("added" | "removed")[]): Promise<[Stream, Stream]> {
  const [a, b] = await both({ body: JSON.stringify({ query: TRACKED }), asMember });
  try {
    await waitFor("both streams open", () => a.text.startsWith(PING) && b.text.startsWith(PING), 10_000);
    await new Promise((r) => setTimeout(r, 500)); // both listening in Redis
    for (const change of changes) await announceTracking(workspaceId, [videoId], change);
    const events = (s: Stream) => s.text.split("event: next").length - 1;
    await waitFor("both streams' events", () => events(a) >= changes.length && events(b) >= changes.length, 10_000);
    await new Promise((r) => setTimeout(r, 400)); // a ping or two after them
  } finally {
    a.stop();
    b.stop();
  }
  await Promise.all([a.ended, b.ended]);
  return [a, b];
}

describe("an SSE answer written directly is Yoga's, byte for byte", () => {
  it("a live subscription (POST): the first ping, each event, then the client leaves", async () => {
    const [a, b] = await liveOnBoth(false, ["added", "removed"]);
    const seen = same(a, b);
    expect(seen.status).toBe(200);
    expect(seen.headers["content-type"]).toBe("text/event-stream");
    expect(seen.messages).toHaveLength(2);
    expect(seen.messages[0]).toMatch(/^event: next\ndata: \{"data":\{"trackedVideosChanged":\{"change":"ADDED"/);
    expect(a.text.split(PING).length - 1, "pings while idle, as Yoga's").toBeGreaterThan(1);
  });

  it("a live subscription with a member's session (the dashboard's way): the same bytes on both paths", async () => {
    const [a, b] = await liveOnBoth(true, ["added"]);
    const seen = same(a, b);
    expect(seen.status).toBe(200);
    expect(seen.messages).toHaveLength(1);
    expect(seen.messages[0]).toMatch(/^event: next\ndata: \{"data":\{"trackedVideosChanged":\{"change":"ADDED"/);
  });

  it("a query asked as SSE (GET and POST): one event, then `complete`, then the end", async () => {
    for (const init of [
      { body: JSON.stringify({ query: "{ workspace { plan } }" }) },
      { method: "GET" as const, query: new URLSearchParams({ query: "{ workspace { plan } }" }).toString() },
    ]) {
      const [a, b] = await both(init);
      await Promise.all([a.ended, b.ended]);
      const seen = same(a, b);
      expect(seen.messages).toEqual(['event: next\ndata: {"data":{"workspace":{"plan":"pro"}}}', "event: complete\ndata:"]);
    }
  });

  it("@defer asked as SSE: the first part, the deferred one, then `complete`", async () => {
    const [a, b] = await both({ body: JSON.stringify({ query: "{ workspace { plan } ... @defer { videos(first: 1) { totalCount } } }" }) });
    await Promise.all([a.ended, b.ended]);
    const seen = same(a, b);
    expect(seen.messages).toHaveLength(3);
    expect(seen.messages[1]).toContain('"incremental"');
    expect(seen.messages[2]).toBe("event: complete\ndata:");
  });

  it("refusals as SSE: a document that does not validate, a variable refused, an unknown video", async () => {
    for (const body of [
      { query: "subscription { nope }" },
      { query: "subscription($v: ID!) { analysisStatusChanged(videoId: $v) { status } }", variables: { v: 7 } },
      { query: "subscription($v: ID!) { analysisStatusChanged(videoId: $v) { status } }", variables: { v: "VmlkZW86bm9wZQ==" } },
    ]) {
      const [a, b] = await both({ body: JSON.stringify(body) });
      await waitFor("both answered", () => /event: complete|"errors"/.test(a.text) && /event: complete|"errors"/.test(b.text), 10_000);
      await new Promise((r) => setTimeout(r, 100));
      a.stop();
      b.stop();
      await Promise.all([a.ended, b.ended]);
      const seen = same(a, b);
      expect(seen.messages.join("\n"), JSON.stringify(body)).toContain('"errors"');
    }
  });

  it("a subscription that reaches its lifetime: its SUBSCRIPTION_EXPIRED message, then `complete`", async () => {
    const lifetime = config.graphql.subscriptionMaxLifetimeMs;
    (config.graphql as { subscriptionMaxLifetimeMs: number }).subscriptionMaxLifetimeMs = 1_000;
    try {
      const [a, b] = await both({ body: JSON.stringify({ query: TRACKED }) });
      await Promise.all([a.ended, b.ended]);
      const seen = same(a, b);
      expect(seen.messages.at(-1)).toBe("event: complete\ndata:");
      expect(seen.messages[0]).toContain('"code":"SUBSCRIPTION_EXPIRED"');
    } finally {
      (config.graphql as { subscriptionMaxLifetimeMs: number }).subscriptionMaxLifetimeMs = lifetime;
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The writer's own paths, on a loopback server: Yoga's real SSE processor over a stream this test controls.

/** A subscription's stream: `next` answers from `step(i)`; `returned` counts the calls of `return`. */
function controlled(step: (i: number) => Promise<IteratorResult<unknown>>) {
  let i = 0;
  const counts = { next: 0, returned: 0 };
  let wake: ((r: IteratorResult<unknown>) => void) | undefined;
  const iterator = {
    [Symbol.asyncIterator]() {
      return iterator;
    },
    next() {
      counts.next++;
      return Promise.race([step(i++), new Promise<IteratorResult<unknown>>((r) => (wake = r))]);
    },
    async return() {
      counts.returned++;
      wake?.({ done: true, value: undefined });
      return { done: true as const, value: undefined };
    },
  };
  return { iterator, counts };
}

async function serveOnce(result: unknown, options?: EventStreamOptions): Promise<{ url: string; close: () => void }> {
  const server = createServer((req, res) => {
    const answer = getSSEProcessor()(result as never, capturing as never, "text/event-stream") as unknown as EventStreamAnswer;
    void writeEventStream(answer, req, res, options);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

/** Everything the client reads, and how the response ended (`end`: a clean end; `cut`: the connection broke). */
function read(url: string, opts: { pause?: boolean } = {}) {
  const got = { text: "", ended: "" as "" | "end" | "cut", abort: () => undefined as void, resume: () => undefined as void };
  return new Promise<typeof got>((resolve) => {
    const req = httpRequest(url, (res) => {
      res.setEncoding("utf8");
      if (opts.pause) res.pause();
      else res.on("data", (c: string) => (got.text += c));
      got.resume = () => {
        res.on("data", (c: string) => (got.text += c));
        res.resume();
      };
      res.on("end", () => (got.ended ||= "end"));
      res.on("error", () => (got.ended ||= "cut"));
      res.on("aborted", () => (got.ended ||= "cut"));
      resolve(got);
    });
    got.abort = () => req.destroy();
    req.on("error", () => (got.ended ||= "cut"));
    req.end();
  });
}

const event = (n: number) => ({ done: false, value: { data: { n } } });

describe("the SSE writer's own paths (Yoga's SSE processor, a loopback server)", () => {
  it("a stream that completes: its events and `complete`, and its iterator is not returned after", async () => {
    const s = controlled(async (i) => (i < 2 ? event(i) : { done: true, value: undefined }));
    const server = await serveOnce(s.iterator);
    try {
      const got = await read(server.url);
      await waitFor("the end", () => got.ended, 5_000);
      expect(got.ended).toBe("end");
      expect(got.text).toBe(
        ':\n\nevent: next\ndata: {"data":{"n":0}}\n\nevent: next\ndata: {"data":{"n":1}}\n\nevent: complete\ndata:\n\n',
      );
      await new Promise((r) => setTimeout(r, 100));
      expect(s.counts.returned).toBe(0);
    } finally {
      server.close();
    }
  });

  it("an iterator that throws after an event: the event is sent, then the connection breaks without `complete`; returned once", async () => {
    const s = controlled(async (i) => {
      if (i === 0) return event(0);
      throw new Error("the source failed");
    });
    const server = await serveOnce(s.iterator);
    try {
      const got = await read(server.url);
      await waitFor("the connection's end", () => got.ended, 5_000);
      expect(got.ended).toBe("cut");
      expect(got.text).toContain('event: next\ndata: {"data":{"n":0}}\n\n');
      expect(got.text).not.toContain("complete");
      await waitFor("the iterator returned", () => s.counts.returned === 1, 5_000);
    } finally {
      server.close();
    }
  });

  it("an answer that cannot be serialised: no half event is written, the connection breaks, the iterator is returned once", async () => {
    const s = controlled(async (i) => (i === 0 ? event(0) : { done: false, value: { data: { n: 1n } } }));
    const server = await serveOnce(s.iterator);
    try {
      const got = await read(server.url);
      await waitFor("the connection's end", () => got.ended, 5_000);
      expect(got.ended).toBe("cut");
      expect(got.text).toBe(':\n\nevent: next\ndata: {"data":{"n":0}}\n\n');
      await waitFor("the iterator returned", () => s.counts.returned === 1, 5_000);
    } finally {
      server.close();
    }
  });

  it("a client that leaves while no event comes: its iterator is returned once", async () => {
    const s = controlled(() => new Promise(() => undefined)); // no event ever
    const server = await serveOnce(s.iterator);
    try {
      const got = await read(server.url);
      await waitFor("the first ping", () => got.text.startsWith(":\n\n"), 5_000);
      got.abort();
      await waitFor("the iterator returned", () => s.counts.returned === 1, 5_000);
      await new Promise((r) => setTimeout(r, 200));
      expect(s.counts.returned).toBe(1);
    } finally {
      server.close();
    }
  });

  it("a client that does not read: the writer stops pulling until the socket drains, and leaving returns the iterator", async () => {
    const big = "x".repeat(256 * 1024);
    const s = controlled(async () => ({ done: false, value: { data: { big } } }));
    const server = await serveOnce(s.iterator);
    try {
      const got = await read(server.url, { pause: true });
      await new Promise((r) => setTimeout(r, 500));
      const pulled = s.counts.next;
      await new Promise((r) => setTimeout(r, 500));
      expect(s.counts.next, "no event taken while the socket is behind").toBe(pulled);
      expect(pulled).toBeLessThan(100);
      got.abort();
      await waitFor("the iterator returned", () => s.counts.returned === 1, 5_000);
    } finally {
      server.close();
    }
  });

  it("a client that stops reading past `cutAfterMs` (its lifetime and a grace): its connection is cut and its iterator returned", async () => {
    const big = "x".repeat(256 * 1024);
    const s = controlled(async () => ({ done: false, value: { data: { big } } }));
    const server = await serveOnce(s.iterator, { cutAfterMs: 3_000 });
    try {
      const got = await read(server.url, { pause: true });
      await new Promise((r) => setTimeout(r, 1_000));
      expect(s.counts.returned, "still waiting for the client to read").toBe(0);
      await waitFor("the iterator returned", () => s.counts.returned === 1, 10_000);
      got.resume(); // what was sent is read, then the cut shows
      await waitFor("the connection cut", () => got.ended, 10_000);
      expect(got.ended).toBe("cut");
      const pulled = s.counts.next;
      await new Promise((r) => setTimeout(r, 300));
      expect(s.counts.next, "nothing taken after the cut").toBe(pulled);
      expect(s.counts.returned).toBe(1);
    } finally {
      server.close();
    }
  });
});
