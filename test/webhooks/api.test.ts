/**
 * The webhook routes (REST) and their GraphQL twins: shapes, the secret shown once and stored only
 * encrypted, validation (unknown events, unacceptable target URLs), the limit of 10, pagination of
 * the delivery log, test events (202), and other workspaces' ids answered 404 / NOT_FOUND.
 * No worker runs here: deliveries stay `pending` (delivery.test.ts sends them).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.WEBHOOK_SECRET_KEY = "test-only-webhook-secret-key-0123456789";
  process.env.WEBHOOK_ALLOW_PRIVATE = "false";
});

import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import type { RunningApi } from "../../src/main/server.js";
import { prisma } from "../../src/infra/db.js";
import { decryptSecret, encryptSecret, SecretUnavailable } from "../../src/domain/webhooks/secrets.js";
import { DomainError } from "../../src/domain/shared/errors.js";

let api: RunningApi;
const P = "/api/v1";
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

const URL_OK = "https://hooks.example.com/video-service";

async function setup() {
  const ws = await newWorkspace();
  return { ...ws, c: client(api.url, ws.key) };
}

describe("POST /webhooks", () => {
  it("201 with the secret shown once; stored only encrypted; never listed", async () => {
    const { c, workspaceId } = await setup();
    const r = await c.post(`${P}/webhooks`, {
      url: URL_OK,
      events: ["analysis.completed", "video.spike", "analysis.completed"],
      description: "  CRM sync ",
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      data: {
        id: expect.any(String),
        url: URL_OK,
        events: ["analysis.completed", "video.spike"],
        description: "CRM sync",
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
        createdAt: expect.any(String),
      },
      message: expect.any(String),
    });
    const secret: string = r.body.data.secret;
    expect(Buffer.from(secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);

    const row = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: r.body.data.id } });
    expect(row.workspaceId).toBe(workspaceId);
    expect(row.secretCipher).not.toContain(secret.slice(6));
    expect(row.secretCipher).not.toContain(Buffer.from(secret.slice(6), "base64").toString("hex"));
    expect(row.secretCipher.startsWith("v1.")).toBe(true);
    expect(decryptSecret(row.secretCipher, row.id)).toBe(secret);
    // Bound to its row and its key.
    expect(() => decryptSecret(row.secretCipher, randomUUID())).toThrow(SecretUnavailable);
    expect(() => decryptSecret(row.secretCipher, row.id, "another-key-of-at-least-32-characters!!")).toThrow(/another WEBHOOK_SECRET_KEY/);
    expect(() => decryptSecret(row.secretCipher, row.id, "")).toThrow(/WEBHOOK_SECRET_KEY is not set/);

    for (const path of [`${P}/webhooks`, `${P}/webhooks/${r.body.data.id}`]) {
      const g = await c.get(path);
      expect(g.status).toBe(200);
      expect(g.text).not.toContain(secret);
      expect(g.text).not.toContain("secret");
    }
    const one = await c.get(`${P}/webhooks/${r.body.data.id}`);
    expect(one.body.data).toEqual({
      id: r.body.data.id,
      url: URL_OK,
      events: ["analysis.completed", "video.spike"],
      description: "CRM sync",
      status: "active",
      failingSince: null,
      disabledAt: null,
      disabledReason: null,
      createdAt: r.body.data.createdAt,
    });
  });

  it("without WEBHOOK_SECRET_KEY secrets cannot be stored: WEBHOOKS_NOT_CONFIGURED (503)", () => {
    let err: unknown;
    try {
      encryptSecret("whsec_x", randomUUID(), "");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: "WEBHOOKS_NOT_CONFIGURED", status: 503 });
  });

  it("400 VALIDATION_ERROR: unknown event names, no events, bad or non-public URLs, unknown fields", async () => {
    const { c } = await setup();
    const cases: [unknown, string][] = [
      [{ url: URL_OK, events: ["analysis.done"] }, "events.0"],
      [{ url: URL_OK, events: [] }, "events"],
      [{ url: URL_OK, events: "video.spike" }, "events"],
      [{ url: URL_OK }, "events"],
      [{ events: ["video.spike"] }, "url"],
      [{ url: 42, events: ["video.spike"] }, "url"],
      [{ url: "", events: ["video.spike"] }, "url"],
      [{ url: "not a url", events: ["video.spike"] }, "url"],
      [{ url: "http://hooks.example.com/x", events: ["video.spike"] }, "url"],
      [{ url: "ftp://hooks.example.com/x", events: ["video.spike"] }, "url"],
      [{ url: "https://127.0.0.1/x", events: ["video.spike"] }, "url"],
      [{ url: "https://10.1.2.3/x", events: ["video.spike"] }, "url"],
      [{ url: "https://169.254.169.254/latest/meta-data", events: ["video.spike"] }, "url"],
      [{ url: "https://[::1]/x", events: ["video.spike"] }, "url"],
      [{ url: "https://[::ffff:192.168.0.1]/x", events: ["video.spike"] }, "url"],
      [{ url: "https://[fd00::1]/x", events: ["video.spike"] }, "url"],
      [{ url: "https://localhost/x", events: ["video.spike"] }, "url"],
      [{ url: "https://api.localhost/x", events: ["video.spike"] }, "url"],
      [{ url: "https://intranet/x", events: ["video.spike"] }, "url"],
      [{ url: "https://user:pw@hooks.example.com/x", events: ["video.spike"] }, "url"],
      [{ url: `https://hooks.example.com/${"a".repeat(2100)}`, events: ["video.spike"] }, "url"],
      [{ url: URL_OK, events: ["video.spike"], description: "x".repeat(501) }, "description"],
      [{ url: URL_OK, events: ["video.spike"], secret: "whsec_mine" }, ""],
    ];
    for (const [body, path] of cases) {
      const r = await c.post(`${P}/webhooks`, body);
      expect(r.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
      if (path) expect(r.body.details.map((d: { path: string }) => d.path)).toContain(`body.${path}`);
    }
    expect((await c.get(`${P}/webhooks`)).body.pagination.total).toBe(0);
  });

  it("the 11th endpoint is 409 WEBHOOK_LIMIT_REACHED, even when requests race", async () => {
    const { c } = await setup();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => c.post(`${P}/webhooks`, { url: `${URL_OK}/${i}`, events: ["video.spike"] })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(2);
    for (const r of refused) expect(r.body).toMatchObject({ code: "WEBHOOK_LIMIT_REACHED", message: expect.any(String) });
    const list = await c.get(`${P}/webhooks?limit=100`);
    expect(list.body.pagination).toEqual({ total: 10, limit: 100, offset: 0, has_more: false });
    // Deleting one frees a place.
    await c.delete(`${P}/webhooks/${list.body.data[3].id}`);
    expect((await c.post(`${P}/webhooks`, { url: URL_OK, events: ["video.spike"] })).status).toBe(201);
    expect((await c.post(`${P}/webhooks`, { url: URL_OK, events: ["video.spike"] })).status).toBe(409);
  });
});

describe("GET /webhooks, GET and DELETE /webhooks/{id}", () => {
  it("lists newest first with pagination; 404 for unknown and other workspaces' ids; 400 for bad ids", async () => {
    const { c } = await setup();
    const other = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await c.post(`${P}/webhooks`, { url: `${URL_OK}/${i}`, events: ["credits.low"] })).body.data.id);
    const theirs = (await other.c.post(`${P}/webhooks`, { url: URL_OK, events: ["credits.low"] })).body.data.id;

    const page1 = await c.get(`${P}/webhooks?limit=2`);
    expect(page1.body.data.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.pagination).toEqual({ total: 3, limit: 2, offset: 0, has_more: true });
    const page2 = await c.get(`${P}/webhooks?limit=2&offset=2`);
    expect(page2.body.data.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
    expect((await c.get(`${P}/webhooks?limit=0`)).status).toBe(400);
    expect((await c.get(`${P}/webhooks?limit=101`)).body.code).toBe("VALIDATION_ERROR");

    for (const id of [theirs, randomUUID()]) {
      for (const r of [
        await c.get(`${P}/webhooks/${id}`),
        await c.delete(`${P}/webhooks/${id}`),
        await c.get(`${P}/webhooks/${id}/deliveries`),
        await c.post(`${P}/webhooks/${id}/test`),
      ]) {
        expect(r.status).toBe(404);
        expect(r.body.code).toBe("NOT_FOUND");
      }
    }
    expect((await other.c.get(`${P}/webhooks/${theirs}`)).status).toBe(200);
    expect((await c.get(`${P}/webhooks/not-a-uuid`)).body.code).toBe("VALIDATION_ERROR");
    expect((await c.get(`${P}/webhooks`, {})).status).toBe(200);
    expect((await client(api.url, null).get(`${P}/webhooks`)).status).toBe(401);

    const del = await c.delete(`${P}/webhooks/${ids[1]}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ data: { id: ids[1] }, message: expect.any(String) });
    expect((await c.get(`${P}/webhooks/${ids[1]}`)).status).toBe(404);
    expect((await c.delete(`${P}/webhooks/${ids[1]}`)).status).toBe(404);
  });
});

describe("POST /webhooks/{id}/test and GET /webhooks/{id}/deliveries", () => {
  it("queues a webhook.test delivery (202), listed newest first with pagination", async () => {
    const { c } = await setup();
    const id = (await c.post(`${P}/webhooks`, { url: URL_OK, events: ["analysis.completed"] })).body.data.id;
    const t1 = await c.post(`${P}/webhooks/${id}/test`);
    expect(t1.status).toBe(202);
    expect(t1.body).toEqual({
      data: {
        id: expect.any(String),
        eventId: expect.any(String),
        event: "webhook.test",
        status: "pending",
        attempts: 0,
        responseStatus: null,
        lastError: null,
        nextAttemptAt: expect.any(String),
        createdAt: expect.any(String),
        deliveredAt: null,
      },
      message: expect.any(String),
    });
    const t2 = await c.post(`${P}/webhooks/${id}/test`);
    const list = await c.get(`${P}/webhooks/${id}/deliveries`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([t2.body.data.id, t1.body.data.id]);
    expect(list.body.pagination).toEqual({ total: 2, limit: 20, offset: 0, has_more: false });
    expect(list.body.data[1]).toEqual(t1.body.data);
    const p2 = await c.get(`${P}/webhooks/${id}/deliveries?limit=1&offset=1`);
    expect(p2.body.data.map((d: { id: string }) => d.id)).toEqual([t1.body.data.id]);
    expect(p2.body.pagination.has_more).toBe(false);
    expect((await c.get(`${P}/webhooks/${id}/deliveries?offset=-1`)).status).toBe(400);
    // Deleting the endpoint removes its log.
    await c.delete(`${P}/webhooks/${id}`);
    expect(await prisma.webhookDelivery.count({ where: { id: { in: [t1.body.data.id, t2.body.data.id] } } })).toBe(0);
  });

  it("the OpenAPI document describes every webhook route", async () => {
    const doc = (await client(api.url, null).get(`${P}/openapi.json`)).body;
    expect(Object.keys(doc.paths["/api/v1/webhooks"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/api/v1/webhooks/{id}"]).sort()).toEqual(["delete", "get"]);
    expect(doc.paths["/api/v1/webhooks/{id}/deliveries"].get).toBeDefined();
    expect(doc.paths["/api/v1/webhooks/{id}/test"].post.responses["202"]).toBeDefined();
    expect(JSON.stringify(doc.paths["/api/v1/webhooks"].post.responses["409"])).toContain("WEBHOOK_LIMIT_REACHED");
  });
});

describe("GraphQL twins", () => {
  it("createWebhook, webhooks, webhook, node, sendWebhookTest, deliveries, deleteWebhook", async () => {
    const { key } = await setup();
    const other = await setup();
    const created = await gql(
      api.url,
      key,
      `mutation($url: String!) { createWebhook(url: $url, events: [ANALYSIS_COMPLETED, CREDITS_LOW], description: "crm") { secret webhook { id uuid url events status description disabledReason } } }`,
      { url: URL_OK },
    );
    expect(created.body.errors).toBeUndefined();
    const { secret, webhook } = created.body.data!.createWebhook;
    expect(secret).toMatch(/^whsec_/);
    expect(webhook).toMatchObject({
      uuid: expect.any(String),
      url: URL_OK,
      events: ["ANALYSIS_COMPLETED", "CREDITS_LOW"],
      status: "ACTIVE",
      description: "crm",
      disabledReason: null,
    });

    const test = await gql(
      api.url,
      key,
      `mutation($id: ID!) { sendWebhookTest(id: $id) { id uuid event status attempts webhook { uuid } } }`,
      { id: webhook.id },
    );
    expect(test.body.errors).toBeUndefined();
    expect(test.body.data!.sendWebhookTest).toMatchObject({
      event: "WEBHOOK_TEST",
      status: "PENDING",
      attempts: 0,
      webhook: { uuid: webhook.uuid },
    });

    const list = await gql(
      api.url,
      key,
      `{ webhooks(first: 5) { totalCount edges { cursor node { uuid deliveries(first: 5) { totalCount edges { node { uuid event } } } } } } }`,
    );
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data!.webhooks.totalCount).toBe(1);
    expect(list.body.data!.webhooks.edges[0].node.deliveries).toEqual({
      totalCount: 1,
      edges: [{ node: { uuid: test.body.data!.sendWebhookTest.uuid, event: "WEBHOOK_TEST" } }],
    });

    for (const id of [webhook.id, webhook.uuid]) {
      const one = await gql(api.url, key, `query($id: ID!) { webhook(id: $id) { uuid } }`, { id });
      expect(one.body.data!.webhook.uuid).toBe(webhook.uuid);
    }
    const node = await gql(
      api.url,
      key,
      `query($id: ID!, $d: ID!) { node(id: $id) { ... on Webhook { uuid } } d: node(id: $d) { ... on WebhookDelivery { uuid } } }`,
      { id: webhook.id, d: test.body.data!.sendWebhookTest.id },
    );
    expect(node.body.data).toEqual({ node: { uuid: webhook.uuid }, d: { uuid: test.body.data!.sendWebhookTest.uuid } });

    // Another workspace sees none of it.
    const theirs = await gql(
      api.url,
      other.key,
      `query($id: ID!, $d: ID!) { node(id: $id) { id } d: node(id: $d) { id } webhooks { totalCount } }`,
      { id: webhook.id, d: test.body.data!.sendWebhookTest.id },
    );
    expect(theirs.body.data).toMatchObject({ node: null, d: null, webhooks: { totalCount: 0 } });
    for (const q of [
      `query($id: ID!) { webhook(id: $id) { uuid } }`,
      `mutation($id: ID!) { sendWebhookTest(id: $id) { uuid } }`,
      `mutation($id: ID!) { deleteWebhook(id: $id) }`,
    ]) {
      const r = await gql(api.url, other.key, q, { id: webhook.uuid });
      expect(r.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    }

    const bad = await gql(api.url, key, `mutation { createWebhook(url: "http://hooks.example.com", events: [VIDEO_SPIKE]) { secret } }`);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    const unknown = await gql(
      api.url,
      key,
      `mutation { createWebhook(url: "https://hooks.example.com", events: [VIDEO_DONE]) { secret } }`,
    );
    expect(unknown.body.errors?.length).toBeGreaterThan(0);

    const del = await gql(api.url, key, `mutation($id: ID!) { deleteWebhook(id: $id) }`, { id: webhook.id });
    expect(del.body.data).toEqual({ deleteWebhook: webhook.uuid });
    expect((await gql(api.url, key, `{ webhooks { totalCount } }`)).body.data!.webhooks.totalCount).toBe(0);
  });
});
