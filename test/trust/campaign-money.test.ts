/**
 * A member changing what an active campaign pays, probed as the red team did, on REST and GraphQL with a member's
 * session: tagging a video with the campaign's tag, untagging it, deleting the tag, untracking a video it pays for,
 * giving a member account to a creator the member just made, changing a paid creator's name. Each is refused
 * (FORBIDDEN, or per video in a bulk answer) and the payout stays as it was; an owner may do each; once the campaign
 * is closed, nothing of it holds any more.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, signedIn, type PersonClient } from "../helpers/people.js";
import type { RunningApi } from "../../src/main/server.js";
import { createAccount, createTrackedVideo, trackAccount } from "../folders/fixtures.js";

const P = "/api/v1";
let api: RunningApi;
let ws: { workspaceId: string; key: string };
let owner: ReturnType<typeof client>;
let member: PersonClient;
const ids = {} as {
  tag: string;
  campaign: string;
  creator: string;
  single: string;
  paidCreatorAccount: string;
  tagged: string;
  untagged: string;
  outside: string;
};

const asMember = (method: string, path: string, body?: unknown) =>
  member.send(method, `${P}${path}`, { body, headers: { "x-workspace-id": ws.workspaceId, "x-requested-with": "test" } });
const memberGql = (query: string, variables: Record<string, unknown>) => member.gql(query, variables, { workspace: ws.workspaceId });
const payout = async () => {
  const t = (await owner.get(`${P}/campaigns/${ids.campaign}/payouts`)).body.data;
  return { payout: t.totals.payout, videos: t.totals.videos, payees: t.creators.map((c: any) => c.payeeName).sort() };
};

beforeAll(async () => {
  api = await startTestApi();
  ws = await newWorkspace("pro");
  owner = client(api.url, ws.key);
  await newPerson("member@money.test", ws.workspaceId, "member");
  member = await signedIn(api.url, "member@money.test");

  const posted = new Date("2026-10-10T10:00:00Z");
  const single = await createAccount({ username: "single" });
  const paid = await createAccount({ username: "paid" });
  const outsider = await createAccount({ username: "outsider" });
  for (const a of [single, paid, outsider]) await trackAccount(ws.workspaceId, a.id);
  ids.single = single.id;
  ids.paidCreatorAccount = paid.id;
  ids.tagged = (await createTrackedVideo(ws.workspaceId, { accountId: single.id, postedAt: posted })).id;
  ids.untagged = (await createTrackedVideo(ws.workspaceId, { accountId: single.id, postedAt: posted })).id;
  const paidVideo = (await createTrackedVideo(ws.workspaceId, { accountId: paid.id, postedAt: posted })).id;
  ids.outside = (await createTrackedVideo(ws.workspaceId, { accountId: outsider.id, postedAt: posted })).id;

  ids.tag = (await owner.post(`${P}/tags`, { name: "October deal" })).body.data.id;
  await owner.post(`${P}/tags/${ids.tag}/videos`, { video_ids: [ids.tagged, paidVideo] });
  ids.creator = (await owner.post(`${P}/creators`, { name: "Paid Creator", contact: "paid@creator.test" })).body.data.id;
  await owner.post(`${P}/creators/${ids.creator}/accounts`, { account_ids: [paid.id] });
  const made = await owner.post(`${P}/campaigns`, {
    name: "October",
    starts_at: "2026-10-01",
    ends_at: "2026-11-01",
    currency: "EUR",
    fee_per_video_minor: 1000,
    tag_id: ids.tag,
  });
  expect(made.status).toBe(201);
  ids.campaign = made.body.data.id;
  const members = await owner.post(`${P}/campaigns/${ids.campaign}/members`, { creator_ids: [ids.creator], account_ids: [single.id] });
  expect(members.status).toBe(200);
});
afterAll(() => stopAll(api));

describe("a member and an active campaign's money", () => {
  it("is refused every change that moves it, on REST and GraphQL, and the payout stays as it was", async () => {
    const before = await payout();
    expect(before).toEqual({ payout: 2000, videos: 2, payees: ["@single", "Paid Creator"] });

    // Tags: tag a member's video with the campaign's tag, untag one, delete the tag.
    const tag = await asMember("POST", `/tags/${ids.tag}/videos`, { video_ids: [ids.untagged] });
    expect([tag.status, tag.body.code]).toEqual([403, "FORBIDDEN"]);
    expect(tag.body.message).toMatch(/change what an active campaign pays/);
    const untag = await asMember("DELETE", `/tags/${ids.tag}/videos`, { video_ids: [ids.tagged] });
    expect([untag.status, untag.body.code]).toEqual([403, "FORBIDDEN"]);
    const del = await asMember("DELETE", `/tags/${ids.tag}`);
    expect([del.status, del.body.code]).toEqual([403, "FORBIDDEN"]);
    const gqlTag = await memberGql(`mutation($t: ID!, $v: [ID!]!) { tagVideos(tagId: $t, videoIds: $v) { success } }`, {
      t: ids.tag,
      v: [ids.untagged],
    });
    expect(gqlTag.body.errors[0].extensions.code).toBe("FORBIDDEN");
    const gqlDelete = await memberGql(`mutation($t: ID!) { deleteTag(id: $t) }`, { t: ids.tag });
    expect(gqlDelete.body.errors[0].extensions.code).toBe("FORBIDDEN");

    // Untracking: the video it pays for stays (per video), the other one goes.
    const untrack = await asMember("POST", `/videos/bulk-untrack`, { ids: [ids.tagged, ids.outside] });
    expect(untrack.status).toBe(200);
    expect(untrack.body.data).toEqual([
      { id: ids.tagged, success: false, error: expect.stringMatching(/active campaign may pay for this video/) },
      { id: ids.outside, success: true },
    ]);
    const gqlUntrack = await memberGql(`mutation($ids: [ID!]!) { untrackVideos(ids: $ids) { success error } }`, { ids: [ids.tagged] });
    expect(gqlUntrack.body.data.untrackVideos[0].success).toBe(false);

    // Payees: a creator the member just made takes a member account; a paid creator is renamed.
    const mallory = await asMember("POST", `/creators`, { name: "Mallory Payee" });
    expect(mallory.status).toBe(201);
    const take = await asMember("POST", `/creators/${mallory.body.data.id}/accounts`, { account_ids: [ids.single] });
    expect([take.status, take.body.code]).toEqual([403, "FORBIDDEN"]);
    const rename = await asMember("PATCH", `/creators/${ids.creator}`, { name: "Mallory", contact: "mallory@evil.test" });
    expect([rename.status, rename.body.code]).toEqual([403, "FORBIDDEN"]);
    const gqlRename = await memberGql(`mutation($c: ID!) { updateCreator(id: $c, name: "Mallory") { uuid } }`, { c: ids.creator });
    expect(gqlRename.body.errors[0].extensions.code).toBe("FORBIDDEN");
    // What moves no money stays open: a creator nobody pays, another tag.
    expect((await asMember("PATCH", `/creators/${mallory.body.data.id}`, { notes: "a note" })).status).toBe(200);
    const other = (await asMember("POST", `/tags`, { name: "Mine" })).body.data.id;
    expect((await asMember("POST", `/tags/${other}/videos`, { video_ids: [ids.untagged] })).status).toBe(200);

    expect(await payout()).toEqual(before);
  });

  it("is an owner's to change", async () => {
    expect((await owner.post(`${P}/tags/${ids.tag}/videos`, { video_ids: [ids.untagged] })).status).toBe(200);
    expect(await payout()).toMatchObject({ payout: 3000, videos: 3 });
    expect((await owner.patch(`${P}/creators/${ids.creator}`, { name: "Paid Creator Ltd" })).status).toBe(200);
    expect((await owner.post(`${P}/videos/bulk-untrack`, { ids: [ids.untagged] })).body.data[0].success).toBe(true);
    expect(await payout()).toEqual({ payout: 2000, videos: 2, payees: ["@single", "Paid Creator Ltd"] });
  });

  it("holds nothing once the campaign is closed (its rows are frozen)", async () => {
    expect((await owner.post(`${P}/campaigns/${ids.campaign}/close`, {})).status).toBe(200);
    const untag = await asMember("DELETE", `/tags/${ids.tag}/videos`, { video_ids: [ids.tagged] });
    expect(untag.status).toBe(200);
    const untrack = await asMember("POST", `/videos/bulk-untrack`, { ids: [ids.tagged] });
    expect(untrack.body.data[0].success).toBe(true);
    expect(await payout()).toEqual({ payout: 2000, videos: 2, payees: ["@single", "Paid Creator Ltd"] });
  });
});
