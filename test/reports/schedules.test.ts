/**
 * Scheduled reports: a monthly schedule due for a seeded month produces exactly one
 * report whose numbers match a hand-written SQL over the seeded daily history, and one mail per
 * address, received by a real SMTP server on loopback, linking to the folder's shared page; running
 * the sweep again (or later in the month) produces and sends nothing more. Doors: REST and GraphQL,
 * owner-only changes, tenancy.
 */
import { describe, expect, it } from "vitest";
import { startMailHarness, linksOf } from "../mail/smtp.js";

const { inbox, api } = await startMailHarness("http://reports.example.test");

const { client, gql, newWorkspace } = await import("../helpers/api.js");
const { newPerson, signedIn } = await import("../helpers/people.js");
const { prisma } = await import("../../src/infra/db.js");
const { produceDueReports, duePeriod } = await import("../../src/domain/reports/produce.js");
const { resolveShareToken } = await import("../../src/domain/reports/share-links.js");
const { createTrackedVideo } = await import("../folders/fixtures.js");

const ws = await newWorkspace("pro", "Report Studio");
const other = await newWorkspace("pro", "Other Studio");
const c = client(api.url, ws.key);

/** A folder of 3 videos with daily views from Sep 28 to Nov 2, 2026 (one posted in October, one never before October). */
async function seedMonth() {
  const folder = await prisma.folder.create({ data: { workspaceId: ws.workspaceId, name: "October Campaign" } });
  const specs = [
    { description: "steady riser", postedAt: new Date("2026-08-01T10:00:00Z"), from: "2026-09-28", base: 10_000, perDay: 500 },
    { description: "october launch", postedAt: new Date("2026-10-12T08:00:00Z"), from: "2026-10-12", base: 0, perDay: 2_000 },
    { description: "flat one", postedAt: new Date("2026-07-01T10:00:00Z"), from: "2026-09-28", base: 50_000, perDay: 0 },
  ];
  for (const s of specs) {
    const v = await createTrackedVideo(ws.workspaceId, {
      description: s.description,
      username: "studio",
      postedAt: s.postedAt,
      viewCount: 0,
    });
    const tv = await prisma.trackedVideo.findFirstOrThrow({ where: { workspaceId: ws.workspaceId, videoId: v.id } });
    await prisma.folderVideo.create({ data: { folderId: folder.id, trackedVideoId: tv.id } });
    const rows = [];
    for (
      let d = new Date(`${s.from}T00:00:00Z`), i = 0;
      d <= new Date("2026-11-02T00:00:00Z");
      d = new Date(d.getTime() + 86_400_000), i++
    ) {
      rows.push({
        videoId: v.id,
        day: d,
        capturedAt: new Date(d.getTime() + 20 * 3600_000),
        source: "simulated",
        viewCount: BigInt(s.base + s.perDay * (i + 1)),
      });
    }
    await prisma.videoSnapshot.createMany({ data: rows });
    await prisma.video.update({ where: { id: v.id }, data: { viewCount: s.base + s.perDay * rows.length } });
  }
  return folder;
}

