/**
 * Export jobs through REST: start → the BullMQ job writes the file → a signed link downloads it with no
 * other credential; the link's expiry, an altered token and another workspace are 404; the per-workspace
 * cap is 429 EXPORT_LIMIT_REACHED; the retention sweep deletes the file (then the row). Then the same jobs
 * through GraphQL (startExport with the list's GraphQL arguments, the exports connection, the Export node,
 * exportUpdated over graphql-ws: the current state first, then progress to COMPLETED) and MCP (export_list
 * answers a download URL; get_export), with tenancy. One file: one API and one worker for all of them.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "csv-parse/sync";
import WebSocket from "ws";
import { createClient } from "graphql-ws";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

vi.hoisted(() => {
  process.env.EXPORT_DIR = `${process.env.TMPDIR ?? "/tmp"}/exports-test-${process.pid}`;
  process.env.EXPORT_BATCH_SIZE = "2";
  process.env.EXPORT_PROGRESS_EVERY = "2";
});

import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import type { RunningApi } from "../../src/main/server.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import { exportsQueue } from "../../src/jobs/registry.js";
import { prisma } from "../../src/infra/db.js";
import { config } from "../../src/config.js";
import { sweepExports } from "../../src/domain/exports/run.js";
import { progressOf } from "../../src/domain/exports/service.js";
import { createTrackedVideo } from "../folders/fixtures.js";
import { waitUntil } from "../helpers/wait.js";
import { newPerson, signedIn } from "../helpers/people.js";

const P = "/api/v1";
let api: RunningApi;
let workers: RunningWorkers;
let c: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let ws: { workspaceId: string; key: string };
let folderId: string;

beforeAll(async () => {
  api = await startTestApi();
  workers = await startWorkers([exportsQueue()]);
  ws = await newWorkspace("pro");
  c = client(api.url, ws.key);
  other = client(api.url, (await newWorkspace("pro")).key);
  const ids = [];
  for (let i = 0; i < 10; i++) ids.push((await createTrackedVideo(ws.workspaceId, { description: i === 0 ? "@evil" : `clip ${i}` })).id);
  folderId = (await c.post(`${P}/folders`, { name: "f" })).body.data.id;
  await c.post(`${P}/folders/${folderId}/videos`, { video_ids: ids.slice(0, 7) });
});
afterAll(() => stopAll(api, workers));

async function finished(id: string, client_ = c) {
  return waitUntil(
    `export ${id} finished`,
    async () => (await client_.get(`${P}/exports/${id}`)).body.data,
    (e: any) => e.status === "completed" || e.status === "failed",
    20_000,
  );
}

describe("export jobs", () => {
  it("runs an export to its file and downloads it through the signed link alone", async () => {
    const started = await c.post(`${P}/exports`, { kind: "folder_videos", format: "csv", filter: { folderId, sort: "views" } });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ kind: "folder_videos", format: "csv", status: "queued", downloadUrl: null });
    const done = await finished(started.body.data.id);
    expect(done).toMatchObject({ status: "completed", rowsWritten: 7, totalRows: 7, progress: 1, error: null });
    expect(done.fileName).toMatch(/^folder-videos-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(new Date(done.expiresAt).getTime() - new Date(done.finishedAt).getTime()).toBe(config.exports.retentionMs);
    const url = new URL(done.downloadUrl);
    expect(url.pathname).toBe(`${P}/exports/${done.id}/download`);
    const res = await fetch(`${api.url}${url.pathname}${url.search}`); // no Authorization
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${done.fileName}"`);
    const text = await res.text();
    expect(Buffer.byteLength(text)).toBe(done.bytes);
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(7);
    expect(rows.map((r) => r.description)).toContain("'@evil");

    // An altered token, another export's token, and another workspace's reads: 404.
    const token = url.searchParams.get("token")!;
    const altered = token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA");
    expect((await fetch(`${api.url}${url.pathname}?token=${encodeURIComponent(altered)}`)).status).toBe(404);
    expect(
      (await fetch(`${api.url}${url.pathname}?token=${encodeURIComponent(`${Date.now() + 3_600_000}.${token.split(".")[1]}`)}`)).status,
    ).toBe(404);
    const notMine = await other.get(`${P}/exports/${done.id}`);
    expect(notMine.status).toBe(404);
    expect(notMine.body.code).toBe("NOT_FOUND");
    expect((await other.get(`${P}/exports`)).body.data).toEqual([]);
    const mine = await c.get(`${P}/exports`);
    expect(mine.body.data.map((e: any) => e.id)).toContain(done.id);

    // The file gone under the link (EXPORT_DIR not shared, a sweep's race): a JSON 404, not a .csv holding the error.
    rmSync(join(config.exports.dir, ws.workspaceId, `${done.id}.csv`));
    const gone = await fetch(`${api.url}${url.pathname}${url.search}`);
    expect([gone.status, gone.headers.get("content-type"), gone.headers.get("content-disposition")]).toEqual([
      404,
      "application/json; charset=utf-8",
      null,
    ]);
    expect(await gone.json()).toMatchObject({ code: "NOT_FOUND" });
  });

  it("measures progress against the rows counted when the job started", () => {
    expect(progressOf({ status: "queued", rowsWritten: 0, totalRows: null })).toBe(0);
    expect(progressOf({ status: "running", rowsWritten: 0, totalRows: null })).toBeNull();
    expect(progressOf({ status: "running", rowsWritten: 250, totalRows: 1000 })).toBe(0.25);
    expect(progressOf({ status: "running", rowsWritten: 1002, totalRows: 1000 })).toBe(1);
    expect(progressOf({ status: "failed", rowsWritten: 3, totalRows: 10 })).toBeNull();
  });

  it("refuses a link past its expiry", async () => {
    const started = await c.post(`${P}/exports`, { kind: "videos", format: "xlsx", filter: { sort: "views" } });
    const done = await finished(started.body.data.id);
    expect(done.rowsWritten).toBe(10);
    const ttl = config.exports.urlTtlMs;
    config.exports.urlTtlMs = 1;
    try {
      const shortLived = (await c.get(`${P}/exports/${done.id}`)).body.data.downloadUrl;
      await new Promise((r) => setTimeout(r, 5));
      const url = new URL(shortLived);
      const r = await fetch(`${api.url}${url.pathname}${url.search}`);
      expect(r.status).toBe(404);
      expect((await r.json()).code).toBe("NOT_FOUND");
    } finally {
      config.exports.urlTtlMs = ttl;
    }
    const fresh = new URL((await c.get(`${P}/exports/${done.id}`)).body.data.downloadUrl);
    const r = await fetch(`${api.url}${fresh.pathname}${fresh.search}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
  });

  it("checks the list when it starts: unknown folder 404, bad filter 400, unknown kind 400", async () => {
    const foreign = await other.post(`${P}/exports`, { kind: "folder_videos", format: "csv", filter: { folderId } });
    expect(foreign.status).toBe(404);
    const bad = await c.post(`${P}/exports`, { kind: "videos", format: "csv", filter: { sort: "nope" } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe("filter.sort");
    expect((await c.post(`${P}/exports`, { kind: "everything", format: "csv" })).status).toBe(400);
    expect((await c.post(`${P}/exports`, { kind: "videos", format: "pdf" })).status).toBe(400);
  });

  it("keeps an owner's audit-log export from a member: not listed, NOT_FOUND by id, no download link; and a member cannot start one", async () => {
    const owner = await newWorkspace("pro");
    const o = client(api.url, owner.key);
    const audit = await o.post(`${P}/exports`, { kind: "audit_log", format: "csv" });
    expect(audit.status).toBe(202);
    const ledger = await o.post(`${P}/exports`, { kind: "credit_ledger", format: "csv" });
    await newPerson("export-member@example.test", owner.workspaceId, "member");
    const m = await signedIn(api.url, "export-member@example.test");
    const as = { headers: { "x-workspace-id": owner.workspaceId, "x-requested-with": "dashboard" } };
    const listed = await m.send("GET", `${P}/exports`, as);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((e: any) => e.id)).toEqual([ledger.body.data.id]);
    expect((await m.send("GET", `${P}/exports/${audit.body.data.id}`, as)).status).toBe(404);
    const viaGraphql = await m.gql(
      `query($id: ID!) { export(id: $id) { id } }`,
      { id: audit.body.data.id },
      { workspace: owner.workspaceId },
    );
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const refused = await m.send("POST", `${P}/exports`, { ...as, body: { kind: "audit_log", format: "csv" } });
    expect([refused.status, refused.body.code]).toEqual([403, "FORBIDDEN"]);
    // The owner still sees both.
    expect((await o.get(`${P}/exports`)).body.data).toHaveLength(2);
  });

  it("caps a workspace's queued and running exports: 429 EXPORT_LIMIT_REACHED", async () => {
    const busy = await newWorkspace("pro");
    const b = client(api.url, busy.key);
    for (let i = 0; i < config.exports.maxConcurrent; i++) {
      await prisma.export.create({
        data: { workspaceId: busy.workspaceId, kind: "videos", format: "csv", status: i === 0 ? "running" : "queued", createdBy: "test" },
      });
    }
    const refused = await b.post(`${P}/exports`, { kind: "videos", format: "csv" });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("EXPORT_LIMIT_REACHED");
    expect(refused.headers.get("retry-after")).toBe("10");
    // Another workspace is not held back.
    expect((await c.post(`${P}/exports`, { kind: "credit_ledger", format: "csv" })).status).toBe(202);
  });

  it("deletes the file when it expires (status expired), then the row", async () => {
    const started = await c.post(`${P}/exports`, { kind: "accounts", format: "csv" });
    const done = await finished(started.body.data.id);
    const file = join(config.exports.dir, ws.workspaceId, `${done.id}.csv`);
    expect(existsSync(file)).toBe(true);
    const later = new Date(new Date(done.expiresAt).getTime() + 1000);
    const swept = await sweepExports(later);
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    expect(existsSync(file)).toBe(false);
    const expired = (await c.get(`${P}/exports/${done.id}`)).body.data;
    expect(expired).toMatchObject({ status: "expired", downloadUrl: null });
    await sweepExports(new Date(later.getTime() + config.exports.retentionMs + 1000));
    expect((await c.get(`${P}/exports/${done.id}`)).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------
// GraphQL and MCP

const mcpClients: Client[] = [];
let gws: { workspaceId: string; key: string };
let otherKey: string;
let gFolderId: string;

describe("GraphQL and MCP doors", () => {
  beforeAll(async () => {
    gws = await newWorkspace("pro");
    otherKey = (await newWorkspace("pro")).key;
    const gc = client(api.url, gws.key);
    const ids = [];
    for (let i = 0; i < 9; i++) ids.push((await createTrackedVideo(gws.workspaceId, { description: `+clip ${i}`, viewCount: 10 * i })).id);
    gFolderId = (await gc.post("/api/v1/folders", { name: "exports" })).body.data.id;
    await gc.post("/api/v1/folders/" + gFolderId + "/videos", { video_ids: ids.slice(0, 5) });
  });
  afterAll(async () => {
    for (const m of mcpClients) await m.close().catch(() => undefined);
  });

  const EXPORT_FIELDS = "id uuid kind format status rowsWritten progress downloadUrl expiresAt fileName error";

  async function download(url: string) {
    const u = new URL(url);
    const r = await fetch(`${api.url}${u.pathname}${u.search}`);
    expect(r.status).toBe(200);
    return parse(await r.text(), { columns: true }) as Record<string, string>[];
  }

  describe("GraphQL", () => {
    it("starts an export with the list's GraphQL arguments and follows it to COMPLETED over exportUpdated", async () => {
      const started = await gql(
        api.url,
        gws.key,
        `mutation($f: ExportFilterInput) { startExport(kind: FOLDER_VIDEOS, format: CSV, filter: $f) { ${EXPORT_FIELDS} } }`,
        {
          f: { folderId: gFolderId, sort: "VIEWS", order: "ASC" },
        },
      );
      expect(started.body.errors).toBeUndefined();
      const e = started.body.data!.startExport;
      expect(e).toMatchObject({ kind: "FOLDER_VIDEOS", format: "CSV", downloadUrl: null });
      const seen: any[] = [];
      const wsClient = createClient({
        url: api.url.replace("http", "ws") + "/graphql",
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${gws.key}` },
        retryAttempts: 0,
        lazy: true,
      });
      await new Promise<void>((resolve, reject) =>
        wsClient.subscribe(
          { query: `subscription { exportUpdated(id: "${e.id}") { status rowsWritten downloadUrl } }` },
          { next: (v: any) => seen.push(v.data.exportUpdated), error: reject, complete: resolve },
        ),
      );
      await wsClient.dispose();
      expect(seen.length).toBeGreaterThanOrEqual(1);
      const last = seen.at(-1);
      expect(last).toMatchObject({ status: "COMPLETED", rowsWritten: 5 });
      const rows = await download(last.downloadUrl);
      expect(rows.map((r) => r.viewCount)).toEqual(["0", "10", "20", "30", "40"]);
      expect(rows[0]!.description).toBe("'+clip 0");

      const node = await gql(
        api.url,
        gws.key,
        `query($id: ID!) { node(id: $id) { ... on Export { status progress fileName } } exports(first: 5) { totalCount edges { node { uuid } } } }`,
        { id: e.id },
      );
      expect(node.body.data!.node).toMatchObject({ status: "COMPLETED", progress: 1 });
      expect(node.body.data!.exports.edges.map((x: any) => x.node.uuid)).toContain(e.uuid);
    });

    it("refuses another workspace's folder and hides another workspace's export", async () => {
      const foreign = await gql(
        api.url,
        otherKey,
        `mutation { startExport(kind: FOLDER_VIDEOS, format: XLSX, filter: { folderId: "${gFolderId}" }) { id } }`,
      );
      expect(foreign.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
      const mine = await gql(
        api.url,
        gws.key,
        `mutation { startExport(kind: VIDEOS, format: XLSX, filter: { sort: "views" }) { id uuid } }`,
      );
      const id = mine.body.data!.startExport.id;
      const peek = await gql(api.url, otherKey, `query { export(id: "${id}") { status } }`);
      expect(peek.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
      const listed = await gql(api.url, otherKey, `query { exports(first: 10) { totalCount } }`);
      expect(listed.body.data!.exports.totalCount).toBe(0);
      const bad = await gql(api.url, gws.key, `mutation { startExport(kind: VIDEOS, format: CSV, filter: { sort: "nope" }) { id } }`);
      expect(bad.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
      await waitUntil(
        "xlsx export",
        async () => (await gql(api.url, gws.key, `query { export(id: "${id}") { status } }`)).body.data!.export.status,
        (s) => s === "COMPLETED",
        20_000,
      );
    });
  });

  describe("MCP", () => {
    async function connect(key: string): Promise<Client> {
      const c = new Client({ name: "exports-test", version: "1.0.0" });
      await c.connect(
        new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
      );
      mcpClients.push(c);
      return c;
    }
    const call = async (c: Client, name: string, args: Record<string, unknown>) => {
      const r = (await c.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any };
      return { isError: r.isError === true, body: r.structuredContent };
    };

    it("export_list waits for the export and answers its download URL; get_export reads it; other workspaces get NOT_FOUND", async () => {
      const c = await connect(gws.key);
      const r = await call(c, "export_list", { kind: "videos", format: "csv", filter: { sort: "views", order: "desc" } });
      expect(r.isError).toBe(false);
      expect(r.body.data).toMatchObject({ status: "completed", rowsWritten: 9 });
      const rows = await download(r.body.data.downloadUrl);
      expect(rows.map((x) => Number(x.viewCount))).toEqual([80, 70, 60, 50, 40, 30, 20, 10, 0]);
      const again = await call(c, "get_export", { export_id: r.body.data.id });
      expect(again.body.data.status).toBe("completed");
      const stranger = await connect(otherKey);
      expect(await call(stranger, "get_export", { export_id: r.body.data.id })).toEqual({
        isError: true,
        body: { code: "NOT_FOUND", message: "Export not found." },
      });
      const refused = await call(stranger, "export_list", { kind: "folder_accounts", format: "csv", filter: { folderId: gFolderId } });
      expect(refused.body.code).toBe("NOT_FOUND");
    });
  });
});
