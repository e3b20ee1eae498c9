/**
 * GraphQL for reaching people: the signed-in person's notifications (the bell) with their
 * unread count, live; their alert rules and weekly digest; the owners' credits alert threshold; and
 * leaving a workspace. Notifications belong to a person: with an API key these answer FORBIDDEN
 * (src/domain/notifications/person.ts).
 */
import { encodeGlobalID } from "@pothos/plugin-relay";
import { builder } from "../builder.ts";
import { countedConnection, entityId, nodeUuid } from "../connections.ts";
import { sharedPerEvent } from "../subscriptions.ts";
import { parseInput } from "../../../domain/shared/inputs.ts";
import { personIn } from "../../../domain/notifications/person.ts";
import { ALERT_RULES, RULE_LABELS, type AlertChoice, type AlertRule } from "../../../domain/notifications/rules.ts";
import { markReadInput, setAlertInput, setDigestInput } from "../../../domain/notifications/inputs.ts";
import {
  markRead,
  notificationsByIds,
  notificationsPage,
  NOTIFICATIONS_ORDER,
  unreadCount,
  type NotificationRecord,
} from "../../../domain/notifications/service.ts";
import {
  alertChoices,
  creditsAlertThreshold,
  digestChoice,
  setAlertChoice,
  setCreditsAlertThreshold,
  setDigestChoice,
  type DigestChoice,
} from "../../../domain/notifications/preferences.ts";
import { watchNotifications, type NotificationsState } from "../../../domain/notifications/watch.ts";
import { leaveWorkspace } from "../../../domain/people/members.ts";

/** `video.spike` → VIDEO_SPIKE */
const enumName = (rule: string) => rule.replace(/[.]/g, "_").toUpperCase();

const AlertRuleEnum = builder.enumType("AlertRule", {
  description: "An alert rule, named after the workspace event that feeds it (video.spike → VIDEO_SPIKE …).",
  values: Object.fromEntries(ALERT_RULES.map((rule) => [enumName(rule), { value: rule, description: RULE_LABELS[rule] }])) as Record<
    string,
    { value: AlertRule }
  >,
});

const NotificationRef = builder.loadableNodeRef("Notification", {
  id: { resolve: (n: NotificationRecord) => n.id, parse: nodeUuid },
  load: (ids: string[], ctx) => notificationsByIds(personIn(ctx.auth), ids),
  sort: (n) => n.id,
  cacheResolved: (n) => n.id,
});

NotificationRef.implement({
  description: "Something the signed-in person asked to be told about in the dashboard (their alert rules), in this workspace.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The notification's UUID (REST and MCP use it)." }),
    rule: t.field({ type: AlertRuleEnum, description: "The rule that made it.", resolve: (n) => n.rule as AlertRule }),
    title: t.exposeString("title", { description: "What happened, in words." }),
    path: t.exposeString("path", { description: "The dashboard page it is about (a path of the dashboard, e.g. /videos/<uuid>)." }),
    data: t.field({
      type: "JSONObject",
      description: "The event's payload (ids and what changed), as webhooks deliver it.",
      resolve: (n) => n.data,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was made." }),
    readAt: t.expose("readAt", { type: "DateTime", nullable: true, description: "When the person marked it read; null while unread." }),
  }),
});

const AlertRuleChoiceType = builder.objectRef<AlertChoice>("AlertRuleChoice").implement({
  description: "The person's choice for one alert rule in this workspace (without a choice: in the dashboard, no mail).",
  fields: (t) => ({
    id: t.id({
      description: "Names this person's choice for this rule in this workspace (stable: a client cache keeps one record per rule).",
      resolve: (c, _a, ctx) =>
        `AlertRuleChoice:${ctx.auth.workspaceId}:${ctx.auth.principal.kind === "user" ? ctx.auth.principal.id : "key"}:${c.rule}`,
    }),
    rule: t.field({ type: AlertRuleEnum, description: "The rule.", resolve: (c) => c.rule }),
    label: t.string({ description: "The rule in words.", resolve: (c) => RULE_LABELS[c.rule] }),
    inDashboard: t.exposeBoolean("inDashboard", { description: "Shown in the dashboard (the bell)." }),
    byMail: t.exposeBoolean("byMail", { description: "Sent by mail: at most one mail per 10 minutes for a burst, saying how many." }),
    minViewsPerHour: t.exposeInt("minViewsPerHour", {
      nullable: true,
      description: "VIDEO_SPIKE only: the least views per hour (last 24 hours) worth an alert; null: every spike.",
    }),
  }),
});

const DigestSettingsType = builder.objectRef<DigestChoice>("DigestSettings").implement({
  description: "The person's weekly digest of this workspace, sent at a local day and hour of their time zone.",
  fields: (t) => ({
    enabled: t.exposeBoolean("enabled", {
      description: "Whether it is sent (off until turned on; one-click unsubscribe in each digest turns it off).",
    }),
    weekday: t.exposeInt("weekday", { description: "Day of the week, local time: 0 Sunday … 6 Saturday." }),
    hour: t.exposeInt("hour", { description: "Hour of the day, local time (0-23)." }),
    timeZone: t.exposeString("timeZone", { description: "The person's IANA time zone (one for all their workspaces), default UTC." }),
  }),
});

const NotificationsStateType = builder.objectRef<NotificationsState>("NotificationsState").implement({
  description: "The state of the person's bell in this workspace.",
  fields: (t) => ({
    unreadCount: t.exposeInt("unreadCount", { description: "Notifications not yet marked read." }),
  }),
});

