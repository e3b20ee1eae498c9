/**
 * MCP over Streamable HTTP at /mcp, through the SDK's own client against a test API on loopback:
 * the tool list and its schemas (generated from the domain's zod inputs), every tool's answer
 * (the same records REST answers), errors as tool errors with REST's {code, message}, workspace
 * scoping, the resources, and the API key and rate limit REST uses.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { client, newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";
import { createAccount, createTrackedVideo, createVariedVideos, snapshot, trackAccount } from "../folders/fixtures.js";
import type { RunningApi } from "../../src/main/server.js";
import { listVideosQuery, trackVideoInput } from "../../src/domain/tracking/inputs.js";
import { createSearchInput } from "../../src/domain/radar/inputs.js";
import { createFolder, addVideosToFolder } from "../../src/domain/folders/service.js";
import { charge, getBalance } from "../../src/domain/credits/service.js";
import { authenticate, consumeRequest, RateLimitedError } from "../../src/domain/keys/access.js";
import { createKey, revokeKey } from "../../src/domain/keys/service.js";
import { prisma } from "../../src/infra/db.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer } from "../../src/http/mcp/server.js";

let api: RunningApi;
const open: Client[] = [];
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await stopAll(api);
});

async function connect(key: string): Promise<Client> {
  const c = new Client({ name: "mcp-http-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await c.connect(transport);
  open.push(c);
  return c;
}

/** Calls a tool; returns its structured answer and whether it is a tool error. */
async function call(c: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; body: any }> {
  const r = (await c.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: unknown;
    content: { type: string; text: string }[];
  };
  // The text content is the same JSON (for clients that do not read structured content).
  expect(JSON.parse(r.content[0]!.text)).toEqual(r.structuredContent);
  return { isError: r.isError === true, body: r.structuredContent };
}

const jsonSchema = (s: z.ZodType) => {
  const { $schema: _, ...rest } = z.toJSONSchema(s, { io: "input" }) as Record<string, unknown>;
  return rest;
};

const EVERY_TOOL = [
  "analyze_video",
  "create_folder",
  "create_tag",
  "export_list",
  "get_campaign_payouts",
  "get_credits",
  "get_export",
  "get_folder_analytics",
  "get_folder_growth",
  "get_growth",
  "get_radar_search",
  "get_top_videos",
  "get_video",
  "get_video_analysis",
  "get_video_history",
  "get_workspace",
  "list_account_skipped_videos",
  "list_accounts",
  "list_campaigns",
  "list_creators",
  "list_folders",
  "list_notifications",
  "list_tags",
  "list_videos",
  "mark_notifications_read",
  "move_folder",
  "pause_account",
  "resume_account",
  "retry_account_sync",
  "set_account_rules",
  "start_radar_search",
  "tag_accounts",
  "tag_videos",
  "track_account",
  "track_video",
  "untag_accounts",
  "untag_videos",
];

describe("tool list", () => {
  it("lists every tool, with input schemas generated from the domain's zod inputs", async () => {
    const ws = await newWorkspace();
    const c = await connect(ws.key);
    expect(c.getServerVersion()?.name).toBe("video-tracking-service");
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(EVERY_TOOL);
    const byName = new Map(tools.map((t) => [t.name, t]));

    // The schema is the domain's, whatever it holds (GET /videos filters added there appear here).
    expect(byName.get("list_videos")!.inputSchema).toEqual(jsonSchema(listVideosQuery));
    // Tools that create or spend credits add the optional `idempotencyKey` (src/domain/shared/idempotency.ts).
    const withKey = (s: z.ZodType) => {
      const schema = jsonSchema(s);
      return {
        ...schema,
        properties: { ...(schema.properties as object), idempotencyKey: expect.objectContaining({ type: "string", maxLength: 255 }) },
      };
    };
    expect(byName.get("track_video")!.inputSchema).toEqual(withKey(trackVideoInput));
    expect(byName.get("start_radar_search")!.inputSchema).toEqual(withKey(createSearchInput));
    // ... and it carries the domain's constraints.
    expect(byName.get("list_videos")!.inputSchema.properties!.limit).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 100,
      default: 20,
    });
    expect(byName.get("track_video")!.inputSchema).toMatchObject({ required: ["url"], additionalProperties: false });
    expect(byName.get("get_video")!.inputSchema).toMatchObject({
      required: ["video_id"],
      properties: { video_id: { type: "string", format: "uuid" } },
    });
    expect(byName.get("get_radar_search")!.inputSchema.properties).toMatchObject({
      search_id: { format: "uuid" },
      limit: { maximum: 100, default: 20 },
      offset: { minimum: 0 },
    });
    expect(byName.get("analyze_video")!.inputSchema.properties).toMatchObject({ force: { type: "boolean", default: false } });

    // Tools that spend credits say so, with the amount; reads are marked read-only.
    expect(byName.get("analyze_video")!.description).toMatch(/Costs 5 credits/);
    expect(byName.get("start_radar_search")!.description).toMatch(/Costs 100 credits/);
    for (const t of tools) {
      const spends = t.name === "analyze_video" || t.name === "start_radar_search";
      if (!spends) expect(t.description).not.toMatch(/Costs \d+ credits/);
      expect(t.annotations?.readOnlyHint).toBe(t.name.startsWith("get_") || t.name.startsWith("list_"));
    }
  });
});

