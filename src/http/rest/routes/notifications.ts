/**
 * /notifications: the signed-in person's in-dashboard notifications in this workspace:
 * read them and mark them read. They belong to a person: an API key is answered 403 FORBIDDEN
 * (sign in; the dashboard and GraphQL's `notifications` read the same).
 */
import { z } from "zod";
import { markRead, notificationsPage } from "../../../domain/notifications/service.ts";
import { listNotificationsQuery, markReadInput } from "../../../domain/notifications/inputs.ts";
import { personIn } from "../../../domain/notifications/person.ts";
import { defineRoute } from "../route.ts";
import { queryParams } from "../schemas.ts";
import { pagination, paginationSchema } from "../../records/common.ts";
import { notificationItem, notificationItemOf } from "../../records/notifications.ts";

const PERSON_ONLY = "Notifications belong to a person: with a session cookie (the dashboard's) only; an API key is answered 403 FORBIDDEN.";

export const notificationRoutes = [
  defineRoute({
    method: "get",
    path: "/notifications",
    operationId: "listNotifications",
    summary: "List the signed-in person's notifications",
    description: `Newest first, in the workspace the request acts on; \`unread=true\` for the unread ones only. ${PERSON_ONLY}`,
    tags: ["Notifications"],
    query: queryParams(listNotificationsQuery),
    errors: ["FORBIDDEN"],
    responses: {
      200: {
        description: "A page of notifications, with the unread count.",
        schema: z.object({ data: z.array(notificationItem), pagination: paginationSchema, unreadCount: z.number().int() }),
      },
    },
    async handler({ auth, query }) {
      const who = personIn(auth);
      const { items, total, unreadCount } = await notificationsPage(who, { limit: query.limit, offset: query.offset }, query.unread);
      return { body: { data: items.map(notificationItemOf), pagination: pagination(total, query.limit, query.offset), unreadCount } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/notifications/read",
    operationId: "markNotificationsRead",
    summary: "Mark notifications read",
    description: `Body \`{ids: [uuid]}\` (at most 100) or \`{all: true}\`; ids of other people or workspaces are ignored. ${PERSON_ONLY}`,
    tags: ["Notifications"],
    body: markReadInput,
    errors: ["FORBIDDEN"],
    responses: {
      200: {
        description: "How many were marked, and how many stay unread.",
        schema: z.object({ data: z.object({ marked: z.number().int(), unreadCount: z.number().int() }), message: z.string() }),
      },
    },
    async handler({ auth, body }) {
      const result = await markRead(auth, body);
      return { body: { data: result, message: `${result.marked} notification${result.marked === 1 ? "" : "s"} marked read.` } };
    },
  }),
];
