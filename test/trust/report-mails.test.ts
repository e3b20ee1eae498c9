/**
 * Scheduled report mails to addresses outside the workspace, probed as the red team did: a folder named like a phishing
 * line reaches no subject and no clickable address; each recipient's mail carries its own one-click unsubscribe
 * (RFC 8058), which takes that address off the schedule; an address gets at most MAIL_MAX_REPORTS_PER_ADDRESS_PER_DAY
 * report mails whatever the number of schedules; removing a recipient or pausing the schedule ends public access to
 * the page its mails link to; the attached CSV holds a hostile caption safely. Real SMTP server on loopback.
 */
import { describe, expect, it } from "vitest";
import { headerOf, startMailHarness, linksOf, type Received } from "../mail/smtp.js";

const { inbox, api } = await startMailHarness("http://reports.example.test", { MAIL_MAX_REPORTS_PER_ADDRESS_PER_DAY: "2" });

const { client, newWorkspace, request } = await import("../helpers/api.js");
const { prisma } = await import("../../src/infra/db.js");
const { produceDueReports } = await import("../../src/domain/reports/produce.js");
const { resolveShareToken } = await import("../../src/domain/reports/share-links.js");
const { createTrackedVideo } = await import("../folders/fixtures.js");
const { expectSafeCsv } = await import("./csv-safety.js");

const ws = await newWorkspace("pro", "Studio\u202e moc.evil");
const c = client(api.url, ws.key);
const PHISHING = "Support\r\nYour account is suspended. Verify now at https://evil.example/login";
const CAPTION = "Great recipe\n=cmd|' /C calc'!A0";

/** A folder with one video (a hostile caption) and a monthly schedule to `recipients`; answers their ids. */
async function scheduled(name: string, recipients: string[]) {
  const folder = (await c.post(`/api/v1/folders`, { name })).body.data;
  const v = await createTrackedVideo(ws.workspaceId, { description: CAPTION, username: "chef" });
  await c.post(`/api/v1/folders/${folder.id}/videos`, { video_ids: [v.id] });
  const made = await c.post(`/api/v1/folders/${folder.id}/report-schedules`, {
    frequency: "monthly",
    dayOfMonth: 1,
    hour: 9,
    recipients,
    attachCsv: true,
  });
  expect(made.status, made.text).toBe(201);
  // Made before the period it reports on.
  await prisma.reportSchedule.update({ where: { id: made.body.data.id }, data: { createdAt: new Date("2026-09-01T00:00:00Z") } });
  return { folderId: folder.id as string, scheduleId: made.body.data.id as string };
}

const pageOf = (m: Received) => linksOf(m).find((l) => l.startsWith("http://reports.example.test/r/"))!;
const tokenOf = (link: string) => new URL(link).pathname.slice(3);
const unsubscribeOf = (m: Received) => /<([^>]+)>/.exec(headerOf(m, "List-Unsubscribe") ?? "")?.[1] ?? "";