describe("tools answer what REST answers, for the key's workspace", () => {
  it("workspace, credits, videos, folders, analytics", async () => {
    const ws = await newWorkspace("pro");
    const rest = client(api.url, ws.key);
    const c = await connect(ws.key);
    const account = await createAccount({ displayName: "Creator" });
    await trackAccount(ws.workspaceId, account.id);
    await snapshot(account.id, new Date().toISOString().slice(0, 10), { followers: 1200, views: 90_000, videos: 12 });
    const videos = await createVariedVideos(ws.workspaceId, 12, 7, { accountId: account.id });
    const folder = await createFolder(ws.workspaceId, "Campaign");
    await addVideosToFolder(
      ws.workspaceId,
      folder.id,
      videos.slice(0, 5).map((v) => v.id),
    );

    const same = async (
      tool: string,
      args: Record<string, unknown>,
      path: string,
      pick: (body: any) => unknown = (b) => ({ data: b.data }),
    ) => {
      const r = await call(c, tool, args);
      expect(r.isError).toBe(false);
      const expected = await rest.get(`/api/v1${path}`);
      expect(expected.status).toBe(200);
      expect(r.body).toEqual(pick(expected.body));
      return r.body;
    };

    await same("get_workspace", {}, "/workspace");
    await same("get_credits", {}, "/credits");
    const list = await same("list_videos", { limit: 5, offset: 2 }, "/videos?limit=5&offset=2", (b) => ({
      data: b.data,
      pagination: b.pagination,
    }));
    expect(list.data).toHaveLength(5);
    expect(list.pagination).toEqual({ total: 12, limit: 5, offset: 2, has_more: true });
    await same("list_videos", {}, "/videos", (b) => ({ data: b.data, pagination: b.pagination }));
    await same("get_video", { video_id: videos[3]!.id }, `/videos/${videos[3]!.id}`);
    // An id in upper case is the same video (as on REST).
    expect((await call(c, "get_video", { video_id: videos[3]!.id.toUpperCase() })).body.data.id).toBe(videos[3]!.id);
    await same("get_video_history", { video_id: videos[3]!.id, interval: "hour" }, `/videos/${videos[3]!.id}/history?interval=hour`);
    await same("list_folders", {}, "/folders", (b) => ({ data: b.data, pagination: b.pagination }));
    const analytics = await same("get_folder_analytics", { folder_id: folder.id }, `/folders/${folder.id}/analytics`);
    expect(analytics.data.totalVideos).toBe(5);
    const top = await same("get_top_videos", { limit: 4 }, "/analytics/videos/top?limit=4");
    expect(top.data).toHaveLength(4);
    const growth = await same("get_growth", { period: "7d" }, "/analytics/growth?period=7d");
    expect(growth.data).toHaveLength(7);
    expect(growth.data[0].totalFollowers).toBe(1200);
  });

  it("track_video and track_account write for the workspace", async () => {
    const ws = await newWorkspace();
    const c = await connect(ws.key);
    const url = `https://www.tiktok.com/@mcp_creator/video/73012345678901${String(Date.now()).slice(-5)}`;
    const tracked = await call(c, "track_video", { url });
    expect(tracked.isError).toBe(false);
    expect(tracked.body.data).toEqual({ trackedVideoId: expect.any(String), videoId: expect.any(String), isNew: true });
    expect(tracked.body.message).toMatch(/get_video/);
    expect(await prisma.trackedVideo.count({ where: { workspaceId: ws.workspaceId, videoId: tracked.body.data.videoId } })).toBe(1);
    const read = await call(c, "get_video", { video_id: tracked.body.data.videoId });
    expect(read.body.data).toMatchObject({ id: tracked.body.data.videoId, url, scrapeStatus: expect.any(String) });

    const again = await call(c, "track_video", { url });
    expect(again).toEqual({ isError: true, body: { code: "ALREADY_TRACKED", message: expect.any(String) } });
    const bad = await call(c, "track_video", { url: "https://example.com/video/1" });
    expect(bad).toEqual({ isError: true, body: { code: "INVALID_URL", message: expect.any(String) } });

    const account = await call(c, "track_account", { url: "https://www.tiktok.com/@mcp_account_one", video_limit: 3 });
    expect(account.body.data).toEqual({ added: ["mcp_account_one"], alreadyTracked: [], failed: [] });
    const tracking = await prisma.trackedAccount.findFirst({ where: { workspaceId: ws.workspaceId }, select: { videoLimit: true } });
    expect(tracking?.videoLimit).toBe(3);
  });

  it("analyze_video reserves 5 credits and says so; start_radar_search charges 100 and says so", async () => {
    const ws = await newWorkspace();
    const rest = client(api.url, ws.key);
    const c = await connect(ws.key);
    const video = await createTrackedVideo(ws.workspaceId);

    const started = await call(c, "analyze_video", { video_id: video.id });
    expect(started.isError).toBe(false);
    expect(started.body.data).toEqual({ analysisId: expect.any(String), videoId: video.id, status: "pending" });
    expect(started.body.credits.cost).toBe(5);
    expect((await getBalance(ws.workspaceId)).reserved).toBe(5);
    const running = await call(c, "analyze_video", { video_id: video.id, force: true });
    expect(running.body.credits.cost).toBe(0);
    expect(running.body.data.analysisId).toBe(started.body.data.analysisId);
    expect((await getBalance(ws.workspaceId)).reserved).toBe(5);

    const analysis = await call(c, "get_video_analysis", { video_id: video.id });
    expect(analysis.body).toEqual({ data: (await rest.get(`/api/v1/video-analysis/${video.id}`)).body.data });
    expect(analysis.body.data.status).toBe("pending");
    const never = await createTrackedVideo(ws.workspaceId);
    expect((await call(c, "get_video_analysis", { video_id: never.id })).body).toEqual({ data: null });

    const search = await call(c, "start_radar_search", { query: "home workouts for beginners", depth: "quick", time_period: "month" });
    expect(search.isError).toBe(false);
    expect(search.body.credits.cost).toBe(100);
    expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(100);
    const read = await call(c, "get_radar_search", { search_id: search.body.data.searchId, limit: 10 });
    const viaRest = await rest.get(`/api/v1/radar/search/${search.body.data.searchId}?limit=10`);
    expect(read.body).toEqual({ data: viaRest.body.data, pagination: viaRest.body.pagination });
    expect(read.body.data).toMatchObject({ status: "pending", time_period: "last month", depth: "quick" });

    // 100 credits left, 5 of them reserved: a second search is refused and charges nothing.
    const refused = await call(c, "start_radar_search", { query: "more" });
    expect(refused).toEqual({ isError: true, body: { code: "INSUFFICIENT_CREDITS", message: expect.stringMatching(/100 credits/) } });
    expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(100);
    // The analysis refusal is the domain's code (REST's analysis route answers its own spec shape instead).
    await charge({ workspaceId: ws.workspaceId, amount: 91, idempotencyKey: "drain", reason: "test" });
    const poor = await call(c, "analyze_video", { video_id: never.id });
    expect(poor).toEqual({ isError: true, body: { code: "INSUFFICIENT_CREDITS", message: expect.any(String) } });
  });
});

