/**
 * Subscription fan-out (src/http/graphql/fan-out.ts): an event's answer is executed once per group of
 * subscribers who see the same (document, variables, workspace, role) and written to each of them, over
 * graphql-ws and SSE. Two workspaces, each with subscribers holding the owner's API key and a member's
 * session, all on the same document: each gets exactly its own workspace's events, and the number of
 * executions (the `graphql_subscription_answers_total` metric) is one per event and group, not per subscriber.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { cookieSocket, newPerson, signedIn } from "../helpers/people.js";
import { trackedVideo } from "../analysis/fixtures.js";
import { announceTracking } from "../../src/domain/tracking/events.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

const DOCUMENT = "subscription { trackedVideosChanged { change videoId video { id url } } }";
type Change = { change: string; videoId: string; video: { id: string; url: string } | null };

/** What one subscriber received, and how to stop it. */
interface Subscriber {
  received: Change[];
  errors: unknown[];
  stop(): void;
}

function overWebSocket(client: Client): Subscriber {
  const s: Subscriber = { received: [], errors: [], stop: () => undefined };
  s.stop = client.subscribe(
    { query: DOCUMENT },
    {
      next: (v: any) => (v.errors ? s.errors.push(v.errors) : s.received.push(v.data.trackedVideosChanged)),
      error: (e) => s.errors.push(e),
      complete: () => undefined,
    },
  );
  return s;
}

/** An SSE subscriber (POST with `Accept: text/event-stream`), read as the events come. */
function overSse(key: string): Subscriber {
  const controller = new AbortController();
  const s: Subscriber = { received: [], errors: [], stop: () => controller.abort() };
  void (async () => {
    const res = await fetch(`${api.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: DOCUMENT }),
      signal: controller.signal,
    });
    let buffer = "";
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      buffer += r.value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = message.split("\n").find((l) => l.startsWith("data:"));
        if (!message.startsWith("event: next") || !data) continue;
        const v = JSON.parse(data.slice(5));
        if (v.errors) s.errors.push(v.errors);
        else s.received.push(v.data.trackedVideosChanged);
      }
    }
  })().catch((e) => {
    if ((e as Error).name !== "AbortError") s.errors.push(e);
  });
  return s;
}

/** The counts of `graphql_subscription_answers_total` by outcome, from GET /metrics. */
async function answerCounts(): Promise<{ executed: number; shared: number }> {
  const text = await (await fetch(`${api.url}/metrics`)).text();
  const count = (outcome: string) =>
    Number(text.match(new RegExp(`^graphql_subscription_answers_total\\{outcome="${outcome}"\\} (\\d+)`, "m"))?.[1] ?? 0);
  return { executed: count("executed"), shared: count("shared") };
}

const until = async (check: () => boolean, what: string, ms = 15_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("subscription fan-out: one answer per group of subscribers", () => {
  it("two workspaces × (owner key, member session), one document: each subscriber gets exactly its own events; one execution per event and group", async () => {
    const clients: Client[] = [];
    const subscribers: Subscriber[] = [];
    try {
      const workspaces = [];
      for (const name of ["a", "b"]) {
        const ws = await newWorkspace();
        const videoId = await trackedVideo(ws.workspaceId);
        const email = `fanout-${name}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
        await newPerson(email, ws.workspaceId, "member");
        const person = await signedIn(api.url, email);
        const url = api.url.replace("http", "ws") + "/graphql";
        const byKey = () =>
          createClient({ url, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${ws.key}` }, retryAttempts: 0 });
        const bySession = () => createClient({ url, webSocketImpl: cookieSocket(person.cookieHeader(), api.url), retryAttempts: 0 });
        // Three owners on graphql-ws (one socket each) and one over SSE; three members on graphql-ws.
        const owners = [byKey(), byKey(), byKey()];
        const members = [bySession(), bySession(), bySession()];
        clients.push(...owners, ...members);
        const mine = [...owners.map(overWebSocket), overSse(ws.key), ...members.map(overWebSocket)];
        subscribers.push(...mine);
        workspaces.push({ ...ws, videoId, subscribers: mine });
      }
      await new Promise((r) => setTimeout(r, 1_000)); // every stream listening in Redis
      const before = await answerCounts();

      for (const w of workspaces) {
        await announceTracking(w.workspaceId, [w.videoId], "added");
        await announceTracking(w.workspaceId, [w.videoId], "removed");
      }
      await until(() => subscribers.every((s) => s.received.length >= 2 || s.errors.length > 0), "every subscriber's two events");
      await new Promise((r) => setTimeout(r, 300)); // anything more that would arrive (none should)

      for (const w of workspaces) {
        for (const s of w.subscribers) {
          expect(s.errors).toEqual([]);
          // Its own workspace's two events, in order, nothing of the other workspace's.
          expect(s.received.map((c) => [c.change, c.videoId])).toEqual([
            ["ADDED", w.videoId],
            ["REMOVED", w.videoId],
          ]);
        }
      }
      // ADDED carries the video as stored (read once per workspace); REMOVED has none.
      expect(workspaces[0]!.subscribers[0]!.received[0]!.video?.url).toMatch(/^https:/);

      // 4 events, each answered once for the workspace's owners (3 graphql-ws + 1 SSE) and once for its
      // members (3): 2 executions per event, 5 subscribers served from them.
      const after = await answerCounts();
      expect(after.executed - before.executed).toBe(4 * 2);
      expect(after.shared - before.shared).toBe(4 * 5);
    } finally {
      for (const s of subscribers) s.stop();
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });
});
