/**
 * Bounded answers and rules in one place:
 * - history ranges are capped in the domain (src/domain/tracking/history.ts, MAX_HISTORY_DAYS), on
 *   every door: 366 days with interval=hour, 3653 (ten years) with day; beyond, 400 VALIDATION_ERROR
 *   naming the cap;
 * - GraphQL refusals of graphql-armor's bounds carry a code a client can branch on and a message that
 *   says what was found, the limit and its setting (src/http/graphql/limits.ts);
 * - `nodes(ids:)` takes at most 100 ids;
 * - account-history tenancy is the domain read's (accountHistories answers null for an account the
 *   workspace does not track), and a lone surrogate in a GraphQL literal `url:` is INVALID_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql, newWorkspace, request, startTestApi, stopAll } from "../helpers/api.js";
import { prisma } from "../../src/infra/db.js";
import { accountHistories, historyRange } from "../../src/domain/tracking/history.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
let ws: { workspaceId: string; key: string };
let videoId: string;
let ownerId: string;
beforeAll(async () => {
  api = await startTestApi();
  ws = await newWorkspace();
  const owner = await prisma.account.create({ data: { platform: "platformB", username: "bounded.owner" } });
  ownerId = owner.id;
  const video = await prisma.video.create({
    data: {
      platform: "platformB",
      platformVideoId: "boundedVid1",
      url: "https://www.youtube.com/watch?v=boundedVid1",
      accountId: owner.id,
    },
  });
  videoId = video.id;
  await prisma.trackedVideo.create({ data: { workspaceId: ws.workspaceId, videoId } });
});
afterAll(() => stopAll(api));

const DAY = 86_400_000;
const day = (d: Date) => d.toISOString().slice(0, 10);
/** A range of `days` inclusive days ending today. */
const range = (days: number) => {
  const end = new Date();
  return { start: day(new Date(end.getTime() - (days - 1) * DAY)), end: day(end) };
};

