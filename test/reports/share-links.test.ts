/**
 * Shareable folder reports: owners make, list and revoke links (REST and GraphQL,
 * audited); the narrow entry POST /graphql/shared answers a token's folder and nothing else (no id
 * that works elsewhere, never another workspace's data), 404 once revoked or expired (the same answer
 * as an unknown token), its own bounds (no introspection, one root field), and 429 with Retry-After past
 * the per-address limit; /r/<token> is the dashboard's page with noindex.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { client, newWorkspace, request, startTestApi, stopAll, gql } from "../helpers/api.js";
import { newPerson, signedIn } from "../helpers/people.js";
import { prisma } from "../../src/infra/db.js";
import { redis } from "../../src/infra/redis.js";
import { config } from "../../src/config.js";
import { SHARED_REPORT_REQUESTS_PER_MINUTE } from "../../src/domain/reports/limits.js";
import { seedFolder } from "./fixtures.js";

const api = await startTestApi();
const a = await newWorkspace("pro", "Agency A");
const b = await newWorkspace("pro", "Agency B");
const seededA = await seedFolder(a.workspaceId, "Campaign Alpha", { prefix: "alpha" });
const otherA = await seedFolder(a.workspaceId, "Secret Other Folder", { prefix: "secretother" });
const seededB = await seedFolder(b.workspaceId, "Campaign Bravo", { prefix: "bravo" });
const ca = client(api.url, a.key);
const cb = client(api.url, b.key);

afterAll(() => stopAll(api));

const QUERY = `query($token: String!, $period: SharedReportPeriod) { sharedFolderReport(token: $token, period: $period) {
  folderName generatedAt expiresAt
  cards { totalVideos totalAccounts totalViews totalLikes totalComments totalShares avgEngagementRate }
  growth { date totalFollowers totalViews totalVideos }
  topVideos { rank username description views }
  topAccounts { rank platform username displayName followers totalViews } } }`;

const shared = (body: unknown, headers: Record<string, string> = {}) => request(api.url, "POST", "/graphql/shared", { body, headers });
const report = (token: string, period = "D30") => shared({ query: QUERY, variables: { token, period } });
const tokenOf = (url: string) => new URL(url).pathname.replace(/^\/r\//, "");

/** Each case starts with a fresh per-address budget. */
beforeEach(async () => {
  await redis().del(`${config.redisPrefix}:shared-report:127.0.0.1`);
});

