/**
 * GraphQL for people (docs/contract/decisions.md, "People, sign-in and the dashboard"): the signed-in
 * viewer and their workspaces and sessions, the workspace's members, invitations and audit log.
 * Owner-only operations ask the role rule (src/domain/actors/roles.ts): FORBIDDEN for members.
 * Sign-up, sign-in and sign-out are the /auth routes (src/http/auth/routes.ts), not GraphQL.
 */
import { encodeGlobalID } from "@pothos/plugin-relay";
import { builder, type GraphQLContext } from "../builder.ts";
import { countedConnection, entityId, nodeUuid } from "../connections.ts";
import { parseInput } from "../../../domain/shared/inputs.ts";
import { DomainError } from "../../../domain/shared/errors.ts";
import { authorize } from "../../../domain/actors/roles.ts";
import { createInvitationInput, workspaceRole } from "../../../domain/people/inputs.ts";
import { AUDIT_ORDER, auditActionsInWords, auditByIds, auditPage, type AuditRecord } from "../../../domain/actors/audit.ts";
import {
  changeMemberRole,
  membersPage,
  membersByIds,
  MEMBERS_ORDER,
  removeMember,
  type MemberRecord,
  type MembershipRecord,
} from "../../../domain/people/members.ts";
import {
  acceptInvitation,
  createInvitation,
  INVITATIONS_ORDER,
  invitationsByIds,
  invitationsPage,
  previewInvitation,
  revokeInvitation,
  type InvitationPreview,
  type InvitationRecord,
} from "../../../domain/people/invitations.ts";
import { listSessions, revokeSession, selectWorkspace, type PersonContext, type SessionRecord } from "../../../domain/people/sessions.ts";

const WorkspaceRoleEnum = builder.enumType("WorkspaceRole", {
  description:
    "OWNER: manages API keys, webhooks, members and invitations, reads the audit log. MEMBER: tracks, organises, analyses and searches.",
  values: { OWNER: { value: "owner" }, MEMBER: { value: "member" } } as const,
});

/** The signed-in person of the request; FORBIDDEN for an API key (keys act for a workspace, not a person). */
function personOf(ctx: GraphQLContext): PersonContext {
  if (!ctx.person)
    throw new DomainError("FORBIDDEN", "This operation is for a signed-in person; an API key acts on its own workspace only.");
  return ctx.person;
}

const ViewerWorkspace = builder.objectRef<MembershipRecord>("ViewerWorkspace").implement({
  description: "A workspace the viewer belongs to, with their role in it.",
  fields: (t) => ({
    id: t.id({
      description: "The Workspace's global ID (send it, or uuid, as the `x-workspace-id` header to act on this workspace).",
      resolve: (m) => encodeGlobalID("Workspace", m.workspaceId),
    }),
    uuid: t.id({ resolve: (m) => m.workspaceId }),
    name: t.string({ resolve: (m) => m.workspaceName }),
    role: t.field({ type: WorkspaceRoleEnum, resolve: (m) => m.role }),
  }),
});

