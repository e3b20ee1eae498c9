/**
 * MCP over stdio, launched the way the README tells a desktop assistant to launch it
 * (`npm --prefix <service> run --silent cli -- mcp --key <key>`, from another directory), driven by
 * the SDK's own stdio client; and by hand, to check that stdout carries protocol messages only.
 */
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { newWorkspace, stopAll } from "../helpers/api.js";
import { createTrackedVideo } from "../folders/fixtures.js";
import { createKey, revokeKey } from "../../src/domain/keys/service.js";
import { prisma } from "../../src/infra/db.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const launchArgs = (key: string) => ["--prefix", ROOT, "run", "--silent", "cli", "--", "mcp", "--key", key];
const environment = (extra: Record<string, string>) => ({ ...(process.env as Record<string, string>), ...extra });

afterAll(() => stopAll());

interface Launched {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
}

async function launch(key: string, env: Record<string, string> = {}): Promise<Launched> {
  const transport = new StdioClientTransport({
    command: "npm",
    args: launchArgs(key),
    cwd: tmpdir(),
    env: environment(env),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: "mcp-stdio-test", version: "1.0.0" });
  const problems: Error[] = [];
  client.onerror = (e) => problems.push(e);
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => {
      // A line on stdout that is not a JSON-RPC message would have surfaced here.
      expect(problems).toEqual([]);
      return stderr;
    },
  };
}

async function call(c: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; body: any }> {
  const r = (await c.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: unknown };
  return { isError: r.isError === true, body: r.structuredContent };
}

/** Runs the launch command by hand: feeds `input` lines, ends stdin, collects stdout, stderr and the exit code. */
function runByHand(
  key: string,
  input: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn("npm", launchArgs(key), { cwd: tmpdir(), env: environment(env), stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
    // Answers before end-of-input: write the lines, wait for every answer, then close stdin.
    const expected = input.filter((l) => /"id":/.test(l)).length;
    for (const line of input) child.stdin.write(`${line}\n`);
    const check = setInterval(() => {
      if (stdout.split("\n").filter(Boolean).length >= expected || child.exitCode !== null) {
        clearInterval(check);
        child.stdin.end();
      }
    }, 50);
  });
}

describe("MCP over stdio (npm run cli -- mcp --key …)", () => {
  it("serves the key's workspace: tools listed and called, other workspaces' ids not found, a revoked key refused", async () => {
    const ws = await newWorkspace();
    const { key, secret } = await createKey(ws.workspaceId, "desktop assistant");
    const mine = await createTrackedVideo(ws.workspaceId, { viewCount: 777 });
    const theirs = await createTrackedVideo((await newWorkspace()).workspaceId);
    const s = await launch(secret, { LOG_LEVEL: "info" });
    try {
      const { tools } = await s.client.listTools();
      expect(tools).toHaveLength(37);
      expect(tools.find((t) => t.name === "list_videos")!.inputSchema.properties!.limit).toMatchObject({ maximum: 100 });

      expect((await call(s.client, "get_workspace")).body.data).toMatchObject({
        plan: "free",
        limits: { video_limit: 100, video_slots_used: 1 },
      });
      const list = await call(s.client, "list_videos");
      expect(list.body.data.map((v: any) => v.id)).toEqual([mine.id]);
      expect(list.body.data[0].viewCount).toBe(777);
      expect(await call(s.client, "get_video", { video_id: theirs.id })).toEqual({
        isError: true,
        body: { code: "NOT_FOUND", message: "Video not found." },
      });
      expect((await call(s.client, "list_videos", { limit: 101 })).body).toMatchObject({ code: "VALIDATION_ERROR" });

      const tracked = await call(s.client, "track_video", { url: "https://www.youtube.com/shorts/abcDEF12345" });
      expect(tracked.isError).toBe(false);
      expect(await prisma.trackedVideo.count({ where: { workspaceId: ws.workspaceId } })).toBe(2);

      const { resources } = await s.client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(["video-service://workspace"]);

      // Revoked while the assistant runs: refused on the very next call.
      await revokeKey(ws.workspaceId, key.id);
      expect(await call(s.client, "get_credits")).toEqual({ isError: true, body: { code: "UNAUTHORIZED", message: expect.any(String) } });
      expect(s.stderr()).not.toMatch(/"level":50/); // no unexpected error was logged
    } finally {
      await s.client.close();
    }
  });

  it("counts one unit of the key's rate limit per tool call", async () => {
    const ws = await newWorkspace();
    const s = await launch(ws.key, { RATE_LIMIT_PER_MINUTE: "3" });
    try {
      await s.client.listTools(); // not counted
      for (let i = 0; i < 3; i++) expect((await call(s.client, "get_credits")).isError).toBe(false);
      const limited = await call(s.client, "get_credits");
      expect(limited).toEqual({ isError: true, body: { code: "RATE_LIMITED", message: expect.stringMatching(/3 requests per minute/) } });
      s.stderr();
    } finally {
      await s.client.close();
    }
  });

  it("writes nothing but MCP messages on stdout (logs go to stderr) and exits 0 when stdin ends", async () => {
    const ws = await newWorkspace();
    const r = await runByHand(
      ws.key,
      [
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "hand", version: "1" } },
        }),
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
        "this is not JSON-RPC",
        JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "track_video", arguments: { url: "https://www.tiktok.com/@hand/video/7301234567890000001" } },
        }),
        JSON.stringify({
          jsonrpc: "2.0",
          id: 3,
          method: "tools/call",
          params: { name: "get_video", arguments: { video_id: "not a uuid" } },
        }),
      ],
      { LOG_LEVEL: "debug" },
    );
    expect(r.code).toBe(0);
    // Every line is a JSON-RPC message (requests are served concurrently: answers in any order).
    const answers = r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    for (const a of answers) expect(a.jsonrpc).toBe("2.0");
    const byId = new Map(answers.map((a) => [a.id, a]));
    expect([...byId.keys()].sort()).toEqual([1, 2, 3]);
    expect(byId.get(2).result.structuredContent.data.isNew).toBe(true);
    expect(byId.get(3).result).toMatchObject({ isError: true, structuredContent: { code: "VALIDATION_ERROR" } });
    // The unreadable line was logged, on stderr.
    expect(r.stderr).toMatch(/"msg":"MCP stdio: unreadable message"/);
  });

  it("an unusable key or no key ends the process at once, with the reason on stderr and nothing on stdout", async () => {
    const unknown = await runByHand("svc_sk_" + "x".repeat(43), []);
    expect(unknown).toEqual({
      code: 1,
      stdout: "",
      stderr: expect.stringMatching(/UNAUTHORIZED: The API key given with --key is malformed, unknown or revoked/),
    });
    const none = await runByHand("", []);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe("");
    expect(none.stderr).toMatch(/USAGE: --key is required/);
  });
});
