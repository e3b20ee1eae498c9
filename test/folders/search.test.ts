/**
 * The text search `q` of the folders, tags and creators lists (the dashboard's pickers reach any of them by
 * name), one input in the domain and one name on every door: REST `GET /folders?q=`, `GET /tags?q=`,
 * `GET /creators?q=`, GraphQL `folders(q:)`, `tags(q:)`, `creators(q:)`, MCP `list_folders`, `list_tags`,
 * `list_creators` with `q`. Every word must appear (any case, part of a word), the total counts the matches,
 * LIKE's wildcards are plain characters, a bad `q` is the same VALIDATION_ERROR everywhere, and another
 * workspace's names never match.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { mcpCall as callTool } from "../helpers/mcp.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await stopAll(api);
});

const P = "/api/v1";
const NAMES = ["Client Acme: spring", "Client Acme: summer", "Hooks_that_work", "Hooks that work", "100% organic", "Other"];

const mcpCall = (key: string, name: string, args: Record<string, unknown>) => callTool(api.url, key, name, args);

/** One list on the three doors: its REST path, GraphQL field and MCP tool. */
const LISTS = [
  {
    what: "folders",
    rest: "/folders",
    field: "folders",
    tool: "list_folders",
    create: (name: string) => ({ path: "/folders", body: { name } }),
  },
  { what: "tags", rest: "/tags", field: "tags", tool: "list_tags", create: (name: string) => ({ path: "/tags", body: { name } }) },
  {
    what: "creators",
    rest: "/creators",
    field: "creators",
    tool: "list_creators",
    create: (name: string) => ({ path: "/creators", body: { name } }),
  },
] as const;

describe("q: the folders, tags and creators lists searched by name", () => {
  for (const list of LISTS) {
    it(`${list.what}: every word, any case, a part of a word; the total counts the matches; the same on REST, GraphQL and MCP`, async () => {
      const ws = await newWorkspace("pro");
      const other = await newWorkspace("pro");
      const c = client(api.url, ws.key);
      for (const name of NAMES) expect((await c.post(`${P}${list.create(name).path}`, list.create(name).body)).status).toBe(201);
      // Another workspace's "Acme" never matches.
      await client(api.url, other.key).post(`${P}${list.create("Acme elsewhere").path}`, list.create("Acme elsewhere").body);

      const rest = async (q: string, extra = "") => {
        const r = await c.get(`${P}${list.rest}?q=${encodeURIComponent(q)}${extra}`);
        expect(r.status, q).toBe(200);
        return { names: (r.body.data as { name: string }[]).map((x) => x.name).sort(), total: r.body.pagination.total as number };
      };
      expect(await rest("acme")).toEqual({ names: ["Client Acme: spring", "Client Acme: summer"], total: 2 });
      expect(await rest("SUM acme")).toEqual({ names: ["Client Acme: summer"], total: 1 });
      // LIKE's wildcards are plain characters: "_" is an underscore, "%" a percent sign.
      expect(await rest("hooks_")).toEqual({ names: ["Hooks_that_work"], total: 1 });
      expect(await rest("0%")).toEqual({ names: ["100% organic"], total: 1 });
      expect(await rest("   ")).toMatchObject({ total: NAMES.length });
      expect(await rest("nothing like it")).toEqual({ names: [], total: 0 });
      // A page of the matches: the total is still theirs.
      expect(await rest("client", "&limit=1")).toMatchObject({ total: 2 });

      const g = await gql(api.url, ws.key, `query($q: String) { ${list.field}(first: 1, q: $q) { totalCount edges { node { name } } } }`, {
        q: "ACME",
      });
      expect(g.body.errors).toBeUndefined();
      const connection = (g.body.data as Record<string, { totalCount: number; edges: { node: { name: string } }[] }>)[list.field]!;
      expect(connection.totalCount).toBe(2);
      expect(connection.edges).toHaveLength(1);

      const m = await mcpCall(ws.key, list.tool, { q: "acme spring" });
      expect(m.isError).toBe(false);
      expect(m.body.data.map((x: { name: string }) => x.name)).toEqual(["Client Acme: spring"]);
      expect(m.body.pagination.total).toBe(1);

      // One rule for a bad q on every door.
      const long = "x".repeat(201);
      const bad = await c.get(`${P}${list.rest}?q=${long}`);
      expect([bad.status, bad.body.code]).toEqual([400, "VALIDATION_ERROR"]);
      const badGql = await gql(api.url, ws.key, `query($q: String) { ${list.field}(first: 1, q: $q) { totalCount } }`, { q: long });
      expect(badGql.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
      expect((await mcpCall(ws.key, list.tool, { q: long })).isError).toBe(true);
    });
  }

  it("folders: q and parentId together keep the sub-folders of that folder whose name matches", async () => {
    const ws = await newWorkspace("pro");
    const c = client(api.url, ws.key);
    const parent = (await c.post(`${P}/folders`, { name: "Clients" })).body.data;
    await c.post(`${P}/folders`, { name: "Acme", parentId: parent.id });
    await c.post(`${P}/folders`, { name: "Globex", parentId: parent.id });
    await c.post(`${P}/folders`, { name: "Acme archive" });
    const r = await c.get(`${P}/folders?parentId=${parent.id}&q=acme`);
    expect(r.body.data.map((f: { name: string }) => f.name)).toEqual(["Acme"]);
    expect(r.body.pagination.total).toBe(1);
  });
});