const SessionType = builder.objectRef<SessionRecord & { current: boolean }>("Session").implement({
  description:
    "A signed-in session of the viewer. It expires after 7 days without use, and 30 days after sign-in at the latest; revokeSession (or " +
    "POST /auth/sign-out from it) ends it and closes its live subscriptions.",
  fields: (t) => ({
    id: t.exposeID("id"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
    lastActiveAt: t.expose("lastActiveAt", { type: "DateTime", nullable: true, description: "When it was last used (to the hour)." }),
    ipAddress: t.exposeString("ipAddress", { nullable: true }),
    userAgent: t.exposeString("userAgent", { nullable: true }),
    current: t.exposeBoolean("current", { description: "The session of this request." }),
  }),
});

const Viewer = builder.objectRef<PersonContext>("Viewer").implement({
  description: "The signed-in person (null for a request made with an API key).",
  fields: (t) => ({
    id: t.id({ description: "The person's user id.", resolve: (p) => p.person.id }),
    email: t.string({ resolve: (p) => p.person.email }),
    name: t.string({ resolve: (p) => p.person.name }),
    workspaces: t.field({
      type: [ViewerWorkspace],
      description: "Every workspace the person belongs to, oldest membership first.",
      resolve: (p) => p.memberships,
    }),
    currentWorkspace: t.field({
      type: ViewerWorkspace,
      nullable: true,
      description:
        "The workspace this request acts on: `x-workspace-id`, else the session's last chosen one (selectWorkspace), else the oldest.",
      resolve: (p) => p.current,
    }),
    sessions: t.field({
      type: [SessionType],
      description: "The person's live sessions, newest first.",
      resolve: async (p) => (await listSessions(p.person.id)).map((s) => ({ ...s, current: s.id === p.sessionId })),
    }),
  }),
});

const MemberRef = builder.loadableNodeRef("Member", {
  id: { resolve: (m: MemberRecord) => m.id, parse: nodeUuid },
  load: (ids: string[], ctx) => membersByIds(ctx.auth.workspaceId, ids),
  sort: (m) => m.id,
  cacheResolved: (m) => m.id,
});

MemberRef.implement({
  description: "A person's membership of the workspace.",
  fields: (t) => ({
    uuid: t.exposeID("id", { description: "The membership's UUID." }),
    userId: t.exposeID("userId"),
    email: t.exposeString("email"),
    name: t.exposeString("name"),
    role: t.field({ type: WorkspaceRoleEnum, resolve: (m) => m.role }),
    joinedAt: t.expose("joinedAt", { type: "DateTime" }),
  }),
});

const InvitationStatusEnum = builder.enumType("InvitationStatus", {
  values: {
    PENDING: { value: "pending", description: "Its link works until expiresAt." },
    ACCEPTED: { value: "accepted", description: "Used (an invitation is single-use)." },
    REVOKED: { value: "revoked" },
    EXPIRED: { value: "expired", description: "7 days passed." },
  } as const,
});

const InvitationRef = builder.loadableNodeRef("Invitation", {
  id: { resolve: (i: InvitationRecord) => i.id, parse: nodeUuid },
  load: (ids: string[], ctx) => {
    authorize(ctx.auth, "members.manage");
    return invitationsByIds(ctx.auth.workspaceId, ids);
  },
  sort: (i) => i.id,
  cacheResolved: (i) => i.id,
});

InvitationRef.implement({
  description: "An invitation to join the workspace with a role. Owners only.",
  fields: (t) => ({
    uuid: t.exposeID("id"),
    email: t.exposeString("email"),
    role: t.field({ type: WorkspaceRoleEnum, resolve: (i) => i.role }),
    status: t.field({ type: InvitationStatusEnum, resolve: (i) => i.status }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
    invitedBy: t.exposeString("invitedBy", {
      nullable: true,
      description: "Who invited: a person's email, an API key's name, or the CLI.",
    }),
  }),
});

const CreatedInvitation = builder
  .objectRef<{ invitation: InvitationRecord; token: string; acceptUrl: string }>("CreatedInvitation")
  .implement({
    fields: (t) => ({
      invitation: t.field({ type: InvitationRef, resolve: (c) => c.invitation }),
      token: t.exposeString("token", { description: "The invitation's single-use token, shown this once only." }),
      acceptUrl: t.exposeString("acceptUrl", {
        description: "The dashboard link that accepts it (`/accept-invitation?token=…`), to send to the person.",
      }),
    }),
  });

const InvitationPreviewType = builder.objectRef<InvitationPreview>("InvitationPreview").implement({
  description: "What an invitation's link opens, for its accept page.",
  fields: (t) => ({
    email: t.exposeString("email"),
    role: t.field({ type: WorkspaceRoleEnum, resolve: (i) => i.role }),
    workspaceName: t.exposeString("workspaceName"),
    status: t.field({ type: InvitationStatusEnum, resolve: (i) => i.status }),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
  }),
});

const AuditActorKindEnum = builder.enumType("AuditActorKind", {
  values: {
    USER: { value: "user", description: "A signed-in person." },
    API_KEY: { value: "api_key", description: "An integration's API key." },
    SYSTEM: { value: "system", description: "The operator's CLI, or the service itself." },
  } as const,
});

const AuditActor = builder.objectRef<AuditRecord>("AuditActor").implement({
  fields: (t) => ({
    kind: t.field({ type: AuditActorKindEnum, resolve: (a) => a.actorKind }),
    id: t.id({ nullable: true, description: "The user's or API key's UUID (null for SYSTEM).", resolve: (a) => a.actorId }),
    label: t.string({ description: "The person's email, the key's name, or what the system was.", resolve: (a) => a.actorLabel }),
  }),
});

const AuditEntryRef = builder.loadableNodeRef("AuditEntry", {
  id: { resolve: (a: AuditRecord) => a.id, parse: nodeUuid },
  load: (ids: string[], ctx) => {
    authorize(ctx.auth, "auditLog.read");
    return auditByIds(ctx.auth.workspaceId, ids);
  },
  sort: (a) => a.id,
  cacheResolved: (a) => a.id,
});

AuditEntryRef.implement({
  description: `One recorded action: ${auditActionsInWords()}.`,
  fields: (t) => ({
    uuid: t.exposeID("id"),
    at: t.expose("at", { type: "DateTime" }),
    action: t.exposeString("action"),
    actor: t.field({ type: AuditActor, resolve: (a) => a }),
    target: t.exposeString("target", { nullable: true, description: "What it acted on: a key's name, an email, a webhook's URL." }),
    ipAddress: t.exposeString("ipAddress", { nullable: true, description: "The client's address." }),
    details: t.field({ type: "JSON", nullable: true, resolve: (a) => a.details }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: Viewer,
    nullable: true,
    description: "The signed-in person; null for a request made with an API key.",
    resolve: (_r, _a, ctx) => ctx.person,
  }),
  members: t.connection(
    {
      type: MemberRef,
      description: "The workspace's members, oldest first. Any member may read them.",
      resolve: (_r, args, ctx) => countedConnection(args, MEMBERS_ORDER, (w) => membersPage(ctx.auth.workspaceId, w)),
    },
    { name: "MemberConnection" },
    { name: "MemberEdge" },
  ),
  invitations: t.connection(
    {
      type: InvitationRef,
      description: "The workspace's invitations (every status), newest first. Owners only.",
      resolve: (_r, args, ctx) => {
        authorize(ctx.auth, "members.manage");
        return countedConnection(args, INVITATIONS_ORDER, (w) => invitationsPage(ctx.auth.workspaceId, w));
      },
    },
    { name: "InvitationConnection" },
    { name: "InvitationEdge" },
  ),
  auditLog: t.connection(
    {
      type: AuditEntryRef,
      description: "The workspace's audit log, newest first. Owners only.",
      resolve: (_r, args, ctx) => {
        authorize(ctx.auth, "auditLog.read");
        // The page and its total from one statement (`auditPage`), as REST reads them: they agree while entries are written.
        return countedConnection(args, AUDIT_ORDER, (w) => auditPage(ctx.auth.workspaceId, w));
      },
    },
    { name: "AuditEntryConnection" },
    { name: "AuditEntryEdge" },
  ),
  invitation: t.field({
    type: InvitationPreviewType,
    nullable: true,
    description:
      "What an invitation's token opens (null when it opens none), for the accept page. Needs no sign-in: without a session or key, send " +
      "the token also as the `x-invitation-token` header.",
    args: { token: t.arg.string({ required: true }) },
    resolve: (_r, args) => previewInvitation(args.token),
  }),
}));

builder.mutationFields((t) => ({
  selectWorkspace: t.field({
    type: Viewer,
    description:
      "Remembers the workspace the session acts on when a request sends no `x-workspace-id` (NOT_FOUND for a workspace the viewer is not in).",
    args: { id: t.arg.id({ required: true, description: "The Workspace's global ID or UUID." }) },
    resolve: async (_r, args, ctx) => {
      const person = personOf(ctx);
      const current = await selectWorkspace(person, entityId(args.id, "Workspace", "id"));
      return { ...person, current };
    },
  }),
  createInvitation: t.field({
    type: CreatedInvitation,
    description:
      "Invites an email to the workspace with a role; the token (in acceptUrl) is shown this once, single-use, valid 7 days. Owners only; " +
      "ALREADY_MEMBER when the person already belongs. Audited.",
    args: { email: t.arg.string({ required: true }), role: t.arg({ type: WorkspaceRoleEnum, required: true }) },
    resolve: (_r, args, ctx) => createInvitation(ctx.auth, parseInput(createInvitationInput, { email: args.email, role: args.role })),
  }),
  revokeInvitation: t.field({
    type: InvitationRef,
    description: "Revokes a pending invitation: its link stops working. Owners only; INVITATION_NOT_PENDING once accepted. Audited.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => revokeInvitation(ctx.auth, entityId(args.id, "Invitation", "id")),
  }),
  acceptInvitation: t.field({
    type: ViewerWorkspace,
    description:
      "The signed-in viewer joins the invitation's workspace with its role (the invitation must be for their email: FORBIDDEN otherwise; " +
      "INVITATION_NOT_PENDING when used, revoked or expired). Someone without an account signs up with the token instead (POST /auth/sign-up/email).",
    args: { token: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => acceptInvitation(personOf(ctx).person, args.token, ctx.clientAddress),
  }),
  changeMemberRole: t.field({
    type: MemberRef,
    description: "Sets a member's role. Owners only; LAST_OWNER when it would leave the workspace without an owner. Audited.",
    args: { id: t.arg.id({ required: true }), role: t.arg({ type: WorkspaceRoleEnum, required: true }) },
    resolve: (_r, args, ctx) => changeMemberRole(ctx.auth, entityId(args.id, "Member", "id"), parseInput(workspaceRole, args.role, "role")),
  }),
  removeMember: t.id({
    description:
      "Removes a member from the workspace; answers the Member's global ID. Their live subscriptions on this workspace end within seconds. " +
      "Owners only; LAST_OWNER for the last owner. Audited.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => encodeGlobalID("Member", (await removeMember(ctx.auth, entityId(args.id, "Member", "id"))).id),
  }),
  revokeSession: t.id({
    description:
      "Ends one of the viewer's own sessions (NOT_FOUND for any other); its live subscriptions end within seconds. Answers its id.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => revokeSession(personOf(ctx), entityId(args.id, "Session", "id"), ctx.clientAddress),
  }),
}));
