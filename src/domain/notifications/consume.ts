/**
 * The notifications consumer: one more reader of the workspace events outbox (src/domain/webhooks/
 * outbox.ts), not a second write path. After an event is relayed, the `mail` queue's `notify` job
 * claims it (`workspace_events.notified_at`, a compare-and-set) and, in the same transaction, writes
 * each member's notification (the bell) and queues their alert mail, as each chose (./rules.ts).
 * Claim and writes commit together, so an event is consumed once; the sweep consumes what a lost job
 * left (relayed, not notified).
 *
 * Bursts: a person gets at most one mail per rule per 10 minutes. The first event of a quiet rule
 * mails at once; the next ones within 10 minutes join one pending mail, sent 10 minutes after the
 * previous one, that says how many there were (`groupKey`, serialised by a transaction lock).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, type Tx } from "../../infra/db.ts";
import { queueMails, dispatchMails, type QueuedMail } from "../mail/outbox.ts";
import type { AlertData, AlertItem } from "../mail/templates.ts";
import type { WorkspaceEventType } from "../shared/workspace-events.ts";
import { announceNotifications } from "./service.ts";
import type { PersonInWorkspace } from "./person.ts";
import { ALERT_MAIL_EVERY_MS, DEFAULT_CHOICE, isAlertRule, RULE_LABELS, type AlertRule } from "./rules.ts";

interface EventRow {
  id: string;
  workspaceId: string;
  type: WorkspaceEventType;
  data: Record<string, any>;
}

interface Recipient {
  userId: string;
  email: string;
  inDashboard: boolean;
  byMail: boolean;
  minViewsPerHour: number | null;
}

/** At most this many items are listed in one alert mail (the count says the rest). */
const MAIL_ITEMS = 5;

const clip = (s: string, max = 80) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** What the notification says and which page it opens, read from the event's own workspace's rows. */
async function describe(e: EventRow, tx: Tx): Promise<AlertItem> {
  const d = e.data;
  const video = async (videoId: string) => {
    const [v] = await sql<{ username: string; description: string }>(
      Prisma.sql`SELECT username, description FROM videos WHERE id = ${videoId}::uuid`,
      { tx },
    );
    const what = v
      ? `${v.username ? `@${v.username}` : "a video"}${v.description ? `: ${clip(v.description.split("\n")[0]!, 60)}` : ""}`
      : "a video";
    return what;
  };
  switch (e.type) {
    case "video.spike": {
      const perHour = Math.round(Number(d.views24h ?? 0) / 24);
      return { title: `Spike: ${await video(d.videoId)} (${perHour.toLocaleString("en-US")} views/hour)`, path: `/videos/${d.videoId}` };
    }
    case "account.video_discovered":
      return { title: `New video of @${d.username ?? "an account"}: ${await video(d.videoId)}`, path: `/videos/${d.videoId}` };
    case "analysis.completed":
      return { title: `Analysis completed: ${await video(d.videoId)}`, path: `/videos/${d.videoId}` };
    case "analysis.failed":
      return { title: `Analysis failed: ${await video(d.videoId)}`, path: `/videos/${d.videoId}` };
    case "radar.completed":
      return {
        title: `Radar search "${clip(String(d.query ?? ""), 60)}" found ${Number(d.resultCount ?? 0)} videos`,
        path: `/radar/${d.searchId}`,
      };
    case "credits.low":
      return { title: `Credits low: ${Number(d.totalRemaining ?? 0).toLocaleString("en-US")} left`, path: "/" };
    case "plan.limit_reached":
      return {
        title: `Plan limit reached: ${Number(d.videoLimit ?? 0).toLocaleString("en-US")} tracked videos; untrack some or change plan`,
        path: "/videos",
      };
    case "campaign.budget_reached":
      return {
        title: `Campaign "${clip(String(d.name ?? ""), 60)}" reached ${Number(d.percent ?? 0)} % of its budget`,
        path: `/campaigns/${d.campaignId}`,
      };
    default:
      return { title: e.type, path: "/" };
  }
}

async function recipientsOf(e: EventRow, rule: AlertRule, tx: Tx): Promise<Recipient[]> {
  const all = await sql<Recipient>(
    Prisma.sql`
    SELECT m.user_id AS "userId", u.email,
           COALESCE(p.in_dashboard, ${DEFAULT_CHOICE.inDashboard}) AS "inDashboard", COALESCE(p.by_mail, ${DEFAULT_CHOICE.byMail}) AS "byMail",
           p.min_views_per_hour AS "minViewsPerHour"
      FROM workspace_members m JOIN users u ON u.id = m.user_id
      LEFT JOIN alert_preferences p ON p.workspace_id = m.workspace_id AND p.user_id = m.user_id AND p.rule = ${rule}
     WHERE m.workspace_id = ${e.workspaceId}::uuid`,
    { tx },
  );
  if (rule !== "video.spike") return all;
  const perHour = Number(e.data.views24h ?? 0) / 24;
  return all.filter((r) => r.minViewsPerHour === null || perHour >= r.minViewsPerHour);
}

