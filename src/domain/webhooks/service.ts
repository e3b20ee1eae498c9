/**
 * Webhook endpoints of a workspace: create (the signing secret shown once), list, read, delete, the
 * delivery log, and test events. Every function is scoped by the workspace: another workspace's
 * endpoint is NOT_FOUND, like an unknown id. docs/contract/decisions.md (Webhooks), docs/webhooks.md.
 */
import { randomUUID } from "node:crypto";
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql } from "../../infra/db.ts";
import { DomainError, notFound } from "../shared/errors.ts";
import { pageSql, type Order, type PageRequest, type Page } from "../shared/pages.ts";
import type { WorkspaceEventType } from "../shared/workspace-events.ts";
import { MAX_WEBHOOKS, type CreateWebhookInput } from "./inputs.ts";
import { emitToEndpoint } from "./outbox.ts";
import { encryptSecret, encryptionConfigured, newSecret, notConfigured } from "./secrets.ts";
import { OPERATOR, type Acting } from "../actors/actor.ts";
import { recordAudit } from "../actors/audit.ts";

export interface WebhookRecord {
  id: string;
  url: string;
  events: WorkspaceEventType[];
  description: string;
  createdAt: Date;
  /** First failed attempt since the last successful delivery (null while healthy). */
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  event: WorkspaceEventType;
  status: DeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

const WEBHOOK_COLUMNS = Prisma.raw(`w.id, w.url, w.events, w.description, w.created_at AS "createdAt", w.failing_since AS "failingSince",
  w.disabled_at AS "disabledAt", w.disabled_reason AS "disabledReason"`);

const DELIVERY_COLUMNS =
  Prisma.raw(`d.id, d.endpoint_id AS "webhookId", d.event_id AS "eventId", ev.type AS event, d.status::text AS status, d.attempts,
  d.response_status AS "responseStatus", d.last_error AS "lastError", d.next_attempt_at AS "nextAttemptAt", d.created_at AS "createdAt", d.delivered_at AS "deliveredAt"`);

/** Newest first, ties by id (index webhook_endpoints (workspace_id, created_at DESC, id)). */
export const WEBHOOKS_ORDER: Order<WebhookRecord> = [
  { sql: "w.created_at", type: "timestamptz", desc: true, value: (w) => w.createdAt },
  { sql: "w.id", type: "uuid", desc: true, value: (w) => w.id },
];

/** An endpoint's deliveries, newest first (index webhook_deliveries (endpoint_id, created_at DESC, id DESC)). */
export const DELIVERIES_ORDER: Order<DeliveryRecord> = [
  { sql: "d.created_at", type: "timestamptz", desc: true, value: (d) => d.createdAt },
  { sql: "d.id", type: "uuid", desc: true, value: (d) => d.id },
];

/**
 * Creates an endpoint and answers it with its signing secret (shown this once; stored encrypted).
 * At most MAX_WEBHOOKS per workspace: the workspace's creations are serialised by an advisory lock
 * and each endpoint takes a free slot (unique per workspace), so even concurrent requests never
 * make an 11th. Recorded in the audit log as done `by` the caller.
 */
export async function createWebhook(
  workspaceId: string,
  input: CreateWebhookInput,
  by: Acting = OPERATOR,
): Promise<{ webhook: WebhookRecord; secret: string }> {
  if (!encryptionConfigured()) throw notConfigured();
  const id = randomUUID();
  const secret = newSecret();
  const cipher = encryptSecret(secret, id);
  const webhook = await prisma.$transaction(async (tx) => {
    await sql(Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${`webhooks:${workspaceId}`}, 0)) IS NULL AS locked`, { tx });
    const [row] = await sql<WebhookRecord>(
      Prisma.sql`
      INSERT INTO webhook_endpoints AS w (id, workspace_id, slot, url, events, description, secret_cipher)
      SELECT ${id}::uuid, ${workspaceId}::uuid, s, ${input.url}, ${input.events}::text[], ${input.description ?? ""}, ${cipher}
        FROM generate_series(1, ${MAX_WEBHOOKS}::int) s
       WHERE s NOT IN (SELECT slot FROM webhook_endpoints WHERE workspace_id = ${workspaceId}::uuid)
       ORDER BY s LIMIT 1
      RETURNING ${WEBHOOK_COLUMNS}`,
      { tx },
    );
    if (!row) throw new DomainError("WEBHOOK_LIMIT_REACHED", `A workspace has at most ${MAX_WEBHOOKS} webhooks; delete one first.`);
    await recordAudit(
      { workspaceIds: [workspaceId], by, action: "webhook.created", target: row.url, details: { webhookId: row.id, events: row.events } },
      tx,
    );
    return row;
  });
  return { webhook, secret };
}

/** A page of the workspace's endpoints (WEBHOOKS_ORDER), with the total. */
export async function listWebhooks(workspaceId: string, page: PageRequest): Promise<Page<WebhookRecord>> {
  const p = pageSql(WEBHOOKS_ORDER, page);
  const [items, [count]] = await Promise.all([
    sql<WebhookRecord>(
      Prisma.sql`SELECT ${WEBHOOK_COLUMNS} FROM webhook_endpoints w WHERE w.workspace_id = ${workspaceId}::uuid ${p.where} ${p.orderBy} ${p.limit}`,
    ),
    sql<{ n: number }>(Prisma.sql`SELECT count(*) AS n FROM webhook_endpoints WHERE workspace_id = ${workspaceId}::uuid`),
  ]);
  return { items, total: count!.n };
}

/** Endpoints of the workspace by id, in any order; other ids are left out. */
export async function webhooksByIds(workspaceId: string, ids: readonly string[]): Promise<WebhookRecord[]> {
  if (ids.length === 0) return [];
  return sql<WebhookRecord>(
    Prisma.sql`SELECT ${WEBHOOK_COLUMNS} FROM webhook_endpoints w WHERE w.workspace_id = ${workspaceId}::uuid AND w.id = ANY(${ids as string[]}::uuid[])`,
  );
}

/** The endpoint if it belongs to the workspace, else NOT_FOUND. */
export async function getWebhook(workspaceId: string, webhookId: string): Promise<WebhookRecord> {
  const [w] = await webhooksByIds(workspaceId, [webhookId]);
  if (!w) throw notFound("Webhook");
  return w;
}

/** Deletes the endpoint with its delivery log; its pending deliveries are not sent any more. Audited as done `by` the caller. */
export async function deleteWebhook(workspaceId: string, webhookId: string, by: Acting = OPERATOR): Promise<{ id: string }> {
  const [deleted] = await sql<{ url: string }>(
    Prisma.sql`DELETE FROM webhook_endpoints WHERE id = ${webhookId}::uuid AND workspace_id = ${workspaceId}::uuid RETURNING url`,
  );
  if (!deleted) throw notFound("Webhook");
  await recordAudit({ workspaceIds: [workspaceId], by, action: "webhook.deleted", target: deleted.url, details: { webhookId } });
  return { id: webhookId };
}

/** A page of the endpoint's deliveries, newest first, with the total (NOT_FOUND for another workspace's endpoint). */
export async function listDeliveries(workspaceId: string, webhookId: string, page: PageRequest): Promise<Page<DeliveryRecord>> {
  await getWebhook(workspaceId, webhookId);
  const p = pageSql(DELIVERIES_ORDER, page);
  const [items, [count]] = await Promise.all([
    sql<DeliveryRecord>(Prisma.sql`
      SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN workspace_events ev ON ev.id = d.event_id
       WHERE d.endpoint_id = ${webhookId}::uuid ${p.where} ${p.orderBy} ${p.limit}`),
    sql<{ n: number }>(Prisma.sql`SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ${webhookId}::uuid`),
  ]);
  return { items, total: count!.n };
}

/** Deliveries of the workspace's endpoints by id (GraphQL nodes). */
export async function deliveriesByIds(workspaceId: string, ids: readonly string[]): Promise<DeliveryRecord[]> {
  if (ids.length === 0) return [];
  return sql<DeliveryRecord>(Prisma.sql`
    SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
      JOIN workspace_events ev ON ev.id = d.event_id
      JOIN webhook_endpoints w ON w.id = d.endpoint_id
     WHERE w.workspace_id = ${workspaceId}::uuid AND d.id = ANY(${ids as string[]}::uuid[])`);
}

/**
 * Sends a `webhook.test` event to this endpoint now (whatever its subscriptions, even when it is
 * disabled: a successful test enables it again). Answers the delivery, `pending`.
 */
export async function sendTestEvent(workspaceId: string, webhookId: string): Promise<DeliveryRecord> {
  const deliveryId = await emitToEndpoint({
    workspaceId,
    endpointId: webhookId,
    type: "webhook.test",
    data: { webhookId: webhookId.toLowerCase(), message: "A test event, sent on request (POST /webhooks/{id}/test)." },
  });
  const [delivery] = deliveryId ? await deliveriesByIds(workspaceId, [deliveryId]) : [];
  if (!delivery) throw notFound("Webhook");
  return delivery;
}
