/**
 * The workspace events outbox: one source for both transports (GraphQL subscriptions and webhooks).
 *
 * 1. `recordWorkspaceEvents` writes the events in the transaction of the change they report (analysis
 *    settled, radar search finished, credits charged, an account scrape's videos tracked:
 *    `account.video_discovered`), or `workspaceEventsInsertSql` as a part of the change's own statement
 *    (a stored scrape's `video.spike`), so a change is never committed without its events.
 * 2. `relayWorkspaceEvents`, after the commit, claims them (`relayed_at`, a compare-and-set, so each event is
 *    relayed once by one process) and, in the same statement, creates one delivery per matching
 *    endpoint (`ON CONFLICT DO NOTHING` on (endpoint, event)); then publishes each event on the
 *    workspace's channel (GraphQL), queues the deliveries' first attempts and the notifications
 *    consumer's job (people's bells and alert mails: src/domain/notifications/consume.ts, which
 *    sweeps what it missed itself).
 * 3. The sweep (every WEBHOOK_SWEEP_INTERVAL_MS) relays whatever no process relayed (a process that
 *    died between its commit and its relay; events recorded inside another area's transaction that
 *    relays nothing itself, e.g. `credits.low`) and re-enqueues pending deliveries whose job was lost.
 *
 * So an event committed with its change is never lost for webhooks; GraphQL subscribers, who read
 * the current state first anyway, get it at most once.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql, sqlExec, type Tx } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { publishEvent, subscribeEvents } from "../shared/events.ts";
import type { WorkspaceEvent, WorkspaceEventType } from "../shared/workspace-events.ts";
import { enqueueDeliveries } from "./jobs.ts";
import { enqueueNotify } from "../mail/jobs.ts";

export interface NewWorkspaceEvent {
  workspaceId: string;
  type: WorkspaceEventType;
  data: Record<string, unknown>;
  /** Only this endpoint receives it (webhook.test), whatever its subscriptions or state. */
  endpointId?: string;
}

/** Writes events (in `tx` when given); answers their ids, for `relayWorkspaceEvents` after the commit. */
export async function recordWorkspaceEvents(events: NewWorkspaceEvent[], tx?: Tx): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = await sql<{ id: string }>(
    Prisma.sql`
    INSERT INTO workspace_events (workspace_id, type, data, endpoint_id)
    SELECT w, t, d::jsonb, e
      FROM unnest(${events.map((e) => e.workspaceId)}::uuid[], ${events.map((e) => e.type)}::text[],
                  ${events.map((e) => JSON.stringify(e.data))}::text[], ${events.map((e) => e.endpointId ?? null)}::uuid[]) AS x(w, t, d, e)
    RETURNING id`,
    { tx },
  );
  return rows.map((r) => r.id);
}

/**
 * The outbox's insert as a part (a CTE body) of the statement of the change it reports: `rows` selects
 * (workspace_id, type, data jsonb). RETURNING id, for `relayWorkspaceEvents` after the commit.
 */
export function workspaceEventsInsertSql(rows: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`INSERT INTO workspace_events (workspace_id, type, data) ${rows} RETURNING id`;
}

interface RelayedRow {
  id: string;
  workspaceId: string;
  type: WorkspaceEventType;
  data: Record<string, unknown>;
  createdAt: Date;
  deliveryIds: string[];
}

/** Claims events (by id, or the oldest unrelayed ones) and fans them out to deliveries, in one statement. */
function claimAndFanOut(which: Prisma.Sql, limit: number) {
  return sql<RelayedRow>(Prisma.sql`
    WITH ev AS (
      UPDATE workspace_events SET relayed_at = clock_timestamp()
       WHERE id IN (SELECT id FROM workspace_events WHERE relayed_at IS NULL ${which} ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING id, workspace_id, type, data, endpoint_id, created_at
    ), d AS (
      INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at)
      SELECT e.id, ev.id, clock_timestamp()
        FROM ev JOIN webhook_endpoints e ON e.workspace_id = ev.workspace_id
       WHERE CASE WHEN ev.endpoint_id IS NOT NULL THEN e.id = ev.endpoint_id ELSE e.disabled_at IS NULL AND ev.type = ANY(e.events) END
      ON CONFLICT (endpoint_id, event_id) DO NOTHING
      RETURNING id, event_id
    )
    SELECT ev.id, ev.workspace_id AS "workspaceId", ev.type, ev.data, ev.created_at AS "createdAt",
           COALESCE((SELECT array_agg(d.id::text) FROM d WHERE d.event_id = ev.id), '{}') AS "deliveryIds"
      FROM ev ORDER BY ev.created_at`);
}

/** Publishes relayed events (GraphQL) and queues their deliveries; a failure is left to the sweep. */
async function announce(rows: RelayedRow[]): Promise<void> {
  if (rows.length === 0) return;
  try {
    await Promise.all(
      rows.map((r) =>
        publishEvent("workspaceEvent", r.workspaceId, {
          id: r.id,
          workspaceId: r.workspaceId,
          type: r.type,
          data: r.data,
          at: r.createdAt.toISOString(),
        } satisfies WorkspaceEvent),
      ),
    );
    await enqueueDeliveries(rows.flatMap((r) => r.deliveryIds.map((deliveryId) => ({ deliveryId, attempt: 1 }))));
    // The notifications consumer (src/domain/notifications/consume.ts): people's bells and alert mails.
    await enqueueNotify(rows.filter((r) => r.type !== "webhook.test").map((r) => r.id));
  } catch (e) {
    logger.warn({ err: (e as Error).message, events: rows.length }, "could not queue relayed events' deliveries now; the sweep will");
  }
}

