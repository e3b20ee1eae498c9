/**
 * Tokens never reach a log: the service (`npm start`'s entry point, its JSON logs read from its output) is asked for a
 * folder's shared page `/r/<token>`, a one-click unsubscribe `/unsubscribe/<token>`, an export's download link, the
 * dashboard's reset and invitation pages (tokens in the query), the shared report's entry point (the token in the
 * body), and sends an invitation mail without SMTP (the dev mailbox): no line holds any of the tokens, and the access
 * log still says which page was asked for.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, gql, newWorkspace, request, stopAll } from "../helpers/api.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import { waitUntil } from "../helpers/wait.js";

let service: ServiceProcess;
let ws: { workspaceId: string; key: string };
beforeAll(async () => {
  service = await spawnService("all", { SMTP_URL: "", LOG_FORMAT: "json" });
  ws = await newWorkspace("pro");
});
afterAll(async () => {
  await service?.stop();
  await stopAll();
});

describe("tokens and logs", () => {
  it("no log line holds a token a request or a mail carried; the access log names the page without it", async () => {
    const url = service.url!;
    const c = client(url, ws.key);
    const folder = (await c.post("/api/v1/folders", { name: "Shared" })).body.data;
    const link = (await c.post(`/api/v1/folders/${folder.id}/share-links`, {})).body.data;
    const shareToken = new URL(link.url).pathname.replace(/^\/r\//, "");
    const invited = await gql(url, ws.key, `mutation { createInvitation(email: "guest@logs.test", role: MEMBER) { token } }`);
    const invitationToken: string = invited.body.data.createInvitation.token;
    const unsubscribeToken = "00000000-0000-4000-8000-000000000000.c2VjcmV0LXVuc3Vic2NyaWJlLXRva2Vu";
    const downloadToken = "1900000000000.ZG93bmxvYWQtc2VjcmV0";
    const resetToken = "reset-secret-token-value";

    await request(url, "GET", `/r/${shareToken}`);
    await request(url, "POST", "/graphql/shared", {
      body: { query: "query($t: String!) { sharedFolderReport(token: $t) { folderName } }", variables: { t: shareToken } },
    });
    await request(url, "POST", `/unsubscribe/${unsubscribeToken}`);
    await request(url, "GET", `/api/v1/exports/${folder.id}/download?token=${downloadToken}`);
    await request(url, "GET", `/reset-password?token=${resetToken}`);
    await request(url, "GET", `/accept-invitation?token=${invitationToken}`);

    // The invitation's mail went to the dev mailbox (and its note to the log).
    await waitUntil(
      "the invitation's mail",
      () => service.output(),
      (out) => /mail kept in the dev mailbox/.test(out),
      20_000,
    );
    await waitUntil(
      "the access log",
      () => service.output(),
      (out) => out.includes('"path":"/accept-invitation"'),
      10_000,
    );
    const out = service.output();
    for (const token of [shareToken, invitationToken, unsubscribeToken, downloadToken, resetToken]) expect(out).not.toContain(token);
    expect(out).toContain('"path":"/r/:token"');
    expect(out).toContain('"path":"/unsubscribe/:token"');
  });
});