/** The person's alert mail for this event: a new one, or the pending one of the burst, counted. */
async function alertMail(
  tx: Tx,
  e: EventRow,
  rule: AlertRule,
  r: Recipient,
  item: AlertItem,
  workspaceName: string,
): Promise<QueuedMail[]> {
  const groupKey = `${e.workspaceId}:${r.userId}:${rule}`;
  await sql(Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${`alert:${groupKey}`}, 0)) IS NULL AS locked`, { tx });
  const [last] = await sql<{ id: string; status: string; sendAfter: Date }>(
    Prisma.sql`SELECT id, status::text AS status, send_after AS "sendAfter" FROM mails WHERE group_key = ${groupKey} ORDER BY send_after DESC LIMIT 1`,
    { tx },
  );
  if (last?.status === "pending") {
    await sql(
      Prisma.sql`
      UPDATE mails SET data = jsonb_set(
          jsonb_set(data, '{count}', to_jsonb((data->>'count')::int + 1)),
          '{items}', CASE WHEN jsonb_array_length(data->'items') < ${MAIL_ITEMS} THEN (data->'items') || ${JSON.stringify([item])}::jsonb ELSE data->'items' END)
       WHERE id = ${last.id}::uuid AND status = 'pending' RETURNING 1`,
      { tx },
    );
    return [];
  }
  const next = last ? new Date(Math.max(Date.now(), last.sendAfter.getTime() + ALERT_MAIL_EVERY_MS)) : new Date();
  const data: AlertData = { workspaceName, rule, ruleLabel: RULE_LABELS[rule], items: [item], count: 1 };
  return queueMails(
    [
      {
        dedupeKey: `alert:${e.id}:${r.userId}`,
        workspaceId: e.workspaceId,
        userId: r.userId,
        to: r.email,
        kind: "alert",
        data,
        groupKey,
        sendAfter: next,
      },
    ],
    tx,
  );
}

async function consume(e: EventRow, tx: Tx): Promise<{ mails: QueuedMail[]; people: PersonInWorkspace[] }> {
  if (!isAlertRule(e.type)) return { mails: [], people: [] };
  const rule = e.type;
  const recipients = (await recipientsOf(e, rule, tx)).filter((r) => r.inDashboard || r.byMail);
  if (recipients.length === 0) return { mails: [], people: [] };
  const item = await describe(e, tx);
  const shown = recipients.filter((r) => r.inDashboard);
  if (shown.length) {
    await sql(
      Prisma.sql`
      INSERT INTO notifications (workspace_id, user_id, rule, event_id, title, path, data)
      SELECT ${e.workspaceId}::uuid, u, ${rule}, ${e.id}::uuid, ${item.title}, ${item.path}, ${JSON.stringify(e.data)}::jsonb
        FROM unnest(${shown.map((r) => r.userId)}::uuid[]) AS u
      ON CONFLICT (user_id, event_id) DO NOTHING RETURNING 1`,
      { tx },
    );
  }
  const mailed = recipients.filter((r) => r.byMail);
  const mails: QueuedMail[] = [];
  if (mailed.length) {
    const [w] = await sql<{ name: string }>(Prisma.sql`SELECT name FROM workspaces WHERE id = ${e.workspaceId}::uuid`, { tx });
    for (const r of mailed) mails.push(...(await alertMail(tx, e, rule, r, item, w?.name ?? "your workspace")));
  }
  return { mails, people: shown.map((r) => ({ workspaceId: e.workspaceId, userId: r.userId })) };
}

/**
 * Consumes the events (those no one consumed yet): notifications and alert mails in one
 * transaction with the claim; then the bells are told and the mails dispatched.
 */
export async function notifyEvents(eventIds: string[]): Promise<{ consumed: number }> {
  if (eventIds.length === 0) return { consumed: 0 };
  const { mails, people, consumed } = await prisma.$transaction(
    async (tx) => {
      const events = await sql<EventRow>(
        Prisma.sql`
        UPDATE workspace_events SET notified_at = clock_timestamp()
         WHERE id = ANY(${eventIds}::uuid[]) AND notified_at IS NULL
        RETURNING id, workspace_id AS "workspaceId", type, data`,
        { tx },
      );
      const out = { mails: [] as QueuedMail[], people: [] as PersonInWorkspace[], consumed: events.length };
      for (const e of events) {
        const r = await consume(e, tx);
        out.mails.push(...r.mails);
        out.people.push(...r.people);
      }
      return out;
    },
    { timeout: 30_000 },
  );
  await announceNotifications(people);
  await dispatchMails(mails);
  return { consumed };
}

/** Events relayed at least `graceMs` ago that no `notify` job consumed (its process died): consumed now. */
export async function sweepUnnotified(graceMs = 30_000): Promise<{ consumed: number }> {
  const rows = await sql<{ id: string }>(Prisma.sql`
    SELECT id FROM workspace_events
     WHERE notified_at IS NULL AND relayed_at IS NOT NULL AND relayed_at < clock_timestamp() - ${graceMs} * interval '1 millisecond'
     ORDER BY created_at LIMIT 200`);
  return notifyEvents(rows.map((r) => r.id));
}
