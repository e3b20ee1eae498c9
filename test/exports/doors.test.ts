/**
 * Exports through GraphQL (startExport with the list's GraphQL arguments, the exports connection, the
 * Export node, exportUpdated over graphql-ws: the current state first, then progress to COMPLETED) and
 * MCP (export_list answers a download URL; get_export), with tenancy.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "csv-parse/sync";
import WebSocket from "ws";
import { createClient } from "graphql-ws";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

vi.hoisted(() => {
  process.env.EXPORT_DIR = `${process.env.TMPDIR ?? "/tmp"}/exports-doors-${process.pid}`;
  process.env.EXPORT_BATCH_SIZE = "2";
  process.env.EXPORT_PROGRESS_EVERY = "2";
});

import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import type { RunningApi } from "../../src/main/server.js";
import { startWorkers, type RunningWorkers } from "../../src/jobs/worker.js";
import { exportsQueue } from "../../src/jobs/registry.js";
import { createTrackedVideo } from "../folders/fixtures.js";
import { waitUntil } from "../helpers/wait.js";

let api: RunningApi;
let workers: RunningWorkers;
let ws: { workspaceId: string; key: string };
let otherKey: string;
let folderId: string;
const mcpClients: Client[] = [];

beforeAll(async () => {
  api = await startTestApi();
  workers = await startWorkers([exportsQueue()]);
  ws = await newWorkspace("pro");
  otherKey = (await newWorkspace("pro")).key;
  const c = client(api.url, ws.key);
  const ids = [];
  for (let i = 0; i < 9; i++) ids.push((await createTrackedVideo(ws.workspaceId, { description: `+clip ${i}`, viewCount: 10 * i })).id);
  folderId = (await c.post("/api/v1/folders", { name: "exports" })).body.data.id;
  await c.post("/api/v1/folders/" + folderId + "/videos", { video_ids: ids.slice(0, 5) });
});
afterAll(async () => {
  for (const m of mcpClients) await m.close().catch(() => undefined);
  await stopAll(api, workers);
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
    const started = await gql(api.url, ws.key, `mutation($f: ExportFilterInput) { startExport(kind: FOLDER_VIDEOS, format: CSV, filter: $f) { ${EXPORT_FIELDS} } }`, {
      f: { folderId, sort: "VIEWS", order: "ASC" },
    });
    expect(started.body.errors).toBeUndefined();
    const e = started.body.data!.startExport;
    expect(e).toMatchObject({ kind: "FOLDER_VIDEOS", format: "CSV", downloadUrl: null });
    const seen: any[] = [];
    const wsClient = createClient({ url: api.url.replace("http", "ws") + "/graphql", webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${ws.key}` }, retryAttempts: 0, lazy: true });
    await new Promise<void>((resolve, reject) =>
      wsClient.subscribe({ query: `subscription { exportUpdated(id: "${e.id}") { status rowsWritten downloadUrl } }` }, { next: (v: any) => seen.push(v.data.exportUpdated), error: reject, complete: resolve }),
    );
    await wsClient.dispose();
    expect(seen.length).toBeGreaterThanOrEqual(1);
    const last = seen.at(-1);
    expect(last).toMatchObject({ status: "COMPLETED", rowsWritten: 5 });
    const rows = await download(last.downloadUrl);
    expect(rows.map((r) => r.viewCount)).toEqual(["0", "10", "20", "30", "40"]);
    expect(rows[0]!.description).toBe("'+clip 0");

    const node = await gql(api.url, ws.key, `query($id: ID!) { node(id: $id) { ... on Export { status progress fileName } } exports(first: 5) { totalCount edges { node { uuid } } } }`, { id: e.id });
    expect(node.body.data!.node).toMatchObject({ status: "COMPLETED", progress: 1 });
    expect(node.body.data!.exports.edges.map((x: any) => x.node.uuid)).toContain(e.uuid);
  });

  it("refuses another workspace's folder and hides another workspace's export", async () => {
    const foreign = await gql(api.url, otherKey, `mutation { startExport(kind: FOLDER_VIDEOS, format: XLSX, filter: { folderId: "${folderId}" }) { id } }`);
    expect(foreign.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const mine = await gql(api.url, ws.key, `mutation { startExport(kind: VIDEOS, format: XLSX, filter: { sort: "views" }) { id uuid } }`);
    const id = mine.body.data!.startExport.id;
    const peek = await gql(api.url, otherKey, `query { export(id: "${id}") { status } }`);
    expect(peek.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const listed = await gql(api.url, otherKey, `query { exports(first: 10) { totalCount } }`);
    expect(listed.body.data!.exports.totalCount).toBe(0);
    const bad = await gql(api.url, ws.key, `mutation { startExport(kind: VIDEOS, format: CSV, filter: { sort: "nope" }) { id } }`);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    await waitUntil("xlsx export", async () => (await gql(api.url, ws.key, `query { export(id: "${id}") { status } }`)).body.data!.export.status, (s) => s === "COMPLETED", 20_000);
  });
});

describe("MCP", () => {
  async function connect(key: string): Promise<Client> {
    const c = new Client({ name: "exports-test", version: "1.0.0" });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    mcpClients.push(c);
    return c;
  }
  const call = async (c: Client, name: string, args: Record<string, unknown>) => {
    const r = (await c.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any };
    return { isError: r.isError === true, body: r.structuredContent };
  };

  it("export_list waits for the export and answers its download URL; get_export reads it; other workspaces get NOT_FOUND", async () => {
    const c = await connect(ws.key);
    const r = await call(c, "export_list", { kind: "videos", format: "csv", filter: { sort: "views", order: "desc" } });
    expect(r.isError).toBe(false);
    expect(r.body.data).toMatchObject({ status: "completed", rowsWritten: 9 });
    const rows = await download(r.body.data.downloadUrl);
    expect(rows.map((x) => Number(x.viewCount))).toEqual([80, 70, 60, 50, 40, 30, 20, 10, 0]);
    const again = await call(c, "get_export", { export_id: r.body.data.id });
    expect(again.body.data.status).toBe("completed");
    const stranger = await connect(otherKey);
    expect(await call(stranger, "get_export", { export_id: r.body.data.id })).toEqual({ isError: true, body: { code: "NOT_FOUND", message: "Export not found." } });
    const refused = await call(stranger, "export_list", { kind: "folder_accounts", format: "csv", filter: { folderId } });
    expect(refused.body.code).toBe("NOT_FOUND");
  });
});
