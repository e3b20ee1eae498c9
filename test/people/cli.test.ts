/**
 * The admin CLI's people commands with their `--json` shapes (docs/contract/decisions.md, Admin CLI):
 * `user create` → {"userId"}, `user reset-password` → {"resetUrl"} (single use, 1 hour), `member add`.
 * Run exactly as an operator would; every answer is one JSON object, errors too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import type { RunningApi } from "../../src/main/server.js";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, personClient, signedIn } from "../helpers/people.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

describe("admin CLI: people", () => {
  it("user create (with a workspace and role), member add, user reset-password", async () => {
    const a = await newWorkspace("free", "A");
    const b = await newWorkspace("free", "B");
    const created = await cli(
      "user",
      "create",
      "--email",
      "Ops@Example.com",
      "--password",
      "operator password",
      "--workspace",
      a.workspaceId,
      "--role",
      "owner",
    );
    expect(created.code).toBe(0);
    expect(created.json).toEqual({ userId: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    const added = await cli("member", "add", "--workspace", b.workspaceId, "--email", "ops@example.com", "--role", "member");
    expect(added.json).toEqual({ workspaceId: b.workspaceId, userId: created.json.userId, memberId: expect.any(String), role: "member" });

    const ops = await signedIn(api.url, "ops@example.com", "operator password");
    const viewer = await ops.gql(`{ viewer { workspaces { uuid role } } }`);
    expect(viewer.body.data.viewer.workspaces).toEqual([
      { uuid: a.workspaceId, role: "OWNER" },
      { uuid: b.workspaceId, role: "MEMBER" },
    ]);

    const reset = await cli("user", "reset-password", "--email", "ops@example.com");
    expect(Object.keys(reset.json)).toEqual(["resetUrl"]);
    const url = new URL(reset.json.resetUrl);
    expect(url.pathname).toBe("/reset-password");
    const anyone = personClient(api.url);
    expect(
      (await anyone.auth("POST", "/reset-password", { newPassword: "a brand new password", token: url.searchParams.get("token") })).status,
    ).toBe(200);
    // Resetting the password ends the sessions signed in with the old one; the link is single-use.
    expect((await ops.gql(`{ viewer { email } }`)).status).toBe(401);
    expect(
      (await anyone.auth("POST", "/reset-password", { newPassword: "yet another password", token: url.searchParams.get("token") })).status,
    ).toBe(400);
    await signedIn(api.url, "ops@example.com", "a brand new password");
  });

  it("errors are one JSON object with a non-zero exit", async () => {
    const { workspaceId } = await newWorkspace();
    await newPerson("taken@example.com", workspaceId, "owner");
    const taken = await cli("user", "create", "--email", "taken@example.com", "--password", "long enough password");
    expect(taken).toEqual({ code: 1, json: { error: { code: "EMAIL_TAKEN", message: expect.any(String) } } });
    const unknown = await cli("user", "reset-password", "--email", "nobody@example.com");
    expect(unknown.json.error.code).toBe("NOT_FOUND");
    const role = await cli("member", "add", "--workspace", workspaceId, "--email", "taken@example.com", "--role", "admin");
    expect(role.json.error.code).toBe("USAGE");
    // The last owner is never demoted, by the CLI either.
    const demote = await cli("member", "add", "--workspace", workspaceId, "--email", "taken@example.com", "--role", "member");
    expect(demote.json.error.code).toBe("LAST_OWNER");
  });
});