describe("history ranges are capped in the domain, on every door", () => {
  it("REST: 366 days hourly and 3653 days daily answer; one day more is 400 naming the cap", async () => {
    const get = (days: number, interval: string) => {
      const r = range(days);
      return request(api.url, "GET", `/api/v1/videos/${videoId}/history?start_date=${r.start}&end_date=${r.end}&interval=${interval}`, {
        key: ws.key,
      });
    };
    expect((await get(366, "hour")).status).toBe(200);
    const hourly = await get(367, "hour");
    expect(hourly.status).toBe(400);
    expect(hourly.body.code).toBe("VALIDATION_ERROR");
    expect(hourly.body.message).toMatch(/at most 366 days; this one spans 367/);
    expect((await get(3653, "day")).status).toBe(200);
    const daily = await get(3654, "day");
    expect(daily.status).toBe(400);
    expect(daily.body.message).toMatch(/at most 3653 days/);
    // A start alone reaches to today: the same cap.
    const old = await request(api.url, "GET", `/api/v1/accounts/${ownerId}/history?start_date=2000-01-01`, { key: ws.key });
    expect(old.status).toBe(400);
    expect(old.body.code).toBe("VALIDATION_ERROR");
  });

  it("GraphQL and the domain read (MCP calls the same historyRange) refuse the same range", async () => {
    const r = range(367);
    const video = Buffer.from(`Video:${videoId}`).toString("base64");
    const answer = await gql(
      api.url,
      ws.key,
      `query($id: ID!, $s: String, $e: String) { node(id: $id) { ... on Video { history(interval: HOUR, startDate: $s, endDate: $e) { totalCount } } } }`,
      {
        id: video,
        s: r.start,
        e: r.end,
      },
    );
    expect(answer.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    expect(answer.body.errors?.[0]?.message).toMatch(/at most 366 days/);
    expect(() => historyRange({ start_date: new Date(r.start), end_date: new Date(r.end), interval: "hour" })).toThrow(
      expect.objectContaining({ code: "VALIDATION_ERROR" }),
    );
    expect(historyRange({ start_date: new Date(r.start), end_date: new Date(r.end), interval: "day" }).interval).toBe("day");
  });
});

describe("GraphQL refusals a client can branch on", () => {
  const codeOf = (r: Awaited<ReturnType<typeof gql>>) => r.body.errors?.[0]?.extensions?.code;
  const messageOf = (r: Awaited<ReturnType<typeof gql>>) => r.body.errors?.[0]?.message ?? "";

  it("cost, depth, aliases and directives: each its code, and an honest message (no 'Syntax Error')", async () => {
    const costly = await gql(
      api.url,
      ws.key,
      `{ videos(first: 100) { edges { node { history(first: 100) { edges { node { viewCount likeCount commentCount shareCount } } } } } } }`,
    );
    expect(codeOf(costly)).toBe("QUERY_TOO_COSTLY");
    expect(messageOf(costly)).toMatch(/^The operation's estimated cost is [\d,]+; the limit is 50,000 \(GRAPHQL_MAX_COST/);
    const deep = await gql(api.url, ws.key, `${"{ a ".repeat(20)}${"}".repeat(20)}`);
    expect(codeOf(deep)).toBe("QUERY_TOO_DEEP");
    expect(messageOf(deep)).toMatch(/levels deep; the limit is 12 \(GRAPHQL_MAX_DEPTH/);
    const aliased = await gql(api.url, ws.key, `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: workspace { plan }`).join(" ")} }`);
    expect(codeOf(aliased)).toBe("QUERY_TOO_MANY_ALIASES");
    expect(messageOf(aliased)).toMatch(/31 aliases; the limit is 30 \(GRAPHQL_MAX_ALIASES\)/);
    const directed = await gql(api.url, ws.key, `{ workspace ${"@include(if: true) ".repeat(51)} { plan } }`);
    expect(codeOf(directed)).toBe("QUERY_TOO_MANY_DIRECTIVES");
    expect(messageOf(directed)).toMatch(/51 directives; the limit is 50 \(GRAPHQL_MAX_DIRECTIVES\)/);
    for (const r of [costly, deep, aliased, directed]) {
      expect(messageOf(r)).not.toMatch(/Syntax Error/);
      expect(r.body.data ?? null).toBeNull();
    }
  });

  it("nodes(ids:) takes at most 100 ids: 101 is a VALIDATION_ERROR saying so", async () => {
    const ids = (n: number) =>
      Array.from({ length: n }, (_, i) => Buffer.from(`Folder:00000000-0000-4000-8000-${String(i).padStart(12, "0")}`).toString("base64"));
    const ok = await gql(api.url, ws.key, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: ids(100) });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.nodes).toHaveLength(100);
    const over = await gql(api.url, ws.key, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: ids(5000) });
    expect(over.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    expect(over.body.errors?.[0]?.message).toMatch(/at most 100 ids.*asks for 5000/);
    expect(over.body.data ?? null).toBeNull();
  });
});

describe("rules in one place", () => {
  it("account history: the domain read answers null for an account the workspace does not track", async () => {
    const window = { limit: 10, inverted: false };
    const untracked = await accountHistories(ws.workspaceId, [ownerId], historyRange({}), window as never);
    expect(untracked.get(ownerId)).toBeNull();
    await prisma.trackedAccount.create({ data: { workspaceId: ws.workspaceId, accountId: ownerId, videoLimit: 1 } });
    const other = await newWorkspace();
    expect((await accountHistories(ws.workspaceId, [ownerId], historyRange({}), window as never)).get(ownerId)).toEqual([]);
    expect((await accountHistories(other.workspaceId, [ownerId], historyRange({}), window as never)).get(ownerId)).toBeNull();
    await prisma.trackedAccount.deleteMany({ where: { workspaceId: ws.workspaceId, accountId: ownerId } });
  });

  it("a lone surrogate in a literal url: is INVALID_URL, as in a variable (as a character and as a GraphQL escape)", async () => {
    const post = (body: string) =>
      request(api.url, "POST", "/graphql", { key: ws.key, rawBody: body, headers: { "content-type": "application/json" } });
    const asChar = await post('{"query":"mutation { trackVideo(url: \\"https://www.tiktok.com/@a/video/1\\ud800\\") { __typename } }"}');
    expect(asChar.body.errors?.[0]?.extensions?.code).toBe("INVALID_URL");
    const asEscape = await post('{"query":"mutation { trackAccount(url: \\"https://www.tiktok.com/@a\\\\ud800\\") { __typename } }"}');
    expect(asEscape.body.errors?.[0]?.extensions?.code).toBe("INVALID_URL");
    const variable = await post(
      '{"query":"mutation($u: String!) { trackVideo(url: $u) { __typename } }","variables":{"u":"https://www.tiktok.com/@a/video/1\\ud800"}}',
    );
    expect(variable.body.errors?.[0]?.extensions?.code).toBe("INVALID_URL");
    // Elsewhere in the document it stays VALIDATION_ERROR.
    const name = await post('{"query":"mutation { createFolder(name: \\"\\ud800\\") { name } }"}');
    expect(name.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
  });
});
