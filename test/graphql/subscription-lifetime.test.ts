/**
 * A live subscription's maximum lifetime (GRAPHQL_SUBSCRIPTION_MAX_LIFETIME_SECONDS,
 * src/http/graphql/subscriptions.ts): an SSE stream ends with a last message saying so
 * (SUBSCRIPTION_EXPIRED) and `complete`; a WebSocket is closed with 4000 and a reason, and a graphql-ws
 * client reconnects and subscribes again by itself, receiving events as before. Here the lifetime is
 * 2 seconds (each connection lives 1.8 to 2 s).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.GRAPHQL_SUBSCRIPTION_MAX_LIFETIME_SECONDS = "2";
});

import { createClient } from "graphql-ws";
import WebSocket from "ws";
import type { RunningApi } from "../../src/main/server.js";
import { grant } from "../../src/domain/credits/service.js";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

const SUBSCRIPTION = "subscription { creditsUpdated { totalRemaining } }";
const give = (workspaceId: string) => grant({ workspaceId, amount: 1, idempotencyKey: `lifetime-${Math.random()}`, reason: "test" });

describe("a live subscription's maximum lifetime", () => {
  it("over SSE: the stream's last message says it expired, then it completes", async () => {
    const ws = await newWorkspace();
    const started = Date.now();
    const res = await fetch(`${api.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${ws.key}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: SUBSCRIPTION }),
    });
    expect(res.status).toBe(200);
    const text = await res.text(); // until the server ends the stream
    const lived = Date.now() - started;
    expect(lived).toBeGreaterThanOrEqual(1_700);
    expect(lived).toBeLessThan(10_000);
    const messages = text.split("\n\n").filter((m) => m.startsWith("event:"));
    const last = messages.at(-1)!;
    const told = messages.at(-2)!;
    expect(last).toMatch(/^event: complete/);
    expect(told).toMatch(/^event: next/);
    const payload = JSON.parse(
      told
        .split("\n")
        .find((l) => l.startsWith("data:"))!
        .slice(5),
    );
    expect(payload.errors[0]).toMatchObject({ extensions: { code: "SUBSCRIPTION_EXPIRED", maxLifetimeSeconds: 2 } });
    expect(payload.errors[0].message).toContain("subscribe again");
  });

  it("over WebSocket: closed with 4000 and a reason; a graphql-ws client reconnects, subscribes again and receives events", async () => {
    const ws = await newWorkspace();
    const closes: { code: number; reason: string }[] = [];
    let connections = 0;
    const balances: number[] = [];
    const client = createClient({
      url: api.url.replace("http", "ws") + "/graphql",
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ws.key}` },
      retryAttempts: 3,
      retryWait: async () => new Promise((r) => setTimeout(r, 100)),
      on: {
        connected: () => connections++,
        closed: (e) => closes.push({ code: (e as { code: number }).code, reason: (e as { reason: string }).reason }),
      },
    });
    client.subscribe(
      { query: SUBSCRIPTION },
      { next: (v) => balances.push((v.data as any)?.creditsUpdated?.totalRemaining), error: () => undefined, complete: () => undefined },
    );
    await vi.waitFor(() => expect(connections).toBe(1), { timeout: 5_000 });
    await vi.waitFor(() => expect(closes).toHaveLength(1), { timeout: 5_000, interval: 50 });
    expect(closes[0]).toMatchObject({ code: 4000, reason: expect.stringContaining("GRAPHQL_SUBSCRIPTION_MAX_LIFETIME_SECONDS") });
    // The client came back on its own; the subscription it made again delivers events.
    await vi.waitFor(() => expect(connections).toBe(2), { timeout: 5_000, interval: 50 });
    const seen = balances.length;
    await vi.waitFor(
      async () => {
        await give(ws.workspaceId);
        expect(balances.length).toBeGreaterThan(seen);
      },
      { timeout: 1_500, interval: 200 },
    );
    await client.dispose();
  });
});
