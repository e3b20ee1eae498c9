/**
 * A person's in-dashboard notifications in a workspace (the bell): newest first, unread count, mark
 * read. Every read and write is scoped to (workspace, person): nobody sees another's, and nothing of
 * another workspace.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import { publishEvent } from "../shared/events.ts";
import { parseInput } from "../shared/inputs.ts";
import { orderBySql, pageAndTotal, type Order, type PageRequest } from "../shared/pages.ts";
import type { Actor } from "../actors/actor.ts";
import { markReadInput, type MarkReadInput } from "./inputs.ts";
import type { PersonInWorkspace } from "./person.ts";
import { personIn } from "./person.ts";

export interface NotificationRecord {
  id: string;
  workspaceId: string;
  rule: string;
  title: string;
  /** The dashboard page it opens. */
  path: string;
  data: Record<string, unknown>;
  createdAt: Date;
  readAt: Date | null;
}

const COLUMNS = Prisma.sql`n.id, n.workspace_id AS "workspaceId", n.rule, n.title, n.path, n.data, n.created_at AS "createdAt", n.read_at AS "readAt"`;

export const NOTIFICATIONS_ORDER: Order<NotificationRecord> = [
  { sql: "n.created_at", type: "timestamptz", desc: true, value: (n) => n.createdAt },
  { sql: "n.id", type: "uuid", desc: true, value: (n) => n.id },
];

const mine = (who: PersonInWorkspace, unread?: boolean) =>
  Prisma.sql`n.workspace_id = ${who.workspaceId}::uuid AND n.user_id = ${who.userId}::uuid ${unread ? Prisma.sql`AND n.read_at IS NULL` : Prisma.empty}`;

/**
 * A page of the person's notifications, how many the list holds and how many are unread, from one statement (one
 * snapshot): alerts arrive while the bell is read, and a notification written between separate statements made the
 * total or the unread count disagree with the page. Every door's list answers from it.
 */
export async function notificationsPage(
  who: PersonInWorkspace,
  page: PageRequest,
  unread?: boolean,
): Promise<{ items: NotificationRecord[]; total: number; unreadCount: number }> {
  const { items, total, also } = await pageAndTotal(NOTIFICATIONS_ORDER, page, {
    columns: COLUMNS,
    from: Prisma.sql`notifications n`,
    where: mine(who, unread),
    count: countSql(who, unread),
    alsoCount: { unread: countSql(who, true) },
  });
  return { items, total, unreadCount: also.unread! };
}

const countSql = (who: PersonInWorkspace, unread?: boolean) =>
  Prisma.sql`SELECT count(*)::int FROM notifications n WHERE ${mine(who, unread)}`;

export async function countNotifications(who: PersonInWorkspace, unread?: boolean): Promise<number> {
  const [row] = await sql<{ n: number }>(Prisma.sql`SELECT (${countSql(who, unread)}) AS n`);
  return row!.n;
}

export const unreadCount = (who: PersonInWorkspace) => countNotifications(who, true);

export async function notificationsByIds(who: PersonInWorkspace, ids: readonly string[]): Promise<NotificationRecord[]> {
  if (ids.length === 0) return [];
  return sql<NotificationRecord>(
    Prisma.sql`SELECT ${COLUMNS} FROM notifications n WHERE ${mine(who)} AND n.id = ANY(${ids as string[]}::uuid[]) ${orderBySql(NOTIFICATIONS_ORDER)}`,
  );
}

/** Marks the person's notifications read (the ids given, or all); answers how many were unread, and the count left. */
export async function markRead(actor: Actor, input: MarkReadInput): Promise<{ marked: number; unreadCount: number }> {
  const who = personIn(actor);
  const v = parseInput(markReadInput, input);
  const rows = await sql<{ id: string }>(Prisma.sql`
    UPDATE notifications n SET read_at = clock_timestamp()
     WHERE ${mine(who, true)} ${v.ids ? Prisma.sql`AND n.id = ANY(${v.ids}::uuid[])` : Prisma.empty}
    RETURNING n.id`);
  if (rows.length) await announceNotifications([who]);
  return { marked: rows.length, unreadCount: await unreadCount(who) };
}

/** After a commit that changed people's notifications: their bells read the count again. */
export async function announceNotifications(people: PersonInWorkspace[]): Promise<void> {
  const at = new Date().toISOString();
  await Promise.all(
    people.map((p) =>
      publishEvent("notificationsChanged", `${p.workspaceId}:${p.userId}`, { workspaceId: p.workspaceId, userId: p.userId, at }),
    ),
  );
}
