/**
 * Audit entries as REST /settings/audit-log lists them and the `audit_log` export writes them: schema
 * and mapper (in the domain, which writes the export: src/domain/exports/).
 */
import { z } from "zod";
import { auditActionsInWords, type AuditRecord } from "./audit.ts";
import { iso, timestamp } from "../shared/records.ts";

export const auditEntry = z
  .object({
    id: z.string(),
    at: timestamp,
    action: z.string().meta({ description: `What was done: ${auditActionsInWords()}.` }),
    actor: z.object({
      kind: z
        .enum(["user", "api_key", "system"])
        .meta({ description: "A signed-in person, an integration's API key, or the operator's CLI." }),
      id: z.string().nullable().meta({ description: "The user's or the key's id; null for `system`." }),
      label: z.string().meta({ description: "The person's email, the key's name, or what the system was." }),
    }),
    target: z.string().nullable().meta({ description: "What it acted on: a key's name, an email, a webhook's URL." }),
    ipAddress: z.string().nullable().meta({ description: "The client's address (as TRUST_PROXY lets the server see it)." }),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: "AuditEntry" });

export const toAuditEntry = (a: AuditRecord) => ({
  id: a.id,
  at: iso(a.at),
  action: a.action,
  actor: { kind: a.actorKind, id: a.actorId, label: a.actorLabel },
  target: a.target,
  ipAddress: a.ipAddress,
  details: a.details,
});
