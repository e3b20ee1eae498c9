/**
 * People, the session door (docs/contract/decisions.md, "People, sign-in and the dashboard"): sign-up
 * of the first user and by invitation only, sign-in and sign-out through the real /auth routes
 * (better-auth over PostgreSQL), the cookie's flags, the same 401 for an unknown email and a wrong
 * password, passwords of 10+ characters, GraphQL `viewer` and cookie-authenticated requests acting
 * on the chosen workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../src/main/server.js";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, PASSWORD, personClient, signedIn } from "../helpers/people.js";

let api: RunningApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await stopAll(api);
});

const VIEWER = `{ viewer { id email name workspaces { id uuid name role } currentWorkspace { uuid role } } }`;

describe("sign-up, sign-in, session", () => {
  let firstWorkspace: string;

  it("the first user of an empty service signs up, gets a session cookie and a workspace of their own as owner", async () => {
    const ada = personClient(api.url);
    const res = await ada.signUp({ email: "Ada@Example.com", password: PASSWORD, name: "Ada" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user.email).toBe("ada@example.com");
    expect(res.body.token).toBeUndefined(); // the token lives in the HttpOnly cookie only
    const cookie = ada.lastSetCookies.find((c) => c.startsWith("svc.session_token="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i); // plain http
    expect(cookie).toMatch(/Max-Age=604800/); // 7 days

    const viewer = await ada.gql(VIEWER);
    expect(viewer.body.errors).toBeUndefined();
    expect(viewer.body.data.viewer).toMatchObject({ email: "ada@example.com", name: "Ada" });
    expect(viewer.body.data.viewer.workspaces).toEqual([expect.objectContaining({ name: "Ada's workspace", role: "OWNER" })]);
    firstWorkspace = viewer.body.data.viewer.workspaces[0].uuid;
    expect(viewer.body.data.viewer.currentWorkspace.uuid).toBe(firstWorkspace);

    const session = await ada.auth("GET", "/get-session");
    expect(session.status).toBe(200);
    expect(session.body.user.email).toBe("ada@example.com");
    expect(session.body.session.token).toBeUndefined();
  });

  it("nobody else signs up without an invitation", async () => {
    const res = await personClient(api.url).signUp({ email: "eve@example.com", password: PASSWORD, name: "Eve" });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
  });

  it("signs in with the password; a wrong password and an unknown email get the same 401", async () => {
    const wrong = await personClient(api.url).signIn("ada@example.com", "not the password");
    const unknown = await personClient(api.url).signIn("nobody@example.com", "not the password");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe("UNAUTHORIZED");

    const ada = await signedIn(api.url, "ADA@example.com");
    expect((await ada.auth("GET", "/get-session")).body.user.email).toBe("ada@example.com");
  });

  it("a session over https gets a Secure cookie", async () => {
    // TRUST_PROXY is off: X-Forwarded-Proto from anyone is not believed, so this is plain http.
    const c = personClient(api.url);
    await c.auth("POST", "/sign-in/email", { email: "ada@example.com", password: PASSWORD }, { "x-forwarded-proto": "https" });
    expect(c.lastSetCookies.find((s) => s.includes("session_token="))).not.toMatch(/Secure/i);
  });

  it("passwords are at least 10 characters", async () => {
    const { workspaceId } = await newWorkspace();
    await expect(newPerson("short@example.com", workspaceId, "member", "123456789")).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
  });

  it("cookie-authenticated requests act on the chosen workspace; writes need a non-simple header (CSRF)", async () => {
    const ada = await signedIn(api.url, "ada@example.com");
    const track = `mutation { trackVideo(url: "https://www.tiktok.com/@a/video/7301234567890123456") { video { id } } }`;
    const forged = await ada.send("POST", "/graphql", { body: { query: track } });
    expect(forged.status).toBe(403);
    expect(forged.body.errors[0].extensions.code).toBe("FORBIDDEN");
    const restForged = await ada.send("POST", "/api/v1/videos", { body: { url: "https://www.tiktok.com/@a/video/7301234567890123456" } });
    expect(restForged.status).toBe(403);
    expect(restForged.body.code).toBe("FORBIDDEN");

    const ok = await ada.gql(track);
    expect(ok.body.errors, ok.text).toBeUndefined();
    const listed = await ada.send("GET", "/api/v1/videos", { headers: { "x-workspace-id": firstWorkspace } });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);

    // Another workspace (one Ada is not in) is 404 on every door, even named by its global ID.
    const other = await newWorkspace();
    const rest = await ada.send("GET", "/api/v1/videos", { headers: { "x-workspace-id": other.workspaceId } });
    expect(rest.status).toBe(404);
    expect(rest.body.code).toBe("NOT_FOUND");
    const g = await ada.gql(`{ workspace { plan } }`, {}, { workspace: other.workspaceId });
    expect(g.status).toBe(404);
    expect(g.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    // The key of that workspace still sees only its own data.
    expect((await client(api.url, other.key).get("/api/v1/videos")).body.data).toHaveLength(0);
    expect((await gql(api.url, other.key, `{ viewer { id } }`)).body.data.viewer).toBeNull();
  });

  it("signs out: the cookie is cleared and the session is gone", async () => {
    const ada = await signedIn(api.url, "ada@example.com");
    const cookie = ada.cookieHeader();
    const out = await ada.signOut();
    expect(out.status).toBe(200);
    const reused = await request(cookie);
    expect(reused.status).toBe(401);
  });
});

async function request(cookie: string) {
  const { request: send } = await import("../helpers/api.js");
  return send(api.url, "POST", "/graphql", { body: { query: "{ workspace { plan } }" }, headers: { cookie, "x-requested-with": "x" } });
}
