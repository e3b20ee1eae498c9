/**
 * The weekly digest: per person who turned it on, per workspace, at the local
 * day and hour they chose in their time zone (users.time_zone, an IANA name; luxon does the zone
 * arithmetic). The `digests` job runs every few minutes: a digest is due when it is that day in the
 * person's zone, at or past that hour, and this ISO week of theirs has none yet; the mail and the
 * week's mark are written in one transaction (and the mail's dedupe key is the week), so it is sent
 * once per week even when runs overlap or one is missed.
 *
 * It covers the 7 days before it is made: top movers among the workspace's tracked videos (views
 * gained) and accounts (followers gained), new videos of its tracked accounts, analyses completed
 * and failed, credits used and left. Every figure is read from the workspace's own rows.
 */
import { DateTime } from "luxon";
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, type Tx } from "../../infra/db.ts";
import { dispatchMails, queueMails, type QueuedMail } from "../mail/outbox.ts";
import type { DigestData, DigestLine } from "../mail/templates.ts";

const TOP = 5;
const n = (v: number) => Math.round(v).toLocaleString("en-US");
const clip = (s: string, max = 60) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** What the digest of the 7 days before `until` says about the workspace. */
export async function digestData(workspaceId: string, until: Date, timeZone: string, tx?: Tx): Promise<DigestData> {
  const since = new Date(until.getTime() - 7 * 86_400_000);
  const sinceDay = since.toISOString().slice(0, 10);
  const untilDay = until.toISOString().slice(0, 10);
  const [workspace] = await sql<{ name: string; left: number }>(
    Prisma.sql`SELECT name, (monthly_allowance - monthly_used + granted_credits)::int AS "left" FROM workspaces WHERE id = ${workspaceId}::uuid`,
    { tx },
  );
  const videos = await sql<{ id: string; username: string; description: string; gain: number }>(
    Prisma.sql`
    SELECT v.id, v.username, v.description, (max(s.view_count) - min(s.view_count))::float8 AS gain
      FROM tracked_videos tv JOIN videos v ON v.id = tv.video_id
      JOIN video_snapshots s ON s.video_id = tv.video_id AND s.day BETWEEN ${sinceDay}::date AND ${untilDay}::date
     WHERE tv.workspace_id = ${workspaceId}::uuid
     GROUP BY v.id HAVING max(s.view_count) > min(s.view_count)
     ORDER BY gain DESC, v.id LIMIT ${TOP}`,
    { tx },
  );
  const accounts = await sql<{ id: string; username: string; gain: number }>(
    Prisma.sql`
    SELECT a.id, a.username, (max(s.follower_count) - min(s.follower_count))::float8 AS gain
      FROM tracked_accounts ta JOIN accounts a ON a.id = ta.account_id
      JOIN account_snapshots s ON s.account_id = ta.account_id AND s.day BETWEEN ${sinceDay}::date AND ${untilDay}::date
     WHERE ta.workspace_id = ${workspaceId}::uuid
     GROUP BY a.id HAVING max(s.follower_count) > min(s.follower_count)
     ORDER BY gain DESC, a.id LIMIT ${TOP}`,
    { tx },
  );
  const fresh = await sql<{ id: string; username: string; description: string; total: number }>(
    Prisma.sql`
    SELECT v.id, v.username, v.description, count(*) OVER ()::int AS total
      FROM tracked_videos tv JOIN videos v ON v.id = tv.video_id
     WHERE tv.workspace_id = ${workspaceId}::uuid AND tv.via_account_id IS NOT NULL AND tv.created_at >= ${since} AND tv.created_at < ${until}
     ORDER BY tv.created_at DESC, tv.id LIMIT ${TOP}`,
    { tx },
  );
  const [analyses] = await sql<{ completed: number; failed: number }>(
    Prisma.sql`
    SELECT count(*) FILTER (WHERE status = 'completed')::int AS completed, count(*) FILTER (WHERE status = 'failed')::int AS failed
      FROM video_analyses WHERE workspace_id = ${workspaceId}::uuid AND completed_at >= ${since} AND completed_at < ${until}`,
    { tx },
  );
  const [credits] = await sql<{ used: number }>(
    Prisma.sql`
    SELECT COALESCE(-sum(amount) FILTER (WHERE kind = 'charge'), 0)::int - COALESCE(sum(amount) FILTER (WHERE kind = 'refund'), 0)::int AS used
      FROM credit_ledger WHERE workspace_id = ${workspaceId}::uuid AND created_at >= ${since} AND created_at < ${until}`,
    { tx },
  );
  const videoTitle = (v: { username: string; description: string }) =>
    `${v.username ? `@${v.username}` : "A video"}${v.description ? `: ${clip(v.description.split("\n")[0]!)}` : ""}`;
  const local = (d: Date) => DateTime.fromJSDate(d, { zone: timeZone }).toFormat("LLL d");
  return {
    workspaceName: workspace?.name ?? "your workspace",
    weekLabel: `${local(since)} – ${local(until)}`,
    timeZone,
    topVideos: videos.map((v): DigestLine => ({ title: videoTitle(v), path: `/videos/${v.id}`, detail: `+${n(v.gain)} views` })),
    topAccounts: accounts.map(
      (a): DigestLine => ({ title: `@${a.username}`, path: `/accounts/${a.id}`, detail: `+${n(a.gain)} followers` }),
    ),
    newVideos: fresh.map((v): DigestLine => ({ title: videoTitle(v), path: `/videos/${v.id}`, detail: "new" })),
    newVideoCount: fresh[0]?.total ?? 0,
    analysesCompleted: analyses?.completed ?? 0,
    analysesFailed: analyses?.failed ?? 0,
    creditsUsed: Math.max(0, credits?.used ?? 0),
    creditsLeft: workspace?.left ?? 0,
  };
}