describe("errors are tool errors with REST's {code, message}", () => {
  it("a limit above 100 is VALIDATION_ERROR, with the same details as REST", async () => {
    const ws = await newWorkspace();
    const c = await connect(ws.key);
    const r = await call(c, "list_videos", { limit: 101 });
    expect(r.isError).toBe(true);
    expect(r.body.code).toBe("VALIDATION_ERROR");
    const viaRest = await client(api.url, ws.key).get("/api/v1/videos?limit=101");
    expect(r.body.details).toEqual(viaRest.body.details.map((d: any) => ({ ...d, path: d.path.replace(/^query\./, "") })));

    for (const [tool, args, path] of [
      ["list_videos", { limit: "ten" }, "limit"],
      ["list_videos", { offset: -1 }, "offset"],
      ["get_video", {}, "video_id"],
      ["get_video", { video_id: "not-a-uuid" }, "video_id"],
      ["get_growth", { period: "1y" }, "period"],
      ["start_radar_search", { query: "" }, "query"],
      ["track_video", {}, "url"],
      ["track_video", { url: "https://www.tiktok.com/@a/video/1", extra: 1 }, ""],
      ["track_account", { url: "https://www.tiktok.com/@someone", video_limit: 501 }, "video_limit"],
      ["analyze_video", { video_id: "00000000-0000-4000-8000-000000000000", force: "yes" }, "force"],
      ["get_top_videos", { limit: 0 }, "limit"],
    ] as const) {
      const bad = await call(c, tool, args);
      expect(bad.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(bad.body.code).toBe("VALIDATION_ERROR");
      expect(bad.body.details.map((d: any) => d.path)).toContain(path);
    }
    // NUL (or a lone surrogate) in a url is URL intake's refusal (CONTRACT: hostile input).
    const nul = await call(c, "track_video", { url: "https://www.tiktok.com/@a\u0000/video/1" });
    expect(nul.body).toMatchObject({ code: "INVALID_URL", details: [{ path: "url" }] });
    expect(await prisma.trackedVideo.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("an unknown tool is a JSON-RPC error; malformed messages are refused, never a crash", async () => {
    const ws = await newWorkspace();
    const c = await connect(ws.key);
    await expect(c.callTool({ name: "drop_database", arguments: {} })).rejects.toThrow(/Unknown tool: drop_database/);

    const post = (body: string) =>
      request(api.url, "POST", "/mcp", {
        key: ws.key,
        rawBody: body,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      });
    const notJson = await post("{not json");
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe(-32700);
    const badArgs = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_video", arguments: "x" } }),
    );
    expect(badArgs.status).toBe(200);
    // The SDK checks the request's shape itself (and answers -32603 with the problem named).
    expect(badArgs.body.error.message).toMatch(/arguments/);
    expect(badArgs.text).not.toMatch(/at .*\.(ts|js):\d+/);
    const tooBig = await post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "track_video", arguments: { url: "x".repeat(1_100_000) } },
      }),
    );
    expect(tooBig.status).toBe(413);

    const get = await request(api.url, "GET", "/mcp", { key: ws.key, headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });
});

describe("workspace scoping", () => {
  it("another workspace's ids are NOT_FOUND on every tool and resource that takes one", async () => {
    const mine = await newWorkspace();
    const theirs = await newWorkspace();
    const c = await connect(mine.key);
    const video = await createTrackedVideo(theirs.workspaceId);
    const folder = await createFolder(theirs.workspaceId, "Theirs");
    const other = await connect(theirs.key);
    const search = await call(other, "start_radar_search", { query: "their search" });
    await call(other, "analyze_video", { video_id: video.id });

    for (const [tool, args] of [
      ["get_video", { video_id: video.id }],
      ["get_video_analysis", { video_id: video.id }],
      ["analyze_video", { video_id: video.id }],
      ["get_folder_analytics", { folder_id: folder.id }],
      ["get_radar_search", { search_id: search.body.data.searchId }],
    ] as const) {
      expect(await call(c, tool, args), tool).toEqual({ isError: true, body: { code: "NOT_FOUND", message: expect.any(String) } });
    }
    expect((await getBalance(mine.workspaceId)).reserved).toBe(0);
    expect((await call(c, "list_videos")).body.data).toEqual([]);
    expect((await call(c, "list_folders")).body.data).toEqual([]);

    const read = c.readResource({ uri: `video-service://folders/${folder.id}/analytics` });
    await expect(read).rejects.toMatchObject({ code: -32002, data: { code: "NOT_FOUND" } });
  });
});

describe("resources", () => {
  it("the workspace summary and each folder's analytics", async () => {
    const ws = await newWorkspace("starter");
    const rest = client(api.url, ws.key);
    const c = await connect(ws.key);
    const video = await createTrackedVideo(ws.workspaceId, { viewCount: 5000 });
    const folder = await createFolder(ws.workspaceId, "Launch");
    await addVideosToFolder(ws.workspaceId, folder.id, [video.id]);

    const { resourceTemplates } = await c.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["video-service://folders/{folder_id}/analytics"]);
    const { resources } = await c.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["video-service://workspace", `video-service://folders/${folder.id}/analytics`]);
    expect(resources[1]!.title).toBe("Folder analytics: Launch");

    const summary = await c.readResource({ uri: "video-service://workspace" });
    expect(summary.contents[0]).toMatchObject({ uri: "video-service://workspace", mimeType: "application/json" });
    expect(JSON.parse((summary.contents[0] as { text: string }).text)).toEqual((await rest.get("/api/v1/workspace")).body);
    const analytics = await c.readResource({ uri: `video-service://folders/${folder.id}/analytics` });
    expect(JSON.parse((analytics.contents[0] as { text: string }).text)).toEqual(
      (await rest.get(`/api/v1/folders/${folder.id}/analytics`)).body,
    );

    await expect(c.readResource({ uri: "video-service://folders/nope/analytics" })).rejects.toMatchObject({
      code: -32602,
      data: { code: "VALIDATION_ERROR" },
    });
    await expect(c.readResource({ uri: "file:///etc/passwd" })).rejects.toMatchObject({ code: -32002, data: { code: "NOT_FOUND" } });
    await expect(c.listResources({ cursor: "abc" })).rejects.toMatchObject({ data: { code: "VALIDATION_ERROR" } });
  });
});

