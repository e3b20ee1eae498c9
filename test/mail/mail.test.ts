/**
 * Mail against a real SMTP server on loopback: the outbox → BullMQ → SMTP path (headers,
 * both parts, links at PUBLIC_URL, a retry that sends once, a refused attempt sent once later), the
 * people mails (invitation, reset with the same answer for unknown addresses, security notices,
 * removal, leaving), alerts (the bell's notifications, a burst grouped in one mail, one-click
 * unsubscribe that changes nothing else), the doors (REST, GraphQL; an API key refused; nobody
 * sees another's), the weekly digest over a week of seeded history, caps, header injection, the
 * log-only dev mailbox and /readyz.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { headerOf, startMailHarness, linksOf } from "./smtp.js";

const { inbox, api } = await startMailHarness(
  "http://dashboard.test:8080",
  { MAIL_FROM: "Video service <alerts@dashboard.test>", MAIL_MAX_PER_WORKSPACE_PER_HOUR: "4" },
  { user: "mailer", pass: "s3cret" },
);

const { newWorkspace, request } = await import("../helpers/api.js");
const { newPerson, signedIn, PASSWORD } = await import("../helpers/people.js");
const { cli } = await import("../helpers/cli.js");
const { prisma, pgPool } = await import("../../src/infra/db.js");
const { createMailTransport } = await import("../../src/main/providers.js");
const { createInvitation } = await import("../../src/domain/people/invitations.js");
const { sendMail } = await import("../../src/domain/mail/send.js");
const { queueMails, sendMails } = await import("../../src/domain/mail/outbox.js");
const { LogMailTransport } = await import("../../src/providers/mail/log.js");
const { emitWorkspaceEvents } = await import("../../src/domain/webhooks/outbox.js");
const { createKey } = await import("../../src/domain/keys/service.js");
const { digestData, queueDueDigests } = await import("../../src/domain/notifications/digest.js");
const { renderMail } = await import("../../src/domain/mail/templates.js");
const { mailReport } = await import("../../src/infra/health.js");
const { createAccount, createVideo } = await import("../folders/fixtures.js");

const owner = (workspaceId: string, id: string, email: string) => ({
  workspaceId,
  role: "owner" as const,
  principal: { kind: "user" as const, id, email, sessionId: null },
  clientAddress: null,
});
/** Polls `read` until it equals `expected` (10 s at most), and asserts it does. */
async function eventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
  const until = Date.now() + 10_000;
  let value = await read();
  while (JSON.stringify(value) !== JSON.stringify(expected) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  expect(value).toEqual(expected);
}
/** A header of the mail as it was sent, unfolded (mailparser turns List-* headers into its own structure). */
const header = headerOf;
const mailsTo = (to: string) => inbox.received.filter((r) => r.envelope.to.includes(to));
const rowsOf = (to: string) =>
  pgPool
    .query(
      `SELECT id, kind, status, data, group_key AS "groupKey", send_after AS "sendAfter" FROM mails WHERE to_address = $1 ORDER BY created_at`,
      [to],
    )
    .then((r) => r.rows);