describe("scheduled reports", () => {
  it("a monthly schedule produces October's report once, with the history's numbers, mailed with the shared page's link", async () => {
    const folder = await seedMonth();
    const made = await c.post(`/api/v1/folders/${folder.id}/report-schedules`, {
      frequency: "monthly",
      dayOfMonth: 1,
      hour: 9,
      timeZone: "Europe/Paris",
      recipients: ["Client@Example.test", "boss@example.test"],
      attachCsv: true,
    });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({
      frequency: "monthly",
      dayOfMonth: 1,
      hour: 9,
      timeZone: "Europe/Paris",
      recipients: ["client@example.test", "boss@example.test"],
      shareUrl: null,
    });
    const scheduleId = made.body.data.id;
    // Made before the month's report was due (the sweep skips a period that was due before the schedule existed).
    await prisma.$executeRawUnsafe(`UPDATE report_schedules SET created_at = '2026-09-15T00:00:00Z' WHERE id = $1::uuid`, scheduleId);

    // 08:30 in Paris on Nov 1: not due yet; 09:30 (08:30 UTC): due.
    expect(await produceDueReports(new Date("2026-11-01T07:30:00Z"))).toEqual({ produced: 0, mails: 0 });
    expect(await produceDueReports(new Date("2026-11-01T08:30:00Z"))).toEqual({ produced: 1, mails: 2 });

    const [hand] = await prisma.$queryRawUnsafe<{ gained: bigint; fresh: bigint }[]>(
      `WITH fv AS (SELECT v.id, v.posted_at FROM folder_videos f JOIN tracked_videos tv ON tv.id = f.tracked_video_id JOIN videos v ON v.id = tv.video_id WHERE f.folder_id = $1::uuid),
            last_oct AS (SELECT DISTINCT ON (s.video_id) s.video_id, s.view_count FROM video_snapshots s JOIN fv ON fv.id = s.video_id WHERE s.day <= '2026-10-31' ORDER BY s.video_id, s.day DESC),
            before_oct AS (SELECT DISTINCT ON (s.video_id) s.video_id, s.view_count FROM video_snapshots s JOIN fv ON fv.id = s.video_id WHERE s.day < '2026-10-01' ORDER BY s.video_id, s.day DESC),
            first_oct AS (SELECT DISTINCT ON (s.video_id) s.video_id, s.view_count FROM video_snapshots s JOIN fv ON fv.id = s.video_id WHERE s.day >= '2026-10-01' ORDER BY s.video_id, s.day)
       SELECT (SELECT sum(l.view_count - COALESCE(b.view_count, f.view_count)) FROM last_oct l LEFT JOIN before_oct b USING (video_id) LEFT JOIN first_oct f USING (video_id)) AS gained,
              (SELECT count(*) FROM fv WHERE posted_at >= '2026-09-30T22:00:00Z' AND posted_at < '2026-10-31T23:00:00Z') AS fresh`,
      folder.id,
    );
    const reports = await c.get(`/api/v1/folders/${folder.id}/reports`);
    expect(reports.status).toBe(200);
    expect(reports.body.data).toHaveLength(1);
    const r = reports.body.data[0];
    expect(r).toMatchObject({ scheduleId, period: "2026-10", periodStart: "2026-10-01", periodEnd: "2026-10-31", recipients: 2 });
    expect(r.viewsGained).toBe(Number(hand!.gained));
    expect(r.viewsGained).toBe(31 * 500 + 19 * 2000); // the numbers the seed implies
    expect(r.newVideos).toBe(Number(hand!.fresh));
    expect(r.newVideos).toBe(1);
    expect(r.topVideos.map((v: { description: string }) => v.description)).toEqual(["october launch", "steady riser"]);

    const mails = await inbox.waitFor((m) => /October 2026/.test(m.mail.subject ?? ""), 2);
    expect(mails.map((m) => m.envelope.to[0]).sort()).toEqual(["boss@example.test", "client@example.test"]);
    const mail = mails[0]!;
    expect(mail.mail.subject).toBe("Monthly folder report from “Report Studio” (October 2026)");
    expect(mail.mail.text).toContain(`Views gained: ${(31 * 500 + 19 * 2000).toLocaleString("en-US")}`);
    expect(mail.mail.html).toContain("October Campaign");
    // The folder's videos as CSV, written by the exports area.
    expect(mail.mail.attachments).toHaveLength(1);
    const csv = mail.mail.attachments[0]!;
    expect(csv.filename).toMatch(/^folder-videos-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csv.contentType).toMatch(/text\/csv/);
    const lines = csv.content
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).join("\n")).toContain("october launch");
    const link = linksOf(mail).find((l) => l.startsWith("http://reports.example.test/r/"));
    expect(link).toBeDefined();
    const resolved = await resolveShareToken(new URL(link!).pathname.slice(3));
    expect(resolved).toMatchObject({ workspaceId: ws.workspaceId, folderId: folder.id });
    // The owner sees the same page's URL on the schedule; it is listed as the schedule's link.
    const schedule = await c.get(`/api/v1/report-schedules/${scheduleId}`);
    expect(schedule.body.data.shareUrl).toBe(link);
    const links = await c.get(`/api/v1/folders/${folder.id}/share-links`);
    expect(links.body.data).toHaveLength(1);
    expect(links.body.data[0]).toMatchObject({ forSchedule: true, createdBy: "report schedule", status: "active" });

    // Twice, and later in the month: nothing more.
    expect(await produceDueReports(new Date("2026-11-01T08:30:00Z"))).toEqual({ produced: 0, mails: 0 });
    expect(await produceDueReports(new Date("2026-11-20T12:00:00Z"))).toEqual({ produced: 0, mails: 0 });
    await new Promise((res) => setTimeout(res, 500));
    expect(inbox.received.filter((m) => /October 2026/.test(m.mail.subject ?? ""))).toHaveLength(2);
    expect(await prisma.folderReport.count({ where: { scheduleId } })).toBe(1);
    // A revoked schedule link is replaced at the next period, with a new token.
    await c.delete(`/api/v1/share-links/${links.body.data[0].id}`);
    expect((await c.get(`/api/v1/report-schedules/${scheduleId}`)).body.data.shareUrl).toBeNull();
    expect(await produceDueReports(new Date("2026-12-01T08:30:00Z"))).toEqual({ produced: 1, mails: 2 });
    const december = await inbox.waitFor((m) => /November 2026/.test(m.mail.subject ?? ""), 2);
    const newLink = linksOf(december[0]!).find((l) => l.startsWith("http://reports.example.test/r/"))!;
    expect(newLink).not.toBe(link);
    expect(await resolveShareToken(new URL(newLink).pathname.slice(3))).not.toBeNull();
    expect(await resolveShareToken(new URL(link!).pathname.slice(3))).toBeNull();
  });

  it("weekly due time: the local weekday and hour, covering the ISO week before", () => {
    const s = { frequency: "weekly" as const, weekday: 1, dayOfMonth: 1, hour: 8, timeZone: "America/New_York" };
    // Monday Nov 23, 2026, 07:59 in New York (12:59 UTC): not yet; 08:00: the week of Nov 16-22.
    expect(duePeriod(s, new Date("2026-11-23T12:59:00Z"))).toBeNull();
    expect(duePeriod(s, new Date("2026-11-23T13:00:00Z"))).toMatchObject({ period: "2026-W47", start: "2026-11-16", end: "2026-11-23" });
    // Still due later in the week (a missed run catches up), for the same period.
    expect(duePeriod(s, new Date("2026-11-27T13:00:00Z"))?.period).toBe("2026-W47");
  });

  it("inputs are validated; members may read but not change; another workspace sees nothing", async () => {
    const folder = await prisma.folder.create({ data: { workspaceId: ws.workspaceId, name: "Validation" } });
    const tooMany = Array.from({ length: 21 }, (_, i) => `p${i}@example.test`);
    for (const body of [
      { frequency: "monthly", recipients: tooMany },
      { frequency: "monthly", recipients: ["not an address"] },
      { frequency: "monthly", recipients: ["a@example.test", "A@example.test"] },
      { frequency: "monthly", recipients: ["a@example.test"], timeZone: "Mars/Olympus" },
      { frequency: "monthly", recipients: ["a@example.test"], dayOfMonth: 31 },
      { frequency: "daily", recipients: ["a@example.test"] },
    ]) {
      const res = await c.post(`/api/v1/folders/${folder.id}/report-schedules`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    const made = await gql(
      api.url,
      ws.key,
      `mutation($f: ID!) { createReportSchedule(folderId: $f, frequency: WEEKLY, recipients: ["x@example.test"], attachCsv: true) { id uuid weekday hour timeZone attachCsv enabled } }`,
      { f: folder.id },
    );
    expect(made.body.errors).toBeUndefined();
    expect(made.body.data.createReportSchedule).toMatchObject({ weekday: 1, hour: 8, timeZone: "UTC", attachCsv: true, enabled: true });
    const id = made.body.data.createReportSchedule.uuid;
    const paused = await c.patch(`/api/v1/report-schedules/${id}`, { enabled: false, hour: 7 });
    expect(paused.body.data).toMatchObject({ enabled: false, hour: 7 });

    await newPerson("member@schedules.test", ws.workspaceId, "member");
    const member = await signedIn(api.url, "member@schedules.test");
    const read = await member.gql(`query($f: ID!) { reportSchedules(folderId: $f) { edges { node { uuid shareUrl } } } }`, {
      f: folder.id,
    });
    expect(read.body.data.reportSchedules.edges).toEqual([{ node: { uuid: id, shareUrl: null } }]);
    const change = await member.gql(`mutation($id: ID!) { deleteReportSchedule(id: $id) }`, { id });
    expect(change.body.errors[0].extensions.code).toBe("FORBIDDEN");

    const o = client(api.url, other.key);
    expect((await o.get(`/api/v1/report-schedules/${id}`)).status).toBe(404);
    expect((await o.patch(`/api/v1/report-schedules/${id}`, { enabled: true })).status).toBe(404);
    expect((await o.delete(`/api/v1/report-schedules/${id}`)).status).toBe(404);
    expect((await o.get(`/api/v1/folders/${folder.id}/report-schedules`)).status).toBe(404);
    expect((await o.get(`/api/v1/folders/${folder.id}/reports`)).status).toBe(404);
    const node = await gql(api.url, other.key, `query($id: ID!) { node(id: $id) { id } }`, { id: made.body.data.createReportSchedule.id });
    expect(node.body.data.node).toBeNull();

    const deleted = await c.delete(`/api/v1/report-schedules/${id}`);
    expect(deleted.status).toBe(200);
    expect((await c.get(`/api/v1/report-schedules/${id}`)).status).toBe(404);
  });
});