interface Subscriber {
  workspaceId: string;
  userId: string;
  email: string;
  timeZone: string;
  weekday: number;
  hour: number;
  lastSentWeek: string | null;
}

/** The ISO week (of the person's zone) whose digest is due now, or null when none is. */
export function dueWeek(s: Pick<Subscriber, "timeZone" | "weekday" | "hour" | "lastSentWeek">, now: Date): string | null {
  const local = DateTime.fromJSDate(now, { zone: s.timeZone });
  if (!local.isValid) return null;
  const week = `${local.weekYear}-W${String(local.weekNumber).padStart(2, "0")}`;
  // luxon: Monday 1 … Sunday 7; the setting: Sunday 0 … Saturday 6.
  if (local.weekday % 7 !== s.weekday || local.hour < s.hour || s.lastSentWeek === week) return null;
  return week;
}

/** Queues every digest due at `now` (the `digests` job). */
export async function queueDueDigests(now = new Date()): Promise<{ queued: number }> {
  const subscribers = await sql<Subscriber>(Prisma.sql`
    SELECT d.workspace_id AS "workspaceId", d.user_id AS "userId", u.email, u.time_zone AS "timeZone", d.weekday, d.hour, d.last_sent_week AS "lastSentWeek"
      FROM digest_subscriptions d JOIN users u ON u.id = d.user_id
     WHERE d.enabled`);
  let queued = 0;
  for (const s of subscribers) {
    const week = dueWeek(s, now);
    if (!week) continue;
    const mails = await prisma.$transaction(async (tx): Promise<QueuedMail[]> => {
      const marked = await sql(
        Prisma.sql`UPDATE digest_subscriptions SET last_sent_week = ${week}
                    WHERE workspace_id = ${s.workspaceId}::uuid AND user_id = ${s.userId}::uuid AND last_sent_week IS DISTINCT FROM ${week} AND enabled RETURNING 1`,
        { tx },
      );
      if (marked.length === 0) return [];
      const data = await digestData(s.workspaceId, now, s.timeZone, tx);
      return queueMails(
        [
          {
            dedupeKey: `digest:${s.workspaceId}:${s.userId}:${week}`,
            workspaceId: s.workspaceId,
            userId: s.userId,
            to: s.email,
            kind: "digest",
            data,
          },
        ],
        tx,
      );
    });
    queued += mails.length;
    await dispatchMails(mails);
  }
  return { queued };
}
