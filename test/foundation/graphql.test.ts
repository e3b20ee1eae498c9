import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { spawnService } from "../helpers/processes.js";
import { waitFor } from "../helpers/wait.js";
import { printedSchema } from "../../src/http/graphql/schema.js";
import { grant } from "../../src/domain/credits/service.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

function wsClient(key: string | null) {
  return createClient({
    url: api.url.replace("http", "ws") + "/graphql",
    webSocketImpl: WebSocket,
    connectionParams: key ? { authorization: `Bearer ${key}` } : {},
    retryAttempts: 0,
    lazy: true,
  });
}

describe("GraphQL", () => {
  it("schema.graphql is the schema printed from the code (run `npm run schema:print` after changing it)", () => {
    const committed = readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8");
    expect(committed).toBe(printedSchema());
  });

  it("workspace and credits through the same services as REST", async () => {
    const ws = await newWorkspace("pro");
    const r = await gql(
      api.url,
      ws.key,
      `{ workspace { plan credits { totalRemaining monthlyTotal reserved ledger { totalCount edges { node { kind amount } } } } limits { videoLimit videoSlotsUsed additionsRemaining } } }`,
    );
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.workspace).toEqual({
      plan: "pro",
      credits: {
        totalRemaining: 10000,
        monthlyTotal: 10000,
        reserved: 0,
        ledger: { totalCount: 1, edges: [{ node: { kind: "RENEWAL", amount: 10000 } }] },
      },
      limits: { videoLimit: 5000, videoSlotsUsed: 0, additionsRemaining: 5000 },
    });
  });

  it("API key mutations, with the five-key limit and revocation", async () => {
    const ws = await newWorkspace();
    const created = await gql(api.url, ws.key, `mutation { createApiKey(name: "gql") { secret apiKey { id uuid name revokedAt } } }`);
    expect(created.body.data.createApiKey.secret).toMatch(/^svc_sk_[A-Za-z0-9_-]{43}$/);
    const id = created.body.data.createApiKey.apiKey.id;
    for (let i = 0; i < 3; i++) await gql(api.url, ws.key, `mutation { createApiKey(name: "k${i}") { secret } }`);
    const sixth = await gql(api.url, ws.key, `mutation { createApiKey(name: "six") { secret } }`);
    expect(sixth.body.errors![0]!.extensions!.code).toBe("KEY_LIMIT_REACHED");
    const bad = await gql(api.url, ws.key, `mutation { createApiKey(name: "") { secret } }`);
    expect(bad.body.errors![0]!.extensions!.code).toBe("VALIDATION_ERROR");
    const revoked = await gql(api.url, ws.key, `mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }`, { id });
    expect(revoked.body.data.revokeApiKey.revokedAt).toMatch(/Z$/);
    const other = await newWorkspace();
    const foreign = await gql(api.url, other.key, `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, { id });
    expect(foreign.body.errors![0]!.extensions!.code).toBe("NOT_FOUND");
    const list = await gql(api.url, ws.key, `{ apiKeys { totalCount edges { node { name revokedAt } } } }`);
    expect(list.body.data.apiKeys.totalCount).toBe(5);
    expect(list.body.data.apiKeys.edges).toHaveLength(5);
  });

  it("answers 401 with UNAUTHORIZED without a valid key", async () => {
    for (const key of [null, `svc_sk_${"b".repeat(43)}`]) {
      const r = await gql(api.url, key, `{ workspace { plan } }`);
      expect(r.status).toBe(401);
      expect(r.body.errors![0]!.extensions!.code).toBe("UNAUTHORIZED");
    }
  });

  it("a body over 1 MiB is 413 PAYLOAD_TOO_LARGE, by its Content-Length or counted when chunked; just under is read", async () => {
    const ws = await newWorkspace();
    const bodyOf = (bytes: number) => {
      const base = JSON.stringify({ query: "{ workspace { plan } }" });
      // Padding inside the document (ignored whitespace) brings the body to `bytes` exactly.
      return JSON.stringify({ query: "{ workspace { plan } }" + " ".repeat(bytes - base.length) });
    };
    const headers = { authorization: `Bearer ${ws.key}`, "content-type": "application/json" };
    const under = await fetch(`${api.url}/graphql`, { method: "POST", headers, body: bodyOf(1_048_576) });
    expect(under.status).toBe(200);
    expect(((await under.json()) as any).data.workspace.plan).toBe("free");
    const over = await fetch(`${api.url}/graphql`, { method: "POST", headers, body: bodyOf(1_048_577) });
    expect(over.status).toBe(413);
    expect(((await over.json()) as any).errors[0].extensions.code).toBe("PAYLOAD_TOO_LARGE");
    // No Content-Length (chunked transfer): counted as it arrives.
    const chunked = (body: string) =>
      fetch(`${api.url}/graphql`, {
        method: "POST",
        headers,
        body: new ReadableStream({
          start(c) {
            const bytes = new TextEncoder().encode(body);
            for (let i = 0; i < bytes.length; i += 65_536) c.enqueue(bytes.subarray(i, i + 65_536));
            c.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
    const underChunked = await chunked(bodyOf(4_000));
    expect(((await underChunked.json()) as any).data.workspace.plan).toBe("free");
    const overChunked = await chunked(bodyOf(1_200_000));
    expect(overChunked.status).toBe(413);
    expect(((await overChunked.json()) as any).errors[0].extensions.code).toBe("PAYLOAD_TOO_LARGE");
    // The refused connection is closed, not left half-read: the client's next requests are answered.
    for (let i = 0; i < 3; i++) expect((await gql(api.url, ws.key, "{ workspace { plan } }")).status).toBe(200);
  });

  it("refuses queries over the depth limit and over the cost limit with a GraphQL error, not a crash", async () => {
    const ws = await newWorkspace();
    // Introspection is exempt from the depth limit (GraphiQL and codegen need it); a second process
    // with a low limit shows the rule on a real query.
    const shallow = await spawnService("api", { GRAPHQL_MAX_DEPTH: "2" });
    try {
      const r1 = await gql(shallow.url!, ws.key, `{ workspace { credits { ledger { totalCount } } } }`);
      expect(r1.body.errors?.[0]?.message).toMatch(/depth/i);
      expect(r1.body.errors?.[0]?.extensions?.code).toBe("QUERY_TOO_DEEP");
      expect(r1.body.data ?? null).toBeNull();
      const ok = await gql(shallow.url!, ws.key, `{ workspace { plan } }`);
      expect(ok.body.data.workspace.plan).toBe("free");
    } finally {
      await shallow.stop();
    }
    // Under the alias and token limits, over the shape cost (graphql-armor's cost limit, set low here).
    const costly = await spawnService("api", { GRAPHQL_MAX_COST: "50" });
    try {
      const wide = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: workspace { plan credits { totalRemaining ledger { edges { node { uuid amount kind } } } } }`).join(" ")} }`;
      const r2 = await gql(costly.url!, ws.key, wide);
      expect(r2.body.errors?.[0]?.message).toMatch(/cost/i);
      expect(r2.body.errors?.[0]?.extensions?.code).toBe("QUERY_TOO_COSTLY");
      expect(r2.body.data ?? null).toBeNull();
    } finally {
      await costly.stop();
    }
  });

  it("graphql-ws: connection_init without a valid key is refused", async () => {
    const c = wsClient(`svc_sk_${"c".repeat(43)}`);
    const outcome = await new Promise<string>((resolve) => {
      c.subscribe(
        { query: "subscription { creditsUpdated { totalRemaining } }" },
        { next: () => resolve("next"), error: () => resolve("error"), complete: () => resolve("complete") },
      );
    });
    expect(outcome).toBe("error");
    await c.dispose();
  });

  it("graphql-ws: creditsUpdated delivers the current balance first, then the balance after a change made elsewhere", async () => {
    const ws = await newWorkspace();
    const c = wsClient(ws.key);
    const balances: number[] = [];
    c.subscribe(
      { query: "subscription { creditsUpdated { totalRemaining } }" },
      { next: (v: any) => balances.push(v.data.creditsUpdated.totalRemaining), error: () => undefined, complete: () => undefined },
    );
    // The current balance arrives once the subscription listens, so no change after it can be missed.
    await waitFor("the current balance", () => balances.length > 0, 5000);
    expect(balances).toEqual([200]);
    await grant({ workspaceId: ws.workspaceId, amount: 50, idempotencyKey: "g", reason: "test" });
    await waitFor("the balance after the grant", () => balances.length > 1, 5000);
    expect(balances).toEqual([200, 250]);
    await c.dispose();
  });

  it("queries over WebSocket use the same auth and limits", async () => {
    const ws = await newWorkspace();
    const c = wsClient(ws.key);
    const plan = await new Promise<string>((resolve, reject) => {
      c.subscribe(
        { query: "{ workspace { plan } }" },
        { next: (v: any) => resolve(v.data.workspace.plan), error: reject, complete: () => undefined },
      );
    });
    expect(plan).toBe("free");
    await c.dispose();
  });
});
