/**
 * The notifications' MCP tools: a person's notifications (as REST /notifications).
 */
import { pagination } from "../../records/common.ts";
import { listNotificationsQuery, markReadInput } from "../../../domain/notifications/inputs.ts";
import { markRead, notificationsPage } from "../../../domain/notifications/service.ts";
import { personIn } from "../../../domain/notifications/person.ts";
import { notificationItemOf } from "../../records/notifications.ts";
import { READ, defineTool, type AnyTool } from "../tool.ts";

export const notificationTools: AnyTool[] = [
  defineTool({
    name: "list_notifications",
    title: "Read the person's notifications",
    description:
      "The signed-in person's notifications in this workspace (video spikes, new videos of tracked accounts, analyses and radar " +
      "searches finished, credits low: as their alert rules chose), newest first, with `unreadCount`. Needs a person's session " +
      "(FORBIDDEN with an API key: notifications belong to a person). Free.",
    input: listNotificationsQuery,
    annotations: READ,
    run: async ({ auth }, input) => {
      const who = personIn(auth);
      const { items, total, unreadCount } = await notificationsPage(who, { limit: input.limit, offset: input.offset }, input.unread);
      return { data: items.map(notificationItemOf), pagination: pagination(total, input.limit, input.offset), unreadCount };
    },
  }),
  defineTool({
    name: "mark_notifications_read",
    title: "Mark notifications read",
    description:
      "Marks the person's notifications read: `ids` (from list_notifications, at most 100) or `all: true`. Needs a person's session. Free.",
    input: markReadInput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async ({ auth }, input) => ({ data: await markRead(auth, input) }),
  }),
];