describe("mail through SMTP", () => {
  it("an invitation leaves from the outbox with its headers, both parts and a link at PUBLIC_URL; a retry sends nothing more", async () => {
    const ws = await newWorkspace("free", "Studio North");
    const ada = await newPerson("ada@mail.test", ws.workspaceId, "owner");
    const { invitation, acceptUrl } = await createInvitation(owner(ws.workspaceId, ada.userId, "ada@mail.test"), {
      email: "grace@mail.test",
      role: "member",
    });
    const [got] = await inbox.waitFor((r) => r.envelope.to.includes("grace@mail.test"));
    // The server has it; the row says so a moment later.
    await eventually(async () => (await rowsOf("grace@mail.test"))[0].status, "sent");
    const [row] = await rowsOf("grace@mail.test");
    expect(row).toMatchObject({ kind: "invitation", status: "sent" });
    expect(row.data.secret).toBeUndefined(); // the link is not kept once sent
    expect(got!.user).toBe("mailer"); // the URL's login was used
    expect(got!.mail.messageId).toBe(`<${row.id}@dashboard.test>`);
    expect(got!.mail.from?.text).toBe('"Video service" <alerts@dashboard.test>');
    expect(got!.mail.subject).toBe("Invitation to the workspace “Studio North”");
    expect(got!.mail.text).toContain("ada@mail.test invited you to the workspace “Studio North” as a member");
    expect(got!.mail.text).toContain(acceptUrl);
    expect(got!.mail.html).toContain(`href="${acceptUrl.replace(/&/g, "&amp;")}"`);
    expect(linksOf(got!).every((l) => l.startsWith("http://dashboard.test:8080/"))).toBe(true);
    expect(invitation.email).toBe("grace@mail.test");

    // The job again, or another one (the sweep's), finds it sent: nothing more leaves.
    expect(await sendMail(row.id, createMailTransport())).toBe("skipped");
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo("grace@mail.test")).toHaveLength(1);
  });

  it("a refused attempt leaves the mail pending; the retry sends it once, with the same Message-ID", async () => {
    const mail = {
      dedupeKey: "test:refused",
      to: "refused@mail.test",
      kind: "member_removed" as const,
      data: { workspaceName: "Somewhere", by: null },
    };
    const [queued] = await queueMails([mail]); // written, not dispatched: this test is the job
    const transport = createMailTransport();
    inbox.failNext(1);
    await expect(sendMail(queued!.id, transport, { attempt: 1, maxAttempts: 6, starts: 1 })).rejects.toThrow(/451/);
    expect((await rowsOf("refused@mail.test"))[0]).toMatchObject({ status: "pending" });
    expect(await sendMail(queued!.id, transport, { attempt: 2, maxAttempts: 6, starts: 2 })).toBe("sent");
    expect(await sendMail(queued!.id, transport, { attempt: 3, maxAttempts: 6, starts: 3 })).toBe("skipped");
    const [got] = await inbox.waitFor((r) => r.envelope.to.includes("refused@mail.test"));
    expect(got!.mail.messageId).toBe(`<${queued!.id}@dashboard.test>`);
    expect(mailsTo("refused@mail.test")).toHaveLength(1);
    // The same reason queues nothing twice.
    expect(await sendMails([mail])).toEqual([]);
  });

  it("no header can be injected through a workspace's name, and only PUBLIC_URL links are made", async () => {
    const ws = await newWorkspace("free", "Plain");
    await prisma.workspace.update({ where: { id: ws.workspaceId }, data: { name: "Evil\r\nBcc: thief@evil.example\r\nX-Injected: yes" } });
    const ada = await newPerson("ada-inject@mail.test", ws.workspaceId, "owner");
    await createInvitation(owner(ws.workspaceId, ada.userId, "ada-inject@mail.test"), { email: "target@mail.test", role: "member" });
    const [got] = await inbox.waitFor((r) => r.envelope.to.includes("target@mail.test"));
    expect(got!.envelope.to).toEqual(["target@mail.test"]);
    expect(got!.mail.headers.has("bcc")).toBe(false);
    expect(got!.mail.headers.has("x-injected")).toBe(false);
    // The name is data: one line, quoted, its address written so that no mail client links it.
    expect(got!.mail.subject).toBe("Invitation to the workspace “Evil Bcc: thief@evil[.]example X-Injected: yes”");
    expect(inbox.received.some((r) => r.envelope.to.includes("thief@evil.example"))).toBe(false);
    const { serviceLink } = await import("../../src/domain/mail/links.js");
    for (const bad of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"])
      expect(() => serviceLink(bad)).toThrow();
  });

  it("old mails that are done, and old notifications, are pruned; pending ones stay", async () => {
    const { pruneMail } = await import("../../src/domain/mail/outbox.js");
    const [old, waiting] = await queueMails([
      { dedupeKey: "test:prune:old", to: "old@mail.test", kind: "member_removed", data: { workspaceName: "Old", by: null } },
      { dedupeKey: "test:prune:waiting", to: "waiting@mail.test", kind: "member_removed", data: { workspaceName: "Old", by: null } },
    ]);
    await pgPool.query(
      `UPDATE mails SET created_at = now() - interval '31 days', status = CASE WHEN id = $1 THEN 'sent'::"MailStatus" ELSE status END WHERE id = ANY($2::uuid[])`,
      [old!.id, [old!.id, waiting!.id]],
    );
    expect((await pruneMail()).mails).toBe(1);
    expect((await pgPool.query(`SELECT id FROM mails WHERE id = ANY($1::uuid[])`, [[old!.id, waiting!.id]])).rows).toEqual([
      { id: waiting!.id },
    ]);
  });

  it("a workspace's mails per hour are capped", async () => {
    const ws = await newWorkspace("free", "Busy");
    const mails = Array.from({ length: 5 }, (_, i) => ({
      dedupeKey: `test:cap:${i}`,
      workspaceId: ws.workspaceId,
      to: `cap${i}@mail.test`,
      kind: "member_removed" as const,
      data: { workspaceName: "Busy", by: null },
    }));
    const queued = await sendMails(mails);
    const until = Date.now() + 10_000;
    let statuses: string[] = [];
    while (Date.now() < until) {
      statuses = (await pgPool.query(`SELECT status FROM mails WHERE id = ANY($1::uuid[])`, [queued.map((q) => q.id)])).rows.map(
        (r) => r.status as string,
      );
      if (statuses.every((s) => s === "sent" || s === "capped")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(statuses.filter((s) => s === "sent")).toHaveLength(4);
    expect(statuses.filter((s) => s === "capped")).toHaveLength(1);
  });
});

describe("people mails", () => {
  it("a reset link is mailed to an address that has an account; the answer is the same for one that has none", async () => {
    const ws = await newWorkspace();
    await newPerson("forgot@mail.test", ws.workspaceId);
    const ask = (email: string) =>
      request(api.url, "POST", "/auth/request-password-reset", { body: { email }, headers: { origin: api.url } });
    const known = await ask("forgot@mail.test");
    const unknown = await ask("nobody@mail.test");
    expect(known.status).toBe(200);
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: known.status, body: known.body });
    const [got] = await inbox.waitFor((r) => r.envelope.to.includes("forgot@mail.test"));
    const link = linksOf(got!).find((l) => l.includes("/reset-password?token="))!;
    expect(link.startsWith("http://dashboard.test:8080/reset-password?token=")).toBe(true);
    // The link works: a new password is set through it (the dashboard's page posts this).
    const token = new URL(link).searchParams.get("token")!;
    const reset = await request(api.url, "POST", "/auth/reset-password", {
      body: { token, newPassword: "a brand new password" },
      headers: { origin: api.url },
    });
    expect(reset.status, reset.text).toBe(200);
    await signedIn(api.url, "forgot@mail.test", "a brand new password");
    // The person is told their password was reset.
    await inbox.waitFor((r) => r.envelope.to.includes("forgot@mail.test") && /password was reset/.test(r.mail.subject ?? ""));
    expect(mailsTo("nobody@mail.test")).toEqual([]);
    // Sign-up (without an invitation) answers the same for an address with an account and one without.
    const signUp = (email: string) =>
      request(api.url, "POST", "/auth/sign-up/email", {
        body: { email, password: "long enough password", name: "X" },
        headers: { origin: api.url },
      });
    const [taken, free] = [await signUp("forgot@mail.test"), await signUp("nobody@mail.test")];
    expect({ status: taken.status, body: taken.body }).toEqual({ status: free.status, body: free.body });
    // At most 3 reset mails per address per hour, with the same answer.
    for (let i = 0; i < 3; i++) expect((await ask("forgot@mail.test")).status).toBe(200);
    const resets = async () =>
      (await pgPool.query(`SELECT count(*)::int AS n FROM mails WHERE kind = 'password_reset' AND to_address = 'forgot@mail.test'`)).rows[0]
        .n;
    await eventually(resets, 3);
    await new Promise((r) => setTimeout(r, 300));
    expect(await resets()).toBe(3);
  });

  it("owners hear of a new API key; a removed member is told; a member can leave, the last owner cannot", async () => {
    const ws = await newWorkspace("free", "Keyed");
    const boss = await newPerson("boss@mail.test", ws.workspaceId, "owner");
    await newPerson("mate@mail.test", ws.workspaceId, "member");
    await newPerson("leaver@mail.test", ws.workspaceId, "member");
    await createKey(ws.workspaceId, "ci-deploy", undefined, {
      principal: { kind: "user", id: boss.userId, email: "boss@mail.test", sessionId: null },
      clientAddress: null,
    });
    const [notice] = await inbox.waitFor((r) => r.envelope.to.includes("boss@mail.test") && /API key/.test(r.mail.subject ?? ""));
    expect(notice!.mail.text).toContain("A new API key “ci-deploy” was made in the workspace “Keyed” by boss@mail.test.");
    expect(mailsTo("mate@mail.test")).toEqual([]); // owners only

    const bossClient = await signedIn(api.url, "boss@mail.test");
    const members = await bossClient.gql(`{ members(first: 10) { edges { node { id email } } } }`, {}, { workspace: ws.workspaceId });
    const mate = members.body.data.members.edges.find((e: any) => e.node.email === "mate@mail.test").node.id;
    expect(
      (await bossClient.gql(`mutation($id: ID!) { removeMember(id: $id) }`, { id: mate }, { workspace: ws.workspaceId })).body.errors,
    ).toBeUndefined();
    const [removed] = await inbox.waitFor((r) => r.envelope.to.includes("mate@mail.test"));
    expect(removed!.mail.subject).toBe("You were removed from the workspace “Keyed”");

    const leaver = await signedIn(api.url, "leaver@mail.test");
    const left = await leaver.gql(`mutation { leaveWorkspace }`, {}, { workspace: ws.workspaceId });
    expect(left.body.errors).toBeUndefined();
    expect(await prisma.workspaceMember.count({ where: { workspaceId: ws.workspaceId } })).toBe(1);
    const last = await bossClient.gql(`mutation { leaveWorkspace }`, {}, { workspace: ws.workspaceId });
    expect(last.body.errors[0].extensions.code).toBe("LAST_OWNER");
    expect(mailsTo("leaver@mail.test")).toEqual([]); // leaving on one's own sends nothing
  });
});

