/** /settings/audit-log: the workspace's audit log (owners), docs/contract/decisions.md "People, sign-in and the dashboard". */
import { z } from "zod";
import { countAudit, listAudit, type AuditRecord } from "../../../domain/people/audit.js";
import { auditLogQuery } from "../../../domain/people/inputs.js";
import { defineRoute } from "../route.js";
import { iso, pagination, paginationSchema, queryParams, timestamp } from "../schemas.js";

const auditEntry = z
  .object({
    id: z.string(),
    at: timestamp,
    action: z.string().meta({
      description:
        "`api_key.created`, `api_key.revoked`, `webhook.created`, `webhook.deleted`, `member.added`, `member.role_changed`, `member.removed`, " +
        "`invitation.created`, `invitation.revoked`, `invitation.accepted`, `user.signed_in`, `user.sign_in_failed`, `session.revoked`.",
    }),
    actor: z.object({
      kind: z.enum(["user", "api_key", "system"]).meta({ description: "A signed-in person, an integration's API key, or the operator's CLI." }),
      id: z.string().nullable().meta({ description: "The user's or the key's id; null for `system`." }),
      label: z.string().meta({ description: "The person's email, the key's name, or what the system was." }),
    }),
    target: z.string().nullable().meta({ description: "What it acted on: a key's name, an email, a webhook's URL." }),
    ipAddress: z.string().nullable().meta({ description: "The client's address (as TRUST_PROXY lets the server see it)." }),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: "AuditEntry" });

const toEntry = (a: AuditRecord) => ({
  id: a.id,
  at: iso(a.at),
  action: a.action,
  actor: { kind: a.actorKind, id: a.actorId, label: a.actorLabel },
  target: a.target,
  ipAddress: a.ipAddress,
  details: a.details,
});

export const auditLogRoutes = [
  defineRoute({
    method: "get",
    path: "/settings/audit-log",
    summary: "The workspace's audit log",
    description:
      "Newest first. API keys created and revoked, webhook changes, member and invitation changes and sign-ins, each with who acted, when, " +
      "on what and from which client address. A sign-in is listed in every workspace of the person. Owners only (an API key acts as an owner; " +
      "members get 403 FORBIDDEN).",
    tags: ["Settings"],
    permission: "auditLog.read",
    query: queryParams(auditLogQuery),
    responses: { 200: { description: "A page of entries.", schema: z.object({ data: z.array(auditEntry), pagination: paginationSchema }) } },
    async handler({ auth, query }) {
      const [items, total] = await Promise.all([listAudit(auth.workspaceId, query), countAudit(auth.workspaceId)]);
      return { body: { data: items.map(toEntry), pagination: pagination(total, query.limit, query.offset) } };
    },
  }),
];
