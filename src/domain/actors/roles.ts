/**
 * The role rule, written once (docs/contract/decisions.md, "People, sign-in and the dashboard"):
 * owners manage API keys, webhooks, members and invitations and read the audit log; members track,
 * organise, analyse and search (they may spend credits). Every door asks `authorize` before an
 * owner-only operation: REST (a route's `permission`, src/http/rest/router.ts), GraphQL (its
 * resolvers and the loaders of owner-only nodes, over HTTP, graphql-ws and SSE) and MCP. A member
 * asking is refused with 403 FORBIDDEN; an API key acts as an owner.
 *
 * Only what is closed to members is listed: everything else a workspace can do is open to every
 * member of it (tenancy, the workspace itself, is checked before any of this by the actor step).
 */
import { DomainError } from "../shared/errors.ts";
import type { Actor, WorkspaceRole } from "./actor.ts";

export const PERMISSIONS = {
  "apiKeys.manage": "list, create and revoke the workspace's API keys",
  "webhooks.manage": "list, create, test and delete webhook endpoints and read their delivery log",
  "members.manage": "invite people, revoke invitations, change members' roles and remove members",
  "auditLog.read": "read the audit log",
  "alerts.manage": "set the workspace's credits alert threshold",
  "campaigns.manage": "create, change and close campaigns (their members, videos, payout rules and budgets)",
  "reports.manage": "make, list and revoke folders' share links and schedule, change and delete folders' reports",
  "payouts.change":
    "change what an active campaign pays: tag or untag a video with its tag, delete that tag, stop tracking a video it may pay for, or change the accounts, name or contact of one of its payees",
} as const;

export type Permission = keyof typeof PERMISSIONS;

const GRANTED: Record<WorkspaceRole, ReadonlySet<Permission>> = {
  owner: new Set(Object.keys(PERMISSIONS) as Permission[]),
  member: new Set(),
};

export function may(role: WorkspaceRole, permission: Permission): boolean {
  return GRANTED[role].has(permission);
}

/** Throws 403 FORBIDDEN unless the actor's role grants the permission. */
export function authorize(actor: Pick<Actor, "role">, permission: Permission): void {
  if (!may(actor.role, permission)) {
    throw new DomainError("FORBIDDEN", `Only owners of the workspace may ${PERMISSIONS[permission]}; you are a member.`);
  }
}