/**
 * Relays the events `ids` (after their commit): GraphQL and webhook deliveries. Never throws: the
 * change is committed, and the sweep relays what this could not.
 */
export async function relayWorkspaceEvents(ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  try {
    await announce(await claimAndFanOut(Prisma.sql`AND id = ANY(${ids}::uuid[])`, ids.length));
  } catch (e) {
    logger.warn({ err: (e as Error).message, events: ids.length }, "could not relay events now; the sweep will");
  }
}

/**
 * Relays the workspace's unrelayed events (after a commit that may have recorded some inside another
 * area's transaction, e.g. `credits.low` in a charge). Cheap when there are none: the partial index
 * holds only unrelayed events. Never throws.
 */
export async function relayWorkspaceBacklog(workspaceId: string): Promise<void> {
  try {
    await announce(await claimAndFanOut(Prisma.sql`AND workspace_id = ${workspaceId}::uuid`, 100));
  } catch (e) {
    logger.warn({ err: (e as Error).message, workspaceId }, "could not relay events now; the sweep will");
  }
}

/** Records and relays events that have no transaction of their own to join. */
export async function emitWorkspaceEvents(events: NewWorkspaceEvent[]): Promise<void> {
  await relayWorkspaceEvents(await recordWorkspaceEvents(events));
}

/** The workspace's events as they are relayed (GraphQL `workspaceEvents`), until the consumer stops. */
export function watchWorkspaceEvents(workspaceId: string): AsyncIterable<WorkspaceEvent> {
  return subscribeEvents("workspaceEvent", workspaceId);
}

/**
 * Records an event for one endpoint (`webhook.test`) already relayed, with its delivery, in one
 * statement (so no relay elsewhere can take it in between), then publishes it and queues the
 * delivery. Answers the delivery's id, or null when the endpoint no longer exists.
 */
export async function emitToEndpoint(event: NewWorkspaceEvent & { endpointId: string }): Promise<string | null> {
  const rows = await sql<RelayedRow>(Prisma.sql`
    WITH ev AS (
      INSERT INTO workspace_events (workspace_id, type, data, endpoint_id, relayed_at)
      SELECT e.workspace_id, ${event.type}, ${JSON.stringify(event.data)}::jsonb, e.id, clock_timestamp()
        FROM webhook_endpoints e WHERE e.id = ${event.endpointId}::uuid AND e.workspace_id = ${event.workspaceId}::uuid
         -- Locked: an endpoint deleted concurrently is skipped (NOT_FOUND) instead of failing the foreign key (a 500).
         FOR KEY SHARE
      RETURNING id, workspace_id, type, data, endpoint_id, created_at
    ), d AS (
      INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at)
      SELECT ev.endpoint_id, ev.id, clock_timestamp() FROM ev
      RETURNING id
    )
    SELECT ev.id, ev.workspace_id AS "workspaceId", ev.type, ev.data, ev.created_at AS "createdAt", ARRAY(SELECT d.id::text FROM d) AS "deliveryIds" FROM ev`);
  await announce(rows);
  return rows[0]?.deliveryIds[0] ?? null;
}

/** A pending delivery whose attempt is this late was lost (its job is gone): queued again. */
const LOST_DELIVERY_GRACE_MS = 120_000;
const SWEEP_BATCH = 500;

/** The sweep: relays unrelayed events, re-enqueues lost deliveries (pending and `lostGraceMs` late). */
export async function sweepOutbox(maxBatches = 20, lostGraceMs = LOST_DELIVERY_GRACE_MS): Promise<{ relayed: number; requeued: number }> {
  let relayed = 0;
  for (let i = 0; i < maxBatches; i++) {
    const rows = await claimAndFanOut(Prisma.empty, SWEEP_BATCH);
    await announce(rows);
    relayed += rows.length;
    if (rows.length < SWEEP_BATCH) break;
  }
  const lost = await sql<{ id: string; attempts: number }>(Prisma.sql`
    SELECT id, attempts FROM webhook_deliveries
     WHERE status = 'pending' AND next_attempt_at < clock_timestamp() - ${lostGraceMs} * interval '1 millisecond'
     ORDER BY next_attempt_at LIMIT 1000`);
  // Job ids are per attempt: a job still queued or running makes this a no-op.
  await enqueueDeliveries(lost.map((d) => ({ deliveryId: d.id, attempt: d.attempts + 1 })));
  return { relayed, requeued: lost.length };
}

/** Removes events older than the retention (their deliveries go with them). */
export async function pruneEvents(retentionDays: number): Promise<{ removed: number }> {
  let removed = 0;
  for (;;) {
    const n = await sqlExec(Prisma.sql`
      DELETE FROM workspace_events WHERE id IN (
        SELECT id FROM workspace_events WHERE created_at < clock_timestamp() - ${retentionDays} * interval '1 day' ORDER BY created_at LIMIT 5000)`);
    removed += n;
    if (n < 5000) return { removed };
  }
}