describe("the API key and rate limit of REST", () => {
  it("refuses a missing, malformed, unknown or revoked key with 401 UNAUTHORIZED", async () => {
    const ws = await newWorkspace();
    const { key: second, secret } = await createKey(ws.workspaceId, "agent");
    await expect(connect("svc_sk_" + "x".repeat(43))).rejects.toThrow(/401|UNAUTHORIZED/);
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const headers = { accept: "application/json, text/event-stream" };
    for (const authorization of [undefined, "svc_sk_abc", `Bearer ${secret} extra`, `Basic ${secret}`, `Bearer  ${"A".repeat(50)}`]) {
      const r = await request(api.url, "POST", "/mcp", {
        body: init,
        headers: { ...headers, ...(authorization ? { authorization } : {}) },
      });
      expect(r.status, String(authorization)).toBe(401);
      expect(r.body).toEqual({ code: "UNAUTHORIZED", message: expect.any(String) });
    }
    // The same key works, until it is revoked: refused on its very next request.
    const c = await connect(secret);
    expect((await call(c, "get_credits")).isError).toBe(false);
    await revokeKey(ws.workspaceId, second.id);
    await expect(call(c, "get_credits")).rejects.toThrow(/UNAUTHORIZED/);
  });

  it("counts each request against the key's budget; past it, 429 RATE_LIMITED with Retry-After", async () => {
    const ws = await newWorkspace();
    const { secret } = await createKey(ws.workspaceId, "busy agent");
    const budget = (await authenticate(secret))!.budget; // the key's budget (its secret's hash)
    const headers = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const first = await request(api.url, "POST", "/mcp", { key: secret, body: list, headers });
    expect(first.status).toBe(200);
    const remaining = Number(first.headers.get("ratelimit-remaining"));
    expect(remaining).toBeGreaterThan(0);
    expect(first.headers.get("x-request-id")).toBeTruthy();

    // A batch of three tool calls costs three units: the request, and one per call after the first.
    const batch = [1, 2, 3].map((id) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_credits", arguments: {} } }));
    const batched = await request(api.url, "POST", "/mcp", { key: secret, body: batch, headers });
    expect(batched.status).toBe(200);
    expect(batched.body).toHaveLength(3);
    const after = await request(api.url, "POST", "/mcp", { key: secret, body: list, headers });
    expect(Number(after.headers.get("ratelimit-remaining"))).toBe(remaining - 4);

    // Spend the rest of the budget (the same one REST and GraphQL draw from).
    for (;;) {
      try {
        await consumeRequest(budget);
      } catch (e) {
        expect(e).toBeInstanceOf(RateLimitedError);
        break;
      }
    }
    const limited = await request(api.url, "POST", "/mcp", { key: secret, body: list, headers });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: "RATE_LIMITED", message: expect.any(String) });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    await expect(connect(secret)).rejects.toThrow(/429|RATE_LIMITED/);
    // Another key of the same workspace has its own budget.
    expect((await call(await connect(ws.key), "get_credits")).isError).toBe(false);
  });
});

describe("unexpected errors", () => {
  it("become INTERNAL_ERROR with a request id (or SERVICE_UNAVAILABLE), never the error's own text", async () => {
    const failures = [
      new Error('relation "secret_table" does not exist'),
      Object.assign(new Error("connect ECONNREFUSED 10.0.0.9:5432"), { code: "ECONNREFUSED" }),
    ];
    let next = 0;
    const server = createMcpServer({
      begin: async () => {
        throw failures[next++]!;
      },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const c = new Client({ name: "in-memory", version: "1.0.0" });
    await c.connect(clientSide);
    try {
      const internal = await call(c, "get_credits");
      expect(internal).toEqual({
        isError: true,
        body: { code: "INTERNAL_ERROR", message: expect.any(String), requestId: expect.any(String) },
      });
      expect(JSON.stringify(internal.body)).not.toMatch(/secret_table/);
      const unavailable = await call(c, "get_credits");
      expect(unavailable.body).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
      expect(JSON.stringify(unavailable.body)).not.toMatch(/10\.0\.0\.9/);
    } finally {
      await c.close();
    }
  });
});
