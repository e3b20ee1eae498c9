/**
 * Saved views through GraphQL, as the dashboard uses them: a private view only its
 * owner sees, a shared one every member; only the owner changes it; the content is validated per
 * list (unknown keys and columns refused); an API key reads shared views and cannot save; another
 * workspace sees nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, signedIn, type PersonClient } from "../helpers/people.js";
import type { RunningApi } from "../../src/main/server.js";
import type { Actor } from "../../src/domain/actors/actor.js";
import { createSavedView } from "../../src/domain/views/service.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

const VIEW = `uuid name list shared mine ownerName platform q tags sort order columns`;
const CREATE = `mutation($list: SavedViewList!, $name: String!, $shared: Boolean, $content: SavedViewContentInput!) {
  createSavedView(list: $list, name: $name, shared: $shared, content: $content) { ${VIEW} } }`;
const LIST = `query($list: SavedViewList) { savedViews(list: $list, first: 50) { totalCount edges { node { ${VIEW} } } } }`;

function names(r: { body: any }): string[] {
  expect(r.body.errors).toBeUndefined();
  return r.body.data.savedViews.edges.map((e: { node: { name: string } }) => e.node.name);
}

describe("saved views", () => {
  let ws: { workspaceId: string; key: string };
  let ana: PersonClient;
  let ben: PersonClient;
  let privateId: string;
  let anaId: string;
  let sharedId: string;

  it("a member saves a private and a shared view; the other member sees only the shared one", async () => {
    ws = await newWorkspace("free", "Agency");
    anaId = (await newPerson("ana@example.com", ws.workspaceId, "member")).userId;
    await newPerson("ben@example.com", ws.workspaceId, "member");
    [ana, ben] = await Promise.all([signedIn(api.url, "ana@example.com"), signedIn(api.url, "ben@example.com")]);

    const mine = await ana.gql(CREATE, {
      list: "VIDEOS",
      name: "  Top views  ",
      content: { sort: "views", order: "DESC", columns: ["video", "creator", "views"], q: "cats", tags: ["client-a"] },
    });
    expect(mine.body.errors).toBeUndefined();
    expect(mine.body.data.createSavedView).toMatchObject({
      name: "Top views",
      list: "VIDEOS",
      shared: false,
      mine: true,
      platform: null,
      q: "cats",
      tags: ["client-a"],
      sort: "views",
      order: "DESC",
      columns: ["video", "creator", "views"],
    });
    privateId = mine.body.data.createSavedView.uuid;
    const shared = await ana.gql(CREATE, {
      list: "ACCOUNTS",
      name: "Big creators",
      shared: true,
      content: { sort: "followers", platform: "PLATFORM_A" },
    });
    expect(shared.body.errors).toBeUndefined();
    // Defaults fill what was left out: every column of the list.
    expect(shared.body.data.createSavedView.columns).toEqual(["platform", "followers", "views", "videos", "limit", "tracked", "status"]);
    sharedId = shared.body.data.createSavedView.uuid;

    expect(names(await ana.gql(LIST, {}))).toEqual(["Big creators", "Top views"]);
    expect(names(await ana.gql(LIST, { list: "VIDEOS" }))).toEqual(["Top views"]);
    const seen = await ben.gql(LIST, {});
    expect(names(seen)).toEqual(["Big creators"]);
    expect(seen.body.data.savedViews.edges[0].node).toMatchObject({ mine: false, shared: true });
  });

  it("only the owner changes a view; the other member cannot reach a private one", async () => {
    const rename = `mutation($id: ID!, $name: String, $shared: Boolean) { updateSavedView(id: $id, name: $name, shared: $shared) { name shared } }`;
    const byBen = await ben.gql(rename, { id: sharedId, name: "Mine now" });
    expect(byBen.body.errors[0].extensions.code).toBe("FORBIDDEN");
    expect((await ben.gql(rename, { id: privateId, name: "Peek" })).body.errors[0].extensions.code).toBe("NOT_FOUND");
    expect((await ben.gql(`mutation($id: ID!) { deleteSavedView(id: $id) }`, { id: privateId })).body.errors[0].extensions.code).toBe(
      "NOT_FOUND",
    );

    // Sharing the private view shows it to the other member.
    const share = await ana.gql(rename, { id: privateId, shared: true });
    expect(share.body.data.updateSavedView).toEqual({ name: "Top views", shared: true });
    expect(names(await ben.gql(LIST, {}))).toEqual(["Big creators", "Top views"]);
    await ana.gql(rename, { id: privateId, shared: false });
    expect(names(await ben.gql(LIST, {}))).toEqual(["Big creators"]);
  });

  it("refuses content the list cannot apply", async () => {
    for (const content of [{ columns: ["followers"] }, { sort: "followers" }, { columns: [] }, { columns: ["views", "views"] }]) {
      const r = await ana.gql(CREATE, { list: "VIDEOS", name: "Bad", content });
      expect(r.body.errors?.[0]?.extensions?.code, JSON.stringify(content)).toBe("VALIDATION_ERROR");
    }
    expect((await ana.gql(CREATE, { list: "VIDEOS", name: " ", content: {} })).body.errors[0].extensions.code).toBe("VALIDATION_ERROR");
    // An unknown key of the document is refused by the domain's schema, whatever door hands it over
    // (GraphQL's input type refuses it even before).
    const actor: Actor = {
      workspaceId: ws.workspaceId,
      role: "member",
      clientAddress: null,
      principal: { kind: "user", id: anaId, email: "ana@example.com", sessionId: null },
    };
    for (const content of [{ surprise: 1 }, { filters: { platform: null, colour: "red" } }]) {
      await expect(createSavedView(actor, { list: "videos", name: "Odd", shared: false, content })).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
      });
    }
    expect(names(await ana.gql(LIST, {}))).toEqual(["Big creators", "Top views"]);
  });

  it("an API key reads the shared views and cannot save; another workspace sees none", async () => {
    const byKey = await gql(api.url, ws.key, LIST, {});
    expect(names(byKey)).toEqual(["Big creators"]);
    const save = await gql(api.url, ws.key, CREATE, { list: "VIDEOS", name: "Robot", content: {} });
    expect(save.body.errors![0]!.extensions!.code).toBe("FORBIDDEN");

    const other = await newWorkspace("free", "Elsewhere");
    expect(names(await gql(api.url, other.key, LIST, {}))).toEqual([]);
    expect(
      (await gql(api.url, other.key, `mutation($id: ID!) { deleteSavedView(id: $id) }`, { id: sharedId })).body.errors![0]!.extensions!
        .code,
    ).toBe("NOT_FOUND");
    await newPerson("cy@example.com", other.workspaceId, "owner");
    const cy = await signedIn(api.url, "cy@example.com");
    expect(names(await cy.gql(LIST, {}))).toEqual([]);

    // The owner deletes their own view; it is gone for everyone.
    expect((await ana.gql(`mutation($id: ID!) { deleteSavedView(id: $id) }`, { id: sharedId })).body.data.deleteSavedView).toBe(sharedId);
    expect(names(await ben.gql(LIST, {}))).toEqual([]);
  });
});