describe("share links", () => {
  it("an owner makes a link (URL once), lists it and the page shows the folder's report only", async () => {
    const made = await ca.post(`/api/v1/folders/${seededA.folder.id}/share-links`, { expiresInDays: 7 });
    expect(made.status).toBe(201);
    expect(made.body.data.url).toMatch(new RegExp(`^${config.people.publicUrl}/r/[A-Za-z0-9_-]{43}$`));
    expect(made.body.data.status).toBe("active");
    expect(Date.parse(made.body.data.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const token = tokenOf(made.body.data.url);
    // Only the SHA-256 is stored.
    const rows = await prisma.$queryRawUnsafe<{ h: string }[]>(
      `SELECT encode(token_hash, 'hex') AS h FROM folder_share_links WHERE id = $1::uuid`,
      made.body.data.id,
    );
    expect(rows[0]!.h).toBe((await import("node:crypto")).createHash("sha256").update(token).digest("hex"));

    const listed = await ca.get(`/api/v1/folders/${seededA.folder.id}/share-links`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((l: { id: string }) => l.id)).toContain(made.body.data.id);
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const r = await report(token, "D7");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-robots-tag")).toMatch(/noindex/);
    const data = r.body.data.sharedFolderReport;
    expect(data.folderName).toBe("Campaign Alpha");
    expect(data.cards).toMatchObject({ totalVideos: 3, totalAccounts: 1, totalViews: 6000 });
    expect(data.growth).toHaveLength(7);
    expect(data.growth.at(-1)).toMatchObject({ totalFollowers: 12_345, totalViews: 987_654 });
    expect(data.topVideos.map((v: { views: number }) => v.views)).toEqual([3000, 2000, 1000]);
    expect(data.topAccounts).toEqual([
      {
        rank: 1,
        platform: "platformA",
        username: "alpha_creator",
        displayName: "Creator alpha_creator",
        followers: 12_345,
        totalViews: 987_654,
      },
    ]);
    // An explicit null period is the default window (30 days), never the whole history nor a 500.
    const nullPeriod = await shared({
      query: `query($token: String!) { sharedFolderReport(token: $token, period: null) { period growth { date } } }`,
      variables: { token },
    });
    expect([
      nullPeriod.status,
      nullPeriod.body.data?.sharedFolderReport.period,
      nullPeriod.body.data?.sharedFolderReport.growth.length,
    ]).toEqual([200, "D30", 30]);
    // Nothing of the workspace beyond the folder: no ids, no other folder, no other workspace.
    const text = r.text;
    for (const id of [a.workspaceId, seededA.folder.id, seededA.account.id, seededA.tracked.id, ...seededA.videos.map((v) => v.id)])
      expect(text).not.toContain(id);
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(text).not.toContain("Secret Other Folder");
    expect(text).not.toContain("secretother");
    expect(text).not.toContain("bravo");
    expect(text).not.toContain("Agency A");

    // The page itself: the dashboard's index.html with noindex, not signed in.
    const page = await request(api.url, "GET", `/r/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(page.headers.get("x-robots-tag")).toMatch(/noindex/);
    expect(page.text).toContain('<meta name="robots" content="noindex');
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");

    // Seen: last viewed is recorded.
    const after = await ca.get(`/api/v1/folders/${seededA.folder.id}/share-links`);
    expect(after.body.data.find((l: { id: string }) => l.id === made.body.data.id).lastViewedAt).not.toBeNull();
  });

  it("says when some of its numbers are simulated, and not once every video and account is read from the platforms", async () => {
    const seeded = await seedFolder(a.workspaceId, "Simulated or not", { prefix: "simornot" });
    const made = await ca.post(`/api/v1/folders/${seeded.folder.id}/share-links`, {});
    const simulated = async () =>
      (
        await shared({
          query: `query($t: String!) { sharedFolderReport(token: $t) { simulated } }`,
          variables: { t: tokenOf(made.body.data.url) },
        })
      ).body.data.sharedFolderReport.simulated;
    // The fixtures' videos were scraped by the simulated provider.
    expect(await simulated()).toBe(true);
    const videoIds = seeded.videos.map((v) => v.id);
    await prisma.$executeRawUnsafe(`UPDATE videos SET data_source = 'ytdlp' WHERE id = ANY($1::uuid[])`, videoIds);
    await prisma.$executeRawUnsafe(`UPDATE accounts SET data_source = 'simulated' WHERE id = $1::uuid`, seeded.account.id);
    expect(await simulated()).toBe(true);
    await prisma.$executeRawUnsafe(`UPDATE accounts SET data_source = 'ytdlp' WHERE id = $1::uuid`, seeded.account.id);
    expect(await simulated()).toBe(false);
  });

  it("tenancy: a token opens its own folder only; another workspace cannot list, make or revoke its links", async () => {
    const madeB = await cb.post(`/api/v1/folders/${seededB.folder.id}/share-links`, {});
    const tokenB = tokenOf(madeB.body.data.url);
    const rb = await report(tokenB);
    expect(rb.body.data.sharedFolderReport.folderName).toBe("Campaign Bravo");
    expect(rb.text).not.toContain("alpha");

    expect((await ca.get(`/api/v1/folders/${seededB.folder.id}/share-links`)).status).toBe(404);
    expect((await ca.post(`/api/v1/folders/${seededB.folder.id}/share-links`, {})).status).toBe(404);
    const revoke = await ca.delete(`/api/v1/share-links/${madeB.body.data.id}`);
    expect(revoke.status).toBe(404);
    expect(revoke.body.code).toBe("NOT_FOUND");
    expect((await report(tokenB)).status).toBe(200);
    // GraphQL: B's link is not a node A can load, nor in A's list.
    const listA = await gql(api.url, a.key, `{ folderShareLinks(first: 50) { edges { node { uuid folderName } } } }`);
    expect(listA.body.data.folderShareLinks.edges.map((e: any) => e.node.uuid)).not.toContain(madeB.body.data.id);
    expect(JSON.stringify(listA.body)).not.toContain("Bravo");
  });

  it("revoked, expired and unknown tokens answer the same 404; revoke is audited", async () => {
    const made = await gql(
      api.url,
      a.key,
      `mutation($f: ID!) { createFolderShareLink(folderId: $f, expiresInDays: 30) { url link { id uuid status createdBy } } }`,
      { f: seededA.folder.id },
    );
    expect(made.body.errors).toBeUndefined();
    const { url, link } = made.body.data.createFolderShareLink;
    const token = tokenOf(url);
    expect((await report(token)).status).toBe(200);

    const revoked = await gql(api.url, a.key, `mutation($id: ID!) { revokeFolderShareLink(id: $id) { status revokedAt } }`, {
      id: link.id,
    });
    expect(revoked.body.data.revokeFolderShareLink.status).toBe("REVOKED");
    const gone = await report(token);
    const unknown = await report("A".repeat(43));
    expect(gone.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(gone.body).toEqual(unknown.body);
    expect(gone.body.code).toBe("NOT_FOUND");

    const expiring = await ca.post(`/api/v1/folders/${seededA.folder.id}/share-links`, {});
    await prisma.$executeRawUnsafe(
      `UPDATE folder_share_links SET expires_at = now() - interval '1 second' WHERE id = $1::uuid`,
      expiring.body.data.id,
    );
    const expired = await report(tokenOf(expiring.body.data.url));
    expect(expired.status).toBe(404);
    expect(expired.body).toEqual(unknown.body);

    const audit = await ca.get(`/api/v1/settings/audit-log?limit=50`);
    const actions = audit.body.data.map((e: { action: string }) => e.action);
    expect(actions).toContain("share_link.created");
    expect(actions).toContain("share_link.revoked");
  });

  it("expiry choices are bounded; a member may not make, list or revoke links", async () => {
    const tooFar = await ca.post(`/api/v1/folders/${seededA.folder.id}/share-links`, {
      expiresAt: new Date(Date.now() + 400 * 86_400_000).toISOString(),
    });
    expect(tooFar.status).toBe(400);
    expect(tooFar.body.code).toBe("VALIDATION_ERROR");
    expect((await ca.post(`/api/v1/folders/${seededA.folder.id}/share-links`, { expiresInDays: 45 })).status).toBe(400);
    expect(
      (await ca.post(`/api/v1/folders/${seededA.folder.id}/share-links`, { expiresAt: new Date(Date.now() - 1000).toISOString() })).status,
    ).toBe(400);
    const date = new Date(Date.now() + 200 * 86_400_000).toISOString();
    const dated = await ca.post(`/api/v1/folders/${seededA.folder.id}/share-links`, { expiresAt: date });
    expect(dated.status).toBe(201);
    expect(dated.body.data.expiresAt).toBe(date);

    await newPerson("member@reports.test", a.workspaceId, "member");
    const member = await signedIn(api.url, "member@reports.test");
    const made = await member.gql(`mutation($f: ID!) { createFolderShareLink(folderId: $f) { url } }`, { f: seededA.folder.id });
    expect(made.body.errors[0].extensions.code).toBe("FORBIDDEN");
    const listed = await member.gql(`{ folderShareLinks(first: 5) { edges { node { uuid } } } }`);
    expect(listed.body.errors[0].extensions.code).toBe("FORBIDDEN");
  });

  it("the narrow entry: no introspection, one root field, JSON only, no schema of the dashboard", async () => {
    const made = await ca.post(`/api/v1/folders/${seededA.folder.id}/share-links`, {});
    const token = tokenOf(made.body.data.url);
    const intro = await shared({ query: "{ __schema { types { name } } }" });
    expect(intro.status).toBe(400);
    expect(intro.body.code).toBe("VALIDATION_ERROR");
    const twice = await shared({
      query: `{ a: sharedFolderReport(token: "${token}") { folderName } b: sharedFolderReport(token: "${token}") { folderName } }`,
    });
    expect(twice.status).toBe(400);
    const node = await shared({ query: `{ node(id: "x") { id } }` });
    expect(node.status).toBe(400);
    const form = await request(api.url, "POST", "/graphql/shared", {
      rawBody: "query=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    expect(form.body.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    const get = await request(api.url, "GET", "/graphql/shared");
    expect(get.status).toBe(405);
    const bad = await shared({ query: "{ sharedFolderReport(" });
    expect(bad.status).toBe(400);
    // A key or a cookie gives nothing more: the token alone decides.
    const withKey = await request(api.url, "POST", "/graphql/shared", {
      key: a.key,
      body: { query: QUERY, variables: { token: "nope-nope-nope-nope-nope" } },
    });
    expect(withKey.status).toBe(404);
  });

  it("rate-limited per client address: 429 with Retry-After", async () => {
    const made = await ca.post(`/api/v1/folders/${seededA.folder.id}/share-links`, {});
    const token = tokenOf(made.body.data.url);
    const light = { query: `query($t: String!) { sharedFolderReport(token: $t) { folderName } }`, variables: { t: token } };
    for (let i = 0; i < SHARED_REPORT_REQUESTS_PER_MINUTE; i++) expect((await shared(light)).status).toBe(200);
    const limited = await shared(light);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