describe("scheduled report mails", () => {
  it("show a folder's and a workspace's names as data, and carry each recipient's own one-click unsubscribe", async () => {
    const { scheduleId } = await scheduled(PHISHING, ["first@outside.test", "second@outside.test"]);
    expect(await produceDueReports(new Date("2026-11-01T09:30:00Z"))).toMatchObject({ produced: 1, mails: 2 });
    const mails = await inbox.waitFor((m) => /October 2026/.test(m.mail.subject ?? ""), 2);
    for (const m of mails) {
      // Nothing the owner wrote is in the subject but the workspace's name, quoted, on one line, without bidi controls.
      expect(m.mail.subject).toBe("Monthly folder report from “Studio moc[.]evil” (October 2026)");
      for (const part of [m.mail.text ?? "", String(m.mail.html ?? "")]) {
        expect(part).not.toContain("https://evil.example");
        expect(part).not.toContain("evil.example/");
        expect(part).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u202e]/);
      }
      expect(m.mail.text).toContain("“Support Your account is suspended. Verify now at hxxps[:]//evil[.]example/login”");
      // The only links are the service's.
      for (const link of linksOf(m)) expect(link.startsWith("http://reports.example.test/")).toBe(true);
      // The attachment holds the caption safely.
      const csv = m.mail.attachments[0]!.content.toString("utf8");
      expectSafeCsv(csv, 1);
      expect(headerOf(m, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    }
    const [u1, u2] = mails.map(unsubscribeOf);
    expect(u1).toMatch(/^http:\/\/reports\.example\.test\/unsubscribe\//);
    expect(u1).not.toBe(u2);
    const page = pageOf(mails[0]!);
    expect(await resolveShareToken(tokenOf(page))).not.toBeNull();

    // One click (RFC 8058: POST, no sign-in) takes that address off the schedule, and ends the page its mails link to.
    const who = mails.map((m) => m.envelope.to[0]);
    const res = await request(api.url, "POST", new URL(u1).pathname, {
      rawBody: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain(`to ${who[0]}`);
    expect((await c.get(`/api/v1/report-schedules/${scheduleId}`)).body.data.recipients).toEqual([who[1]]);
    expect(await resolveShareToken(tokenOf(page))).toBeNull();
    // The next report reaches the other address only, with a new link.
    expect(await produceDueReports(new Date("2026-12-01T09:30:00Z"))).toMatchObject({ produced: 1, mails: 1 });
    const [next] = await inbox.waitFor((m) => /November 2026/.test(m.mail.subject ?? ""));
    expect(next!.envelope.to).toEqual([who[1]]);
    expect(await resolveShareToken(tokenOf(pageOf(next!)))).not.toBeNull();
  });

  it("end public access when an owner removes a recipient or pauses the schedule", async () => {
    const { scheduleId } = await scheduled("Removals", ["stay@outside.test", "gone@outside.test"]);
    const from = inbox.received.length;
    await produceDueReports(new Date("2026-11-01T09:30:00Z"));
    const [m] = await inbox.waitFor((r) => inbox.received.indexOf(r) >= from && r.envelope.to[0] === "gone@outside.test");
    const page = pageOf(m!);
    const open = async () =>
      (
        await request(api.url, "POST", "/graphql/shared", {
          body: { query: "query($t: String!) { sharedFolderReport(token: $t) { folderName } }", variables: { t: tokenOf(page) } },
        })
      ).status;
    expect(await open()).toBe(200);
    expect(await resolveShareToken(tokenOf(page))).not.toBeNull();
    expect((await c.patch(`/api/v1/report-schedules/${scheduleId}`, { recipients: ["stay@outside.test"] })).status).toBe(200);
    expect(await resolveShareToken(tokenOf(page))).toBeNull();
    expect(await open()).toBe(404);

    // A new report makes a new link; pausing the schedule ends it too.
    await produceDueReports(new Date("2026-12-01T09:30:00Z"));
    const [again] = await inbox.waitFor(
      (r) => r.envelope.to[0] === "stay@outside.test" && /November 2026/.test(r.mail.subject ?? "") && r.mail.text!.includes("Removals"),
    );
    const second = pageOf(again!);
    expect(await resolveShareToken(tokenOf(second))).not.toBeNull();
    expect((await c.patch(`/api/v1/report-schedules/${scheduleId}`, { enabled: false })).status).toBe(200);
    expect(await resolveShareToken(tokenOf(second))).toBeNull();
    // Each end is in the audit log with its reason.
    const audit = (await c.get(`/api/v1/settings/audit-log?limit=100`)).body.data.filter(
      (e: any) => e.action === "share_link.revoked" && e.details?.scheduleId === scheduleId,
    );
    expect(audit.map((e: any) => e.details.reason).sort()).toEqual(["paused", "recipient_removed"]);
  });

  it("reach one address at most MAIL_MAX_REPORTS_PER_ADDRESS_PER_DAY times a day, however many schedules name it", async () => {
    for (let i = 0; i < 4; i++) await scheduled(`Bomb ${i}`, ["target@outside.test", `other${i}@outside.test`]);
    await produceDueReports(new Date("2026-11-01T09:30:00Z"));
    await inbox.waitFor((r) => r.envelope.to[0] === "other3@outside.test");
    await new Promise((r) => setTimeout(r, 300));
    expect(inbox.received.filter((r) => r.envelope.to[0] === "target@outside.test")).toHaveLength(2);
    expect(inbox.received.filter((r) => /^other\d@/.test(r.envelope.to[0] ?? ""))).toHaveLength(4);
  });
});
