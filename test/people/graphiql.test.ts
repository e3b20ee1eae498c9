/**
 * GraphiQL for a person in several workspaces (src/http/graphql/graphiql.ts): the page offers the
 * person's session, and the workspace header it may send is one of the person's own workspaces only
 * (the dashboard's choice, from localStorage, is taken only when it is one of them). A workspace the
 * person left is no longer offered, and the server refuses it anyway (404 NOT_FOUND).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR } from "../../src/domain/actors/actor.js";
import { setMembership } from "../../src/domain/people/members.js";
import type { RunningApi } from "../../src/main/server.js";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, removeMemberships, signedIn } from "../helpers/people.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/** The ids the page's data block offers as `workspaces` (the ids its header may carry). */
function offeredWorkspaces(html: string): string[] {
  const m = /<script type="application\/json" id="graphiql-options">(.*?)<\/script>/s.exec(html);
  if (!m) throw new Error(`no options in the page:\n${html.slice(0, 500)}`);
  return (JSON.parse(m[1]!) as { workspaces: string[] }).workspaces;
}

describe("GraphiQL for a person in several workspaces", () => {
  it("offers each of the person's workspaces, and no other; a workspace left is no longer offered or served", async () => {
    const a = await newWorkspace("free", "A");
    const b = await newWorkspace("free", "B");
    const other = await newWorkspace("free", "Not theirs");
    const email = `two-workspaces-${randomUUID()}@example.com`;
    const { userId } = await newPerson(email, a.workspaceId, "owner");
    await setMembership({ workspaceId: b.workspaceId, userId, role: "member", by: OPERATOR });
    const person = await signedIn(api.url, email);

    const page = await person.send("GET", "/graphql", { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    const offered = offeredWorkspaces(page.text);
    // Each workspace as its UUID and its global ID, and nothing else.
    expect(offered.filter(isUuid).sort()).toEqual([a.workspaceId, b.workspaceId].sort());
    expect(offered).toHaveLength(4);
    expect(offered).not.toContain(other.workspaceId);
    expect(page.text).toContain("x-requested-with");

    // Both answer through the session, each its own plan; another's is 404.
    for (const ws of [a, b])
      expect((await person.gql("{ workspace { uuid } }", undefined, { workspace: ws.workspaceId })).body.data.workspace.uuid).toBe(
        ws.workspaceId,
      );
    const refused = await person.gql("{ workspace { uuid } }", undefined, { workspace: other.workspaceId });
    expect(refused.status).toBe(404);

    await removeMemberships(b.workspaceId, userId);
    const after = offeredWorkspaces((await person.send("GET", "/graphql", { headers: { accept: "text/html" } })).text);
    expect(after.filter(isUuid)).toEqual([a.workspaceId]);
    expect((await person.gql("{ workspace { uuid } }", undefined, { workspace: b.workspaceId })).status).toBe(404);
  });

  it("signed out: the page offers no session and no workspace", async () => {
    const r = await fetch(`${api.url}/graphql`, { headers: { accept: "text/html" } });
    expect(r.status).toBe(200);
    expect(offeredWorkspaces(await r.text())).toEqual([]);
  });
});
