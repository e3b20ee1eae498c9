/**
 * GraphQL `accounts` with sort, order, platform and q (the dashboard's Accounts table sorts and
 * filters on the server): each sort in both orders with unscraped accounts last, cursor pages that
 * continue the order, the filters and their totalCount, and a bad argument as VALIDATION_ERROR.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { createAccount, trackAccount } from "../folders/fixtures.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
let key: string;

beforeAll(async () => {
  api = await startTestApi();
  const ws = await newWorkspace("pro");
  key = ws.key;
  const accounts = [
    { username: "alpha_bakes", displayName: "Alpha Bakery", followerCount: 300, totalViews: 9_000, videoCount: 5 },
    {
      username: "bravo_lifts",
      displayName: "Bravo Gym",
      followerCount: 100,
      totalViews: 50_000,
      videoCount: 7,
      platform: "platformB" as const,
    },
    { username: "charlie_bakes", displayName: "Charlie Bread", followerCount: 200, totalViews: 1_000, videoCount: 9 },
    { username: "delta_new", displayName: "Delta", followerCount: null, totalViews: null, videoCount: null },
  ];
  for (const a of accounts) await trackAccount(ws.workspaceId, (await createAccount(a)).id);
});
afterAll(() => stopAll(api));

async function list(args: string): Promise<{ usernames: string[]; totalCount: number; endCursor: string | null }> {
  const r = await gql(api.url, key, `{ accounts(${args}) { totalCount pageInfo { endCursor } edges { node { username } } } }`);
  expect(r.body.errors).toBeUndefined();
  const c = r.body.data.accounts;
  return {
    usernames: c.edges.map((e: { node: { username: string } }) => e.node.username),
    totalCount: c.totalCount,
    endCursor: c.pageInfo.endCursor,
  };
}

describe("accounts(sort, order, platform, q)", () => {
  it("sorts by each key in both orders, accounts without the number last", async () => {
    expect((await list("first: 10, sort: FOLLOWERS")).usernames).toEqual(["alpha_bakes", "charlie_bakes", "bravo_lifts", "delta_new"]);
    expect((await list("first: 10, sort: FOLLOWERS, order: ASC")).usernames).toEqual([
      "bravo_lifts",
      "charlie_bakes",
      "alpha_bakes",
      "delta_new",
    ]);
    expect((await list("first: 10, sort: TOTAL_VIEWS")).usernames).toEqual(["bravo_lifts", "alpha_bakes", "charlie_bakes", "delta_new"]);
    expect((await list("first: 10, sort: VIDEO_COUNT, order: ASC")).usernames).toEqual([
      "alpha_bakes",
      "bravo_lifts",
      "charlie_bakes",
      "delta_new",
    ]);
    expect((await list("first: 10, sort: USERNAME, order: ASC")).usernames).toEqual([
      "alpha_bakes",
      "bravo_lifts",
      "charlie_bakes",
      "delta_new",
    ]);
    expect((await list("first: 10")).usernames).toEqual(["delta_new", "charlie_bakes", "bravo_lifts", "alpha_bakes"]);
    expect((await list("first: 10, sort: TRACKED_AT, order: ASC")).usernames).toEqual([
      "alpha_bakes",
      "bravo_lifts",
      "charlie_bakes",
      "delta_new",
    ]);
  });

  it("continues the order on the next cursor page", async () => {
    const first = await list("first: 2, sort: FOLLOWERS");
    const next = await list(`first: 2, after: "${first.endCursor}", sort: FOLLOWERS`);
    expect([...first.usernames, ...next.usernames]).toEqual(["alpha_bakes", "charlie_bakes", "bravo_lifts", "delta_new"]);
  });

  it("filters by platform and by words of the username or display name, counting the matches", async () => {
    expect(await list("first: 10, platform: PLATFORM_B")).toMatchObject({ usernames: ["bravo_lifts"], totalCount: 1 });
    expect(await list(`first: 10, q: "bakes", sort: USERNAME, order: ASC`)).toMatchObject({
      usernames: ["alpha_bakes", "charlie_bakes"],
      totalCount: 2,
    });
    expect(await list(`first: 10, q: "BREAD charlie"`)).toMatchObject({ usernames: ["charlie_bakes"], totalCount: 1 });
    expect(await list(`first: 10, q: "50%"`)).toMatchObject({ usernames: [], totalCount: 0 });
    expect((await list("first: 10")).totalCount).toBe(4);
  });

  it("refuses a search of more than 200 characters in words", async () => {
    const r = await gql(api.url, key, `{ accounts(first: 1, q: "${"x".repeat(201)}") { totalCount } }`);
    expect(r.body.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    expect(r.body.errors?.[0]?.message).toMatch(/200/);
  });
});