const MarkReadResultType = builder.objectRef<{ marked: number; unreadCount: number }>("MarkNotificationsReadResult").implement({
  description: "What markNotificationsRead did.",
  fields: (t) => ({
    marked: t.exposeInt("marked", { description: "How many unread notifications it marked read." }),
    unreadCount: t.exposeInt("unreadCount", { description: "Unread notifications left." }),
  }),
});

builder.queryFields((t) => ({
  notifications: t.connection(
    {
      type: NotificationRef,
      description: "The signed-in person's notifications in this workspace, newest first. FORBIDDEN with an API key.",
      args: { unread: t.arg.boolean({ description: "Only the unread ones." }) },
      resolve: (_r, args, ctx) => {
        const who = personIn(ctx.auth);
        const unread = args.unread ?? undefined;
        // The page and its total from one statement (`notificationsPage`), as REST and MCP read them.
        return countedConnection(args, NOTIFICATIONS_ORDER, (w) => notificationsPage(who, w, unread));
      },
    },
    { name: "NotificationConnection" },
    { name: "NotificationEdge" },
  ),
  unreadNotificationCount: t.int({
    nullable: true,
    description:
      "The signed-in person's unread notifications in the workspace the request acts on (the bell's number); null for a person in no " +
      "workspace. FORBIDDEN with an API key.",
    resolve: (_r, _a, ctx) => {
      if (!ctx.person) return unreadCount(personIn(ctx.auth));
      const current = ctx.person.current;
      return current ? unreadCount({ workspaceId: current.workspaceId, userId: ctx.person.person.id }) : null;
    },
  }),
  alertRules: t.field({
    type: [AlertRuleChoiceType],
    description: "Every alert rule with the signed-in person's choice in this workspace.",
    resolve: (_r, _a, ctx) => alertChoices(personIn(ctx.auth)),
  }),
  digestSettings: t.field({
    type: DigestSettingsType,
    description: "The signed-in person's weekly digest of this workspace.",
    resolve: (_r, _a, ctx) => digestChoice(personIn(ctx.auth)),
  }),
  creditsAlertThreshold: t.int({
    nullable: true,
    description:
      "Credits left below which CREDITS_LOW fires (set by owners); null: CREDITS_LOW_PERCENT of the monthly allowance (server setting).",
    resolve: (_r, _a, ctx) => creditsAlertThreshold(ctx.auth.workspaceId),
  }),
}));

builder.mutationFields((t) => ({
  markNotificationsRead: t.field({
    type: MarkReadResultType,
    description: "Marks the signed-in person's notifications read: `ids` (global IDs or UUIDs, at most 100), or `all: true`.",
    args: {
      ids: t.arg.idList({ description: "The notifications to mark read." }),
      all: t.arg.boolean({ description: "Every notification of the person in this workspace." }),
    },
    resolve: (_r, args, ctx) =>
      markRead(
        ctx.auth,
        parseInput(markReadInput, { ids: args.ids?.map((id) => entityId(id, "Notification", "ids")), all: args.all ?? undefined }),
      ),
  }),
  setAlertRule: t.field({
    type: AlertRuleChoiceType,
    description: "Sets how the signed-in person hears of one rule in this workspace: in the dashboard, by mail, both or neither.",
    args: {
      rule: t.arg({ type: AlertRuleEnum, required: true }),
      inDashboard: t.arg.boolean({ required: true }),
      byMail: t.arg.boolean({ required: true }),
      minViewsPerHour: t.arg.int({ description: "VIDEO_SPIKE only: the least views per hour worth an alert; null: every spike." }),
    },
    resolve: (_r, args, ctx) =>
      setAlertChoice(
        ctx.auth,
        parseInput(setAlertInput, {
          rule: args.rule,
          inDashboard: args.inDashboard,
          byMail: args.byMail,
          minViewsPerHour: args.minViewsPerHour ?? null,
        }),
      ),
  }),
  setDigestSettings: t.field({
    type: DigestSettingsType,
    description:
      "Turns the signed-in person's weekly digest of this workspace on or off and sets its local day and hour (and their time zone).",
    args: {
      enabled: t.arg.boolean({ required: true }),
      weekday: t.arg.int({ required: true, description: "0 Sunday … 6 Saturday." }),
      hour: t.arg.int({ required: true, description: "0-23, local time." }),
      timeZone: t.arg.string({ description: "An IANA time zone, e.g. Europe/Paris; absent: unchanged." }),
    },
    resolve: (_r, args, ctx) =>
      setDigestChoice(
        ctx.auth,
        parseInput(setDigestInput, { enabled: args.enabled, weekday: args.weekday, hour: args.hour, timeZone: args.timeZone ?? undefined }),
      ),
  }),
  setCreditsAlertThreshold: t.int({
    nullable: true,
    description: "Owners: the credits left below which CREDITS_LOW fires for this workspace; null goes back to the server's percentage.",
    args: { threshold: t.arg.int({ description: "Credits left; null: the server's CREDITS_LOW_PERCENT." }) },
    resolve: (_r, args, ctx) => setCreditsAlertThreshold(ctx.auth, args.threshold ?? null),
  }),
  leaveWorkspace: t.id({
    description:
      "The signed-in person leaves this workspace (LAST_OWNER for its last owner); answers their former Member's global ID. Audited.",
    resolve: async (_r, _a, ctx) => encodeGlobalID("Member", (await leaveWorkspace(ctx.auth)).id),
  }),
}));

builder.subscriptionFields((t) => ({
  notificationsChanged: t.field({
    type: NotificationsStateType,
    description: "The signed-in person's bell in this workspace: its state at once, then after every new notification or mark read.",
    subscribe: (_r, _a, ctx) => sharedPerEvent(ctx, watchNotifications(personIn(ctx.auth))),
    resolve: (state) => state,
  }),
}));
