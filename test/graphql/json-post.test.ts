/**
 * JSON POSTs answered on node:http (src/http/graphql/json-post.ts) answer exactly what Yoga's own
 * request path answers: each request below goes to two servers of this process, one with the direct
 * path (the default) and one with GRAPHQL_DIRECT_POST=false, and the two answers must have the same
 * status, the same headers (but the per-request ones) and the same body (request ids aside).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../src/config.js";
import { prisma } from "../../src/infra/db.js";
import { directlyAnswered } from "../../src/http/graphql/json-post.js";
import type { RunningApi } from "../../src/main/server.js";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, signedIn } from "../helpers/people.js";

let direct: RunningApi;
let viaYoga: RunningApi;
let key: string;

beforeAll(async () => {
  direct = await startTestApi();
  (config.graphql as { directPost: boolean }).directPost = false;
  viaYoga = await startTestApi();
  (config.graphql as { directPost: boolean }).directPost = true;
  ({ key } = await newWorkspace("pro"));
});
afterAll(() => stopAll(direct, viaYoga));

/** Headers that differ from one request to the next whatever the path. */
const PER_REQUEST = new Set(["date", "x-request-id", "ratelimit-remaining", "ratelimit-reset", "keep-alive", "connection"]);

async function answer(api: RunningApi, init: { headers?: Record<string, string>; body: string; auth?: string | null }) {
  const headers: Record<string, string> = { "content-type": "application/json", ...init.headers };
  const auth = init.auth === undefined ? `Bearer ${key}` : init.auth;
  if (auth) headers.authorization = auth;
  const r = await fetch(`${api.url}/graphql`, { method: "POST", headers, body: init.body });
  const text = await r.text();
  const kept = [...r.headers].filter(([name]) => !PER_REQUEST.has(name)).sort(([a], [b]) => a.localeCompare(b));
  return { status: r.status, headers: Object.fromEntries(kept), body: text.replace(/"requestId":"[^"]+"/g, '"requestId":"…"') };
}

async function same(init: Parameters<typeof answer>[1]) {
  const a = await answer(direct, init);
  const b = await answer(viaYoga, init);
  expect(a, `direct vs Yoga for ${init.body.slice(0, 120)}`).toEqual(b);
  return a;
}

const q = (query: string, extra: Record<string, unknown> = {}) => JSON.stringify({ query, ...extra });

describe("a JSON POST answered directly answers as Yoga does", () => {
  it("a query, with variables and an operation name", async () => {
    const before = directlyAnswered.count;
    const a = await same({ body: q("{ workspace { plan } videos(first: 2) { totalCount edges { node { id } } } }") });
    expect(directlyAnswered.count, "the direct path answered it (the other server is Yoga's)").toBe(before + 1);
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body).data.workspace.plan).toBeTruthy();
    await same({ body: q("query Page($n: Int!) { videos(first: $n) { totalCount } }", { variables: { n: 3 }, operationName: "Page" }) });
    await same({ body: q("query A { workspace { plan } } query B { videos(first: 1) { totalCount } }", { operationName: "B" }) });
    await same({ body: q("query A { workspace { plan } } query B { videos(first: 1) { totalCount } }") }); // which one?
  });

  it("a page of videos with every field, each video's account read with the page, and timestamps as PostgreSQL wrote them", async () => {
    // Simulated rows (SQL, not scrapes): accounts tracked and not, videos with and without an owner,
    // counts and timestamps with and without fractions of a second, nulls.
    const { workspaceId, key: own } = await newWorkspace("pro");
    await prisma.$executeRawUnsafe(`
      WITH a AS (
        INSERT INTO accounts (platform, username, platform_account_id, display_name, avatar_url, follower_count, data_source, scrape_status, last_scraped_at, created_at, updated_at)
        SELECT 'platformA', 'jsonpost_' || i, 'jp' || i, 'Json Post ' || i, '', CASE WHEN i = 2 THEN NULL ELSE 1000 * i END, 'simulated', 'ready',
               timestamptz '2026-11-24 10:07:23.480123+00' + make_interval(secs => i * 1.5), timestamptz '2026-11-01 00:00:00+00', now()
          FROM generate_series(1, 3) AS i RETURNING id, username),
      t AS (INSERT INTO tracked_accounts (workspace_id, account_id, video_limit) SELECT '${workspaceId}'::uuid, id, 10 FROM a WHERE username = 'jsonpost_1'),
      v AS (
        INSERT INTO videos (platform, platform_video_id, url, description, hashtags, view_count, like_count, account_id, username, data_source, scrape_status, posted_at, last_scraped_at, created_at, updated_at)
        SELECT 'platformA', 'jpv' || i, 'https://www.tiktok.com/@jsonpost/video/' || i, 'video ' || i || ' "quoted" é', ARRAY['a', 'b'], 10 * i, i,
               CASE WHEN i % 4 = 0 THEN NULL ELSE (SELECT id FROM a WHERE username = 'jsonpost_' || (1 + i % 3)) END, 'jsonpost', 'simulated', 'ready',
               timestamptz '2026-10-01 12:00:00+00' + make_interval(secs => i * 0.25), CASE WHEN i % 3 = 0 THEN NULL ELSE now() END, now(), now()
          FROM generate_series(1, 8) AS i RETURNING id)
      INSERT INTO tracked_videos (workspace_id, video_id) SELECT '${workspaceId}'::uuid, id FROM v`);
    const fields = `uuid type platformVideoId url description hashtags viewCount likeCount commentCount engagementRate postedAt lastScrapedAt createdAt trackedAt nextRefreshAt views24h outlierScore`;
    const account = `account { id uuid username displayName followerCount lastScrapedAt createdAt nextRefreshAt tracking { trackedAccountId videoLimit trackedAt } }`;
    const asOwn = { auth: `Bearer ${own}` };
    const list = await same({
      ...asOwn,
      body: q(`{ videos(first: 8) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ${fields} ${account} } } } }`),
    });
    const edges = JSON.parse(list.body).data.videos.edges;
    expect(edges).toHaveLength(8);
    expect(edges.filter((e: any) => e.node.account === null)).toHaveLength(2);
    expect(edges.filter((e: any) => e.node.account?.tracking)).not.toHaveLength(0);
    expect(edges.map((e: any) => e.node.postedAt)).toContain("2026-10-01T12:00:00.250Z");
    // The same with the account behind a fragment, and without it.
    await same({
      ...asOwn,
      body: q(`{ videos(first: 8, sort: POSTED_AT) { edges { node { ...V } } } } fragment V on Video { uuid ${account} }`),
    });
    await same({ ...asOwn, body: q(`{ videos(first: 3) { edges { node { ${fields} } } } }`) });
  });

  it("refusals of the document: syntax, validation, variables, limits", async () => {
    for (const body of [
      q("{ workspace { plan }"),
      q("{ nope }"),
      q("query($n: Int!) { videos(first: $n) { totalCount } }", { variables: { n: "three" } }),
      q("query($n: Int!) { videos(first: $n) { totalCount } }"),
      q(`{ ${Array.from({ length: 40 }, (_, i) => `a${i}: workspace { plan }`).join(" ")} }`),
      q('mutation { createFolder(name: "") { id } }'),
    ]) {
      const a = await same({ body });
      expect(a.body).toContain('"errors"');
    }
    // Introspection within the limits: answered, the same.
    await same({ body: q("{ __schema { types { name fields { name args { name } } } } }") });
  });

  it("each Accept a client sends, and the status each gives an error", async () => {
    for (const accept of [
      "application/json",
      "application/graphql-response+json",
      "application/graphql-response+json, application/json;q=0.9",
      "*/*",
      "text/html",
    ]) {
      await same({ body: q("{ workspace { plan } }"), headers: { accept } });
      await same({ body: q("{ nope }"), headers: { accept } });
    }
    await same({ body: q("{ workspace { plan } }"), headers: { "content-type": "application/json; charset=utf-8" } });
  });

  it("a request refused before execution is 4xx under application/graphql-response+json, 200 under application/json (GraphQL over HTTP)", async () => {
    const refusedBeforeExecution: [string, string][] = [
      ["a parse error", q("{ workspace { plan }")],
      ["a validation error", q("{ nope }")],
      ["too many aliases", q(`{ ${Array.from({ length: 40 }, (_, i) => `a${i}: workspace { plan }`).join(" ")} }`)],
      [
        "too costly",
        q(
          "{ videos(first: 100) { edges { node { account { videos(first: 100) { edges { node { id url account { username } } } } } } } } }",
        ),
      ],
      ["too many tokens", q(`{ ${"__typename ".repeat(11_000)} }`)],
      ["introspection asked twice", q("{ __schema { types { name } } a: __schema { types { name } } }")],
      ["a variable missing", q("query($n: Int!) { videos(first: $n) { totalCount } }")],
      ["a variable of the wrong type", q("query($n: Int!) { videos(first: $n) { totalCount } }", { variables: { n: "three" } })],
      ["a variable holding NUL", q("query($q: String!) { videos(first: 1, q: $q) { totalCount } }", { variables: { q: "a\u0000b" } })],
    ];
    for (const [what, body] of refusedBeforeExecution) {
      const spec = await same({ body, headers: { accept: "application/graphql-response+json" } });
      expect(spec.status, what).toBe(400);
      expect(JSON.parse(spec.body).data, what).toBeUndefined();
      expect((await same({ body, headers: { accept: "application/json" } })).status, `${what} (application/json)`).toBe(200);
    }
    // An error while executing (data present) stays 200 under both.
    for (const accept of ["application/graphql-response+json", "application/json"]) {
      const executed = await same({ body: q('mutation { createFolder(name: "") { id } }'), headers: { accept } });
      expect(executed.status, accept).toBe(200);
      expect(JSON.parse(executed.body)).toMatchObject({ data: null, errors: [{ extensions: { code: "VALIDATION_ERROR" } }] });
    }
  });

  it("the parameters Yoga checks, and bodies it reads itself", async () => {
    for (const body of [
      "{",
      "[]",
      `[${q("{ workspace { plan } }")}]`,
      "null",
      "5",
      JSON.stringify({ query: 5 }),
      JSON.stringify({ query: "{ workspace { plan } }", foo: 1 }),
      JSON.stringify({}),
    ]) {
      await same({ body });
    }
  });

  it("one unit of the budget per request, whoever answers it: the direct path, Yoga after a hand-over, a refusal", async () => {
    const remaining = async (body: string) => {
      const r = await fetch(`${direct.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body,
      });
      await r.text();
      return Number(r.headers.get("ratelimit-remaining"));
    };
    let last = await remaining(q("{ workspace { plan } }"));
    expect(last).toBeGreaterThan(10);
    // A direct answer, two bodies handed over to Yoga (invalid JSON, a batch), a document Yoga's validation refuses.
    for (const body of [q("{ workspace { plan } }"), "{", "[]", q("{ nope }")]) {
      const now = await remaining(body);
      expect(now, body).toBe(last - 1);
      last = now;
    }
  });

  it("a person's session: the same answers, the CSRF rule and another workspace's refusal on both paths", async () => {
    const mine = await newWorkspace("free", "Mine");
    const theirs = await newWorkspace("free", "Theirs");
    const email = `json-post-${Date.now()}@example.com`;
    await newPerson(email, mine.workspaceId, "owner");
    const cookie = (await signedIn(direct.url, email)).cookieHeader();
    const asPerson = (headers: Record<string, string>) => ({ auth: null, headers: { cookie, ...headers } });
    const read = await same({ body: q("{ workspace { uuid } viewer { email } }"), ...asPerson({ "x-requested-with": "dashboard" }) });
    expect(JSON.parse(read.body).data).toEqual({ workspace: { uuid: mine.workspaceId }, viewer: { email } });
    // A cookie write without the non-simple header: refused (CSRF) on both, nothing created.
    const csrf = await same({ body: q('mutation { createFolder(name: "csrf") { name } }'), ...asPerson({}) });
    expect(csrf.status).toBe(403);
    expect(await prisma.folder.count({ where: { workspaceId: mine.workspaceId } })).toBe(0);
    // A workspace the person is not in: 404 on both, whatever the operation.
    const other = await same({ body: q("{ workspace { uuid } }"), ...asPerson({ "x-workspace-id": theirs.workspaceId }) });
    expect(other.status).toBe(404);
    expect(other.body).not.toContain(theirs.workspaceId);
  });

  it("credentials: none, unknown, malformed; an Origin gets no CORS headers on either path", async () => {
    await same({ body: q("{ workspace { plan } }"), auth: null });
    await same({ body: q("{ workspace { plan } }"), auth: "Bearer svc_sk_unknown" });
    await same({ body: q("{ workspace { plan } }"), auth: "Basic abc" });
    const a = await same({ body: q("{ workspace { plan } }"), headers: { origin: "https://elsewhere.example" } });
    expect(Object.keys(a.headers).filter((h) => h.startsWith("access-control"))).toEqual([]);
  });

  it("an idempotent mutation replayed, and a subscription asked for as one JSON answer", async () => {
    const body = q('mutation { createFolder(name: "Direct") { name } }');
    // The same key on both servers: the first stores the answer, every later one replays it.
    const first = await answer(direct, { body, headers: { "idempotency-key": "json-post-1" } });
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ data: { createFolder: { name: "Direct" } } });
    const a = await answer(direct, { body, headers: { "idempotency-key": "json-post-1" } });
    const b = await answer(viaYoga, { body, headers: { "idempotency-key": "json-post-1" } });
    expect(a).toEqual(b);
    expect(a.headers["idempotent-replayed"]).toBe("true");
    await same({ body: q("subscription { workspaceEvents { type } }"), headers: { accept: "application/json" } });
  });
});

/** A GET to /graphql with these query-string parameters, on the direct path and on Yoga's: the same answer. */
async function sameGet(params: Record<string, string>, headers: Record<string, string> = {}, auth: string | null = `Bearer ${key}`) {
  const path = `/graphql?${new URLSearchParams(params)}`;
  const ask = async (api: RunningApi) => {
    const r = await fetch(`${api.url}${path}`, { headers: { ...(auth ? { authorization: auth } : {}), ...headers } });
    const text = await r.text();
    const kept = [...r.headers].filter(([name]) => !PER_REQUEST.has(name)).sort(([a], [b]) => a.localeCompare(b));
    return { status: r.status, headers: Object.fromEntries(kept), body: text.replace(/"requestId":"[^"]+"/g, '"requestId":"…"') };
  };
  const a = await ask(direct);
  expect(a, `direct vs Yoga for GET ${path.slice(0, 120)}`).toEqual(await ask(viaYoga));
  return a;
}

describe("a GET answered directly answers as Yoga does", () => {
  it("a query, with variables, an operation name and each Accept; answered on the direct path", async () => {
    const before = directlyAnswered.count;
    const a = await sameGet({ query: "{ workspace { plan } videos(first: 2) { totalCount edges { node { id } } } }" });
    expect(directlyAnswered.count, "the direct path answered it (the other server is Yoga's)").toBe(before + 1);
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body).data.workspace.plan).toBeTruthy();
    await sameGet({ query: "query Page($n: Int!) { videos(first: $n) { totalCount } }", variables: '{"n":3}', operationName: "Page" });
    await sameGet({ query: "query A { workspace { plan } } query B { videos(first: 1) { totalCount } }", operationName: "B" });
    for (const accept of ["application/json", "application/graphql-response+json", "*/*"]) {
      await sameGet({ query: "{ workspace { plan } }" }, { accept });
      await sameGet({ query: "{ nope }" }, { accept });
    }
  });

  it("refusals: a mutation (405), no query, parameters that are not JSON, syntax, validation, variables; credentials", async () => {
    const mutation = await sameGet({ query: 'mutation { createFolder(name: "via GET") { id } }' });
    expect(mutation.status).toBe(405);
    expect(mutation.headers.allow).toBe("POST");
    const refused: Record<string, string>[] = [
      { operationName: "A" },
      { query: "" },
      { query: "{ workspace { plan } }", variables: "{" },
      { query: "{ workspace { plan } }", extensions: "not json" },
      { query: "{ workspace { plan } }", variables: "[1]" },
      { query: "{ workspace { plan }" },
      { query: "query($n: Int!) { videos(first: $n) { totalCount } }", variables: '{"n":"three"}' },
      { query: "{ workspace { plan } }", foo: "1" },
    ];
    for (const params of refused) {
      await sameGet(params);
      await sameGet(params, { accept: "application/graphql-response+json" });
    }
    await sameGet({ query: "{ workspace { plan } }" }, {}, null);
    await sameGet({ query: "{ workspace { plan } }" }, {}, "Bearer svc_sk_unknown");
  });

  it("a person's session: the same answers on both paths, and another workspace's refusal", async () => {
    const mine = await newWorkspace("free", "Mine by GET");
    const theirs = await newWorkspace("free", "Theirs by GET");
    const email = `json-get-${Date.now()}@example.com`;
    await newPerson(email, mine.workspaceId, "owner");
    const cookie = (await signedIn(direct.url, email)).cookieHeader();
    const read = await sameGet({ query: "{ workspace { uuid } viewer { email } }" }, { cookie }, null);
    expect(JSON.parse(read.body).data).toEqual({ workspace: { uuid: mine.workspaceId }, viewer: { email } });
    const other = await sameGet({ query: "{ workspace { uuid } }" }, { cookie, "x-workspace-id": theirs.workspaceId }, null);
    expect(other.status).toBe(404);
    expect(other.body).not.toContain(theirs.workspaceId);
    // A mutation by GET with the cookie: 405 on both paths, nothing created.
    const write = await sameGet(
      { query: 'mutation { createFolder(name: "by GET") { id } }' },
      { cookie, "x-requested-with": "dashboard" },
      null,
    );
    expect(write.status).toBe(405);
    expect(await prisma.folder.count({ where: { workspaceId: mine.workspaceId } })).toBe(0);
  });

  it("a browser's GET (text/html) still gets GraphiQL from Yoga, and one unit of the budget per GET", async () => {
    const before = directlyAnswered.count;
    const page = await fetch(`${direct.url}/graphql?query=${encodeURIComponent("{ workspace { plan } }")}`, {
      headers: { accept: "text/html", authorization: `Bearer ${key}` },
    });
    expect(page.headers.get("content-type")).toContain("text/html");
    await page.text();
    expect(directlyAnswered.count).toBe(before);
    const remaining = async (params: Record<string, string>) => {
      const r = await fetch(`${direct.url}/graphql?${new URLSearchParams(params)}`, { headers: { authorization: `Bearer ${key}` } });
      await r.text();
      return Number(r.headers.get("ratelimit-remaining"));
    };
    let last = await remaining({ query: "{ workspace { plan } }" });
    // Answered here, handed to Yoga (variables not JSON), refused by validation.
    const asked: Record<string, string>[] = [
      { query: "{ workspace { plan } }" },
      { query: "{ workspace { plan } }", variables: "{" },
      { query: "{ nope }" },
    ];
    for (const params of asked) {
      const now = await remaining(params);
      expect(now, JSON.stringify(params)).toBe(last - 1);
      last = now;
    }
  });
});