describe("alerts", () => {
  it("a burst of spikes: every notification in the bell, one mail now and one grouped mail 10 minutes later; nothing for another workspace", async () => {
    const ws = await newWorkspace("free", "Spiky");
    const other = await newWorkspace("free", "Elsewhere");
    await newPerson("watcher@mail.test", ws.workspaceId, "owner");
    await newPerson("quiet@mail.test", ws.workspaceId, "member");
    await newPerson("outsider@mail.test", other.workspaceId, "owner");
    const watcher = await signedIn(api.url, "watcher@mail.test");
    const set = await watcher.gql(
      `mutation { setAlertRule(rule: VIDEO_SPIKE, inDashboard: true, byMail: true, minViewsPerHour: 100) { rule byMail minViewsPerHour } }`,
      {},
      { workspace: ws.workspaceId },
    );
    expect(set.body.data.setAlertRule).toEqual({ rule: "VIDEO_SPIKE", byMail: true, minViewsPerHour: 100 });

    const video = await createVideo({ username: "dancer", description: "Rooftop dance\nsecond line" });
    const spike = (views24h: number) => ({
      workspaceId: ws.workspaceId,
      type: "video.spike" as const,
      data: { videoId: video.id, views24h, outlierScore: 9 },
    });
    await emitWorkspaceEvents([spike(24 * 500)]);
    const [first] = await inbox.waitFor((r) => r.envelope.to.includes("watcher@mail.test"));
    // A creator's title is in the body as quoted data, never in the subject.
    expect(first!.mail.subject).toBe("Video spikes in “Spiky”");
    expect(first!.mail.text).toContain("“Spike: @dancer: Rooftop dance (500 views/hour)”");
    expect(header(first!, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const unsubscribe = String(header(first!, "List-Unsubscribe")).replace(/^<|>$/g, "");
    expect(unsubscribe.startsWith("http://dashboard.test:8080/unsubscribe/")).toBe(true);
    expect(first!.mail.text).toContain(`http://dashboard.test:8080/videos/${video.id}`);

    // Two more within 10 minutes (one below the watcher's minimum): one pending mail that counts them.
    await emitWorkspaceEvents([spike(24 * 700)]);
    await emitWorkspaceEvents([spike(24 * 50)]);
    await emitWorkspaceEvents([spike(24 * 900)]);
    const until = Date.now() + 10_000;
    let rows: any[] = [];
    while (Date.now() < until) {
      rows = await rowsOf("watcher@mail.test");
      if (rows.length === 2 && rows[1].data.count === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows.map((r) => r.status)).toEqual(["sent", "pending"]);
    expect(rows[1].data.count).toBe(2);
    expect(new Date(rows[1].sendAfter).getTime() - new Date(rows[0].sendAfter).getTime()).toBeGreaterThanOrEqual(10 * 60_000);
    expect(renderMail("alert", rows[1].data).subject).toBe("Video spikes: 2 in “Spiky”");

    // The bell: every spike above the minimum for the watcher, every spike for the quiet member (defaults), none elsewhere.
    const count = async (email: string, workspace: string) =>
      (await (await signedIn(api.url, email)).gql(`{ unreadNotificationCount }`, {}, { workspace })).body.data.unreadNotificationCount;
    await eventually(() => count("quiet@mail.test", ws.workspaceId), 4);
    expect(await count("watcher@mail.test", ws.workspaceId)).toBe(3);
    expect(await count("outsider@mail.test", other.workspaceId)).toBe(0);
    expect(mailsTo("quiet@mail.test")).toEqual([]);

    // One-click unsubscribe: GET shows, POST (RFC 8058) turns that rule's mail off and nothing else.
    const path = new URL(unsubscribe).pathname;
    const page = await request(api.url, "GET", path);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Video spikes");
    expect(page.headers.get("x-robots-tag")).toBe("noindex");
    expect((await prisma.alertPreference.findMany({ where: { workspaceId: ws.workspaceId } }))[0]!.byMail).toBe(true);
    const post = await request(api.url, "POST", path, {
      rawBody: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(post.status).toBe(200);
    expect(
      await prisma.alertPreference.findMany({
        where: { workspaceId: ws.workspaceId },
        select: { rule: true, inDashboard: true, byMail: true, minViewsPerHour: true },
      }),
    ).toEqual([{ rule: "video.spike", inDashboard: true, byMail: false, minViewsPerHour: 100 }]);
    const forged = path.slice(0, -3) + (path.endsWith("AAA") ? "BBB" : "AAA");
    expect((await request(api.url, "POST", forged)).status).toBe(404);
  });

  it("a page of notifications, its total and the unread count agree while alerts arrive, over REST and GraphQL (one statement)", async () => {
    const ws = await newWorkspace("free", "Busy bell");
    const { userId } = await newPerson("busy-bell@mail.test", ws.workspaceId, "owner");
    const reader = await signedIn(api.url, "busy-bell@mail.test");
    const headers = { "x-workspace-id": ws.workspaceId, "x-requested-with": "test" };
    let writing = true;
    let reads = 0;
    let written = 0;
    // As the consumer writes them (src/domain/notifications/consume.ts), one at a time: at least 80, and on until the
    // doors were read 8 times meanwhile, however slow the machine (at most 100: one page holds them all).
    const writer = (async () => {
      for (; written < 80 || (reads < 8 && written < 100); written++)
        await pgPool.query(
          "INSERT INTO notifications (workspace_id, user_id, rule, title, path, data) VALUES ($1, $2, 'video.spike', $3, '/videos', '{}')",
          [ws.workspaceId, userId, `Spike ${written}`],
        );
      writing = false;
    })();
    while (writing) {
      const [rest, graph] = await Promise.all([
        reader.send("GET", "/api/v1/notifications?limit=100", { headers }),
        reader.gql(`{ notifications(first: 100) { totalCount edges { node { id } } } }`, {}, { workspace: ws.workspaceId }),
      ]);
      expect(rest.body.pagination.total, "REST: the total counts the page's rows").toBe(rest.body.data.length);
      expect(rest.body.unreadCount, "REST: all of them are unread").toBe(rest.body.data.length);
      const bell = graph.body.data.notifications;
      expect(bell.totalCount, "GraphQL: the same").toBe(bell.edges.length);
      reads++;
    }
    await writer;
    const past = await reader.send("GET", "/api/v1/notifications?limit=10&offset=1000", { headers });
    expect(past.body, "past the end: no rows, both counts").toMatchObject({
      data: [],
      pagination: { total: written },
      unreadCount: written,
    });
  });

  it("the doors: REST, GraphQL and MCP read and mark read; an API key is refused; nobody reads another's", async () => {
    const ws = await newWorkspace("free", "Doors");
    await newPerson("reader@mail.test", ws.workspaceId, "owner");
    await newPerson("other-reader@mail.test", ws.workspaceId, "member");
    const video = await createVideo({ username: "singer", description: "Ballad" });
    await emitWorkspaceEvents([
      { workspaceId: ws.workspaceId, type: "analysis.completed", data: { analysisId: video.id, videoId: video.id, status: "completed" } },
    ]);
    const reader = await signedIn(api.url, "reader@mail.test");
    const headers = { "x-workspace-id": ws.workspaceId, "x-requested-with": "test" };
    let list: any;
    const until = Date.now() + 10_000;
    do {
      list = await reader.send("GET", "/api/v1/notifications", { headers });
      if (list.body?.data?.length) break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < until);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({
      unreadCount: 1,
      pagination: { total: 1 },
      data: [{ rule: "analysis.completed", title: "Analysis completed: @singer: Ballad", path: `/videos/${video.id}`, readAt: null }],
    });
    const id = list.body.data[0].id;

    // Someone else's notification cannot be marked read by another person.
    const other = await signedIn(api.url, "other-reader@mail.test");
    expect((await other.send("POST", "/api/v1/notifications/read", { body: { ids: [id] }, headers })).body.data).toMatchObject({
      marked: 0,
    });
    expect((await request(api.url, "GET", "/api/v1/notifications", { key: ws.key })).status).toBe(403);
    expect((await request(api.url, "POST", "/api/v1/notifications/read", { key: ws.key, body: { all: true } })).status).toBe(403);
    expect((await reader.send("POST", "/api/v1/notifications/read", { body: { ids: [id], all: true }, headers })).status).toBe(400);

    // MCP: a person's session reads them; an API key is refused, as on REST.
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    const mcp = async (headers: Record<string, string>) => {
      const c = new Client({ name: "mail-test", version: "1.0.0" });
      await c.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers } }));
      return c;
    };
    const asPerson = await mcp({ cookie: reader.cookieHeader(), ...headers });
    const listed = (await asPerson.callTool({ name: "list_notifications", arguments: {} })) as {
      structuredContent?: any;
      isError?: boolean;
    };
    expect(listed.structuredContent).toMatchObject({ unreadCount: 1, data: [{ id, rule: "analysis.completed" }] });
    const asKey = await mcp({ authorization: `Bearer ${ws.key}` });
    const refused = (await asKey.callTool({ name: "list_notifications", arguments: {} })) as { structuredContent?: any; isError?: boolean };
    expect(refused).toMatchObject({ isError: true, structuredContent: { code: "FORBIDDEN" } });
    await asPerson.close();
    await asKey.close();

    const marked = await reader.gql(
      `mutation($ids: [ID!]) { markNotificationsRead(ids: $ids) { marked unreadCount } }`,
      { ids: [id] },
      { workspace: ws.workspaceId },
    );
    expect(marked.body.data.markNotificationsRead).toEqual({ marked: 1, unreadCount: 0 });
    const g = await reader.gql(
      `{ notifications(first: 5) { totalCount edges { node { uuid rule readAt } } } }`,
      {},
      { workspace: ws.workspaceId },
    );
    expect(g.body.data.notifications).toMatchObject({
      totalCount: 1,
      edges: [{ node: { uuid: id, rule: "ANALYSIS_COMPLETED", readAt: expect.any(String) } }],
    });
  });
});

describe("credits low", () => {
  it("fires at the threshold the owners set (members may not set it), and reaches the bell; so does the plan's limit", async () => {
    const { charge } = await import("../../src/domain/credits/service.js");
    const ws = await newWorkspace("free", "Thrifty"); // 200 monthly credits: the server's 10 % is 20
    await newPerson("thrifty-owner@mail.test", ws.workspaceId, "owner");
    await newPerson("thrifty-member@mail.test", ws.workspaceId, "member");
    const member = await signedIn(api.url, "thrifty-member@mail.test");
    expect(
      (await member.gql(`mutation { setCreditsAlertThreshold(threshold: 150) }`, {}, { workspace: ws.workspaceId })).body.errors[0]
        .extensions.code,
    ).toBe("FORBIDDEN");
    const owner = await signedIn(api.url, "thrifty-owner@mail.test");
    expect((await owner.gql(`mutation { setCreditsAlertThreshold(threshold: 150) }`, {}, { workspace: ws.workspaceId })).body.data).toEqual(
      { setCreditsAlertThreshold: 150 },
    );
    await charge({ workspaceId: ws.workspaceId, amount: 60, idempotencyKey: "thrifty-1", reason: "test" });
    const events = async () =>
      (await pgPool.query(`SELECT data FROM workspace_events WHERE workspace_id = $1 AND type = 'credits.low'`, [ws.workspaceId])).rows;
    await eventually(async () => (await events()).length, 1);
    expect((await events())[0].data).toMatchObject({
      totalRemaining: 140,
      threshold: 150,
      thresholdSetByOwner: true,
      thresholdPercent: 10,
    });
    const bell = async () =>
      (await owner.gql(`{ notifications(first: 5) { edges { node { rule title } } } }`, {}, { workspace: ws.workspaceId })).body.data
        .notifications.edges;
    await eventually(async () => (await bell()).length, 1);
    expect(await bell()).toEqual([{ node: { rule: "CREDITS_LOW", title: "Credits low: 140 left" } }]);

    // Plan limits: an addition refused by the plan's tracking limit, told once a day.
    await prisma.plan.create({ data: { name: "thrifty-none", videoLimit: 0, monthlyCredits: 200 } });
    await prisma.workspace.update({ where: { id: ws.workspaceId }, data: { planName: "thrifty-none" } });
    const { trackVideo } = await import("../../src/domain/tracking/videos.js");
    for (const v of ["limitAaaa01", "limitAaaa02"])
      await expect(trackVideo(ws.workspaceId, `https://www.youtube.com/watch?v=${v}`)).rejects.toMatchObject({
        code: "VIDEO_LIMIT_REACHED",
      });
    await eventually(async () => (await bell()).length, 2);
    expect((await bell())[0]).toEqual({
      node: { rule: "PLAN_LIMIT_REACHED", title: "Plan limit reached: 0 tracked videos; untrack some or change plan" },
    });
    expect(
      (
        await pgPool.query(`SELECT count(*)::int AS n FROM workspace_events WHERE workspace_id = $1 AND type = 'plan.limit_reached'`, [
          ws.workspaceId,
        ])
      ).rows[0].n,
    ).toBe(1);
  });
});

describe("weekly digest", () => {
  it("renders a week of seeded history and is queued once per week at the person's local day and hour", async () => {
    const ws = await newWorkspace("free", "Digest studio");
    const p = await newPerson("digest@mail.test", ws.workspaceId, "owner");
    const account = await createAccount({ username: "chef" });
    const video = await createVideo({ username: "chef", description: "Knife skills", accountId: account.id });
    await pgPool.query(`INSERT INTO tracked_accounts (workspace_id, account_id) VALUES ($1, $2)`, [ws.workspaceId, account.id]);
    await pgPool.query(
      `INSERT INTO tracked_videos (workspace_id, video_id, via_account_id, created_at) VALUES ($1, $2, $3, now() - interval '2 days')`,
      [ws.workspaceId, video.id, account.id],
    );
    const now = new Date();
    for (let d = 8; d >= 0; d--) {
      const day = new Date(now.getTime() - d * 86_400_000).toISOString().slice(0, 10);
      await pgPool.query(
        `INSERT INTO video_snapshots (video_id, day, captured_at, source, view_count) VALUES ($1, $2::date, now(), 'simulated', $3)`,
        [video.id, day, 1000 + (8 - d) * 500],
      );
      await pgPool.query(
        `INSERT INTO account_snapshots (account_id, day, captured_at, source, follower_count) VALUES ($1, $2::date, now(), 'simulated', $3)`,
        [account.id, day, 100 + (8 - d) * 10],
      );
    }
    await pgPool.query(
      `INSERT INTO video_analyses (workspace_id, video_id, status, completed_at) VALUES ($1, $2, 'completed', now() - interval '1 day')`,
      [ws.workspaceId, video.id],
    );
    await pgPool.query(
      `INSERT INTO credit_ledger (workspace_id, kind, amount, balance_after, idempotency_key, created_at) VALUES ($1, 'charge', -10, 190, 'digest-test', now() - interval '1 hour')`,
      [ws.workspaceId],
    );

    const data = await digestData(ws.workspaceId, now, "Asia/Tokyo");
    expect(data).toMatchObject({
      workspaceName: "Digest studio",
      analysesCompleted: 1,
      analysesFailed: 0,
      creditsUsed: 10,
      newVideoCount: 1,
      timeZone: "Asia/Tokyo",
    });
    expect(data.topVideos).toEqual([{ title: "@chef: Knife skills", path: `/videos/${video.id}`, detail: "+3,500 views" }]);
    expect(data.topAccounts).toEqual([{ title: "@chef", path: `/accounts/${account.id}`, detail: "+70 followers" }]);
    const text = renderMail("digest", data).text;
    expect(text).toContain("Top movers: videos\n- “@chef: Knife skills” — +3,500 views\n  http://dashboard.test:8080/videos/");
    expect(text).toContain("Analyses: 1 completed, 0 failed. Credits: 10 used,");

    // Due at the person's local weekday and hour (Tokyo), once per ISO week.
    const local = new Date(now.toLocaleString("en-US", { timeZone: "Asia/Tokyo" }));
    const who = await signedIn(api.url, "digest@mail.test");
    const set = await who.gql(
      `mutation($w: Int!, $h: Int!) { setDigestSettings(enabled: true, weekday: $w, hour: $h, timeZone: "Asia/Tokyo") { enabled weekday hour timeZone } }`,
      { w: local.getDay(), h: local.getHours() },
      { workspace: ws.workspaceId },
    );
    expect(set.body.data.setDigestSettings).toEqual({
      enabled: true,
      weekday: local.getDay(),
      hour: local.getHours(),
      timeZone: "Asia/Tokyo",
    });
    expect(await queueDueDigests(now)).toEqual({ queued: 1 });
    expect(await queueDueDigests(now)).toEqual({ queued: 0 });
    const [got] = await inbox.waitFor((r) => r.envelope.to.includes("digest@mail.test"));
    expect(got!.mail.subject).toMatch(/^Your week in “Digest studio” \(/);
    expect(header(got!, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    // One-click: the digest is off, nothing else changed.
    const path = new URL(String(header(got!, "List-Unsubscribe")).replace(/^<|>$/g, "")).pathname;
    expect((await request(api.url, "POST", path)).status).toBe(200);
    expect(
      await prisma.digestSubscription.findUnique({ where: { workspaceId_userId: { workspaceId: ws.workspaceId, userId: p.userId } } }),
    ).toMatchObject({ enabled: false });
    const bad = await who.gql(
      `mutation { setDigestSettings(enabled: true, weekday: 9, hour: 8, timeZone: "Mars/Olympus") { enabled } }`,
      {},
      { workspace: ws.workspaceId },
    );
    expect(bad.body.errors[0].extensions.code).toBe("VALIDATION_ERROR");
  });
});

describe("without SMTP_URL", () => {
  it("mails go to the log and the dev mailbox (npm run cli -- mail list); /readyz says whether mail is configured", async () => {
    // Written, not dispatched (this file's worker sends through SMTP): the log transport sends it, as a worker without SMTP_URL does.
    const [queued] = await queueMails([
      { dedupeKey: "test:log-only", to: "log-only@mail.test", kind: "member_removed", data: { workspaceName: "Logged", by: null } },
    ]);
    expect(await sendMail(queued!.id, new LogMailTransport())).toBe("logged");
    const listed = await cli("mail", "list", "--to", "log-only@mail.test");
    expect(listed.code).toBe(0);
    expect(listed.json.mails[0]).toMatchObject({
      to: "log-only@mail.test",
      kind: "member_removed",
      status: "logged",
      subject: "You were removed from the workspace “Logged”",
      links: ["http://dashboard.test:8080/"],
    });
    expect(listed.json.mails[0].text).toContain("from the workspace “Logged”");

    expect(mailReport(null)).toMatchObject({ configured: false, transport: "log" });
    const ready = await request(api.url, "GET", "/readyz");
    expect(ready.body.mail).toEqual({
      configured: true,
      transport: "smtp",
      server: expect.stringMatching(/^smtp:\/\/127\.0\.0\.1:\d+$/),
      from: "Video service <alerts@dashboard.test>",
    });
    expect(ready.text).not.toContain("s3cret");
  });
});
