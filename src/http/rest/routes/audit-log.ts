/** /settings/audit-log: the workspace's audit log (owners), docs/contract/decisions.md "People, sign-in and the dashboard". */
import { z } from "zod";
import { auditPage } from "../../../domain/actors/audit.ts";
import { auditLogQuery } from "../../../domain/people/inputs.ts";
import { defineRoute } from "../route.ts";
import { queryParams } from "../schemas.ts";
import { pagination, paginationSchema } from "../../records/common.ts";
import { auditEntry, toAuditEntry } from "../../../domain/actors/records.ts";

export const auditLogRoutes = [
  defineRoute({
    method: "get",
    path: "/settings/audit-log",
    operationId: "listAuditLog",
    exportAs: { kind: "audit_log" },
    summary: "The workspace's audit log",
    description:
      "Newest first. API keys created and revoked, webhook changes, member and invitation changes and sign-ins, each with who acted, when, " +
      "on what and from which client address. A sign-in is listed in every workspace of the person. Owners only (an API key acts as an owner; " +
      "members get 403 FORBIDDEN).",
    tags: ["Settings"],
    permission: "auditLog.read",
    query: queryParams(auditLogQuery),
    responses: {
      200: { description: "A page of entries.", schema: z.object({ data: z.array(auditEntry), pagination: paginationSchema }) },
    },
    async handler({ auth, query }) {
      const { items, total } = await auditPage(auth.workspaceId, query);
      return { body: { data: items.map(toAuditEntry), pagination: pagination(total, query.limit, query.offset) } };
    },
  }),
];
