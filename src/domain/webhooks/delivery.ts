/**
 * One attempt of one webhook delivery (the `deliver` job): Standard Webhooks signing through the
 * `standardwebhooks` package, the outcome recorded once, the next attempt scheduled, and the
 * endpoint's health (automatic disabling). docs/webhooks.md.
 *
 * - The delivery's id is the `webhook-id` of every attempt; the body is the same bytes every time
 *   (`{id, type, timestamp, data}`: id = the event's id, the one GraphQL `WorkspaceEvent.id` carries,
 *   the same for every endpoint; timestamp = when the event happened); `webhook-timestamp` and the
 *   signature are made at each attempt.
 * - Handed back (`signal`, the job runner's): the request is abandoned and nothing is recorded; the
 *   attempt runs again elsewhere, with the same webhook-id.
 * - In flight: at most WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT attempts per endpoint at once, across every
 *   worker (leased places, src/domain/keys/live.ts): an attempt beyond them is not made, and its job
 *   waits DEFER_MS without using an attempt (DeferJob), so one slow endpoint cannot hold every slot.
 * - Recording is a compare-and-set on (status pending, attempts = this attempt - 1): a second run
 *   of the same attempt (a killed worker's job picked up again, a re-enqueue by the sweep) records
 *   nothing and schedules nothing, so a delivery is never recorded twice as delivered. A run that
 *   finds the attempt already recorded does not send at all. At-least-once: a worker killed after
 *   the receiver answered but before recording sends again, with the same webhook-id.
 * - A 2xx answer within WEBHOOK_TIMEOUT_MS is delivered; anything else (other status, redirect,
 *   refused target, timeout, connection error) is a failed attempt, retried after the schedule's
 *   next delay; after the last, the delivery is `failed`.
 * - Disabling: an endpoint whose every attempt failed since `failing_since` for
 *   WEBHOOK_DISABLE_AFTER_HOURS (72 h) is disabled, with the reason; its pending deliveries then
 *   fail without being sent. A successful delivery clears `failing_since`; a successful
 *   `webhook.test` (sent even to a disabled endpoint) enables it again.
 */
import { Webhook } from "standardwebhooks";
import { Prisma } from "../../generated/prisma/client.ts";
import { config } from "../../config.ts";
import { sql } from "../../infra/db.ts";
import { logger } from "../../infra/logger.ts";
import { countWebhookDelivery } from "../../infra/metrics.ts";
import type { WorkspaceEventType } from "../shared/workspace-events.ts";
import { DeferJob } from "../shared/jobs.ts";
import { acquirePlace } from "../keys/live.ts";
import { enqueueDeliveries } from "./jobs.ts";
import type { WebhookAnswer, WebhookSender } from "./ports.ts";
import { decryptSecret, SecretUnavailable } from "./secrets.ts";

export interface DeliverySettings {
  /** Delay before retry n (n = 1 …); attempts in all = length + 1. */
  retryDelaysMs: number[];
  timeoutMs: number;
  disableAfterMs: number;
}

const deliverySettings = (): DeliverySettings => ({
  retryDelaysMs: config.webhooks.retryDelaysMs,
  timeoutMs: config.webhooks.timeoutMs,
  disableAfterMs: config.webhooks.disableAfterMs,
});

// ---------------------------------------------------------------------------------------------
// Where a delivery attempt ends: the one point that sees every outcome (metrics, logs, test listeners).

export type DeliveryOutcome = "delivered" | "retrying" | "failed";

export interface DeliveryOutcomeEvent {
  outcome: DeliveryOutcome;
  deliveryId: string;
  endpointId: string;
  workspaceId: string;
  eventType: WorkspaceEventType;
  attempt: number;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

const outcomeListeners = new Set<(e: DeliveryOutcomeEvent) => void>();

/** Calls `listener` each time a delivery attempt ends and is recorded (e.g. a metrics counter). */
export function onDeliveryOutcome(listener: (e: DeliveryOutcomeEvent) => void): () => void {
  outcomeListeners.add(listener);
  return () => outcomeListeners.delete(listener);
}

function deliveryEnded(e: DeliveryOutcomeEvent): void {
  countWebhookDelivery({ outcome: e.outcome }); // webhook_deliveries_total on /metrics (src/infra/metrics.ts)
  for (const listener of outcomeListeners) {
    try {
      listener(e);
    } catch (err) {
      logger.warn({ err: (err as Error).message }, "a webhook outcome listener failed");
    }
  }
  const log = e.outcome === "delivered" ? logger.debug.bind(logger) : logger.info.bind(logger);
  log(
    {
      deliveryId: e.deliveryId,
      endpointId: e.endpointId,
      workspaceId: e.workspaceId,
      event: e.eventType,
      attempt: e.attempt,
      outcome: e.outcome,
      responseStatus: e.responseStatus,
      err: e.error ?? undefined,
      durationMs: e.durationMs,
    },
    "webhook attempt ended",
  );
}

// ---------------------------------------------------------------------------------------------

interface AttemptTarget {
  status: "pending" | "delivered" | "failed";
  attempts: number;
  endpointId: string;
  workspaceId: string;
  url: string;
  secretCipher: string;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  eventId: string;
  type: WorkspaceEventType;
  data: Record<string, unknown>;
  eventAt: Date;
}

async function loadTarget(deliveryId: string): Promise<AttemptTarget | null> {
  const [row] = await sql<AttemptTarget>(
    Prisma.sql`
    SELECT d.status::text AS status, d.attempts, e.id AS "endpointId", e.workspace_id AS "workspaceId", e.url, e.secret_cipher AS "secretCipher",
           e.failing_since AS "failingSince", e.disabled_at AS "disabledAt", e.disabled_reason AS "disabledReason", ev.id AS "eventId", ev.type, ev.data, ev.created_at AS "eventAt"
      FROM webhook_deliveries d
      JOIN webhook_endpoints e ON e.id = d.endpoint_id
      JOIN workspace_events ev ON ev.id = d.event_id
     WHERE d.id = ${deliveryId}::uuid`,
    { prepare: true },
  );
  return row ?? null;
}

/** The request body: the same bytes at every attempt. */
const deliveryBody = (t: Pick<AttemptTarget, "eventId" | "type" | "data" | "eventAt">) =>
  JSON.stringify({ id: t.eventId, type: t.type, timestamp: t.eventAt.toISOString(), data: t.data });

/** How long an attempt waits when its endpoint has its deliveries in flight at the bound (jittered). */
const DEFER_MS = 1000;
const inFlightSet = (endpointId: string) => `${config.redisPrefix}:webhook-in-flight:{${endpointId}}`;

const MAX_ERROR = 500;
const clip = (s: string) => (s.length > MAX_ERROR ? `${s.slice(0, MAX_ERROR - 1)}…` : s);

/**
 * Attempt `attempt` of the delivery. Answers what happened: `delivered`, `retrying`, `failed`, or
 * `gone` (endpoint deleted) / `stale` (this attempt was already made and recorded).
 */
export async function deliverWebhook(
  deliveryId: string,
  attempt: number,
  sender: WebhookSender,
  s: DeliverySettings = deliverySettings(),
  signal?: AbortSignal,
): Promise<{ status: string }> {
  const t = await loadTarget(deliveryId);
  if (!t) return { status: "gone" };
  if (t.status !== "pending" || t.attempts !== attempt - 1) return { status: "stale" };
  const started = Date.now();

  let answer: WebhookAnswer;
  if (t.disabledAt && t.type !== "webhook.test") {
    // Not sent: the endpoint was disabled after this delivery was created.
    return finish(
      t,
      deliveryId,
      attempt,
      { status: null, error: `not sent: the endpoint is disabled (${t.disabledReason ?? "no reason recorded"})` },
      s,
      started,
      true,
    );
  }
  const release = await acquirePlace(inFlightSet(t.endpointId), config.webhooks.maxInFlightPerEndpoint);
  if (!release)
    throw new DeferJob(
      DEFER_MS + Math.floor(Math.random() * DEFER_MS),
      `endpoint ${t.endpointId} has ${config.webhooks.maxInFlightPerEndpoint} deliveries in flight`,
    );
  try {
    const secret = decryptSecret(t.secretCipher, t.endpointId);
    const body = deliveryBody(t);
    const now = new Date();
    const signature = new Webhook(secret).sign(deliveryId, now, body);
    answer = await sender.send({
      url: t.url,
      body,
      timeoutMs: s.timeoutMs,
      ...(signal ? { signal } : {}),
      headers: {
        "content-type": "application/json",
        "user-agent": "video-tracking-service-webhooks/1",
        "webhook-id": deliveryId,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": signature,
      },
    });
  } catch (e) {
    if (!(e instanceof SecretUnavailable)) throw e;
    answer = { status: null, error: e.message };
  } finally {
    release();
  }
  // Handed back: the attempt runs again elsewhere, and records itself there.
  if (signal?.aborted) throw new Error("the delivery's job was handed back: this attempt records nothing");
  return finish(t, deliveryId, attempt, answer, s, started, false);
}

const delivered = (a: WebhookAnswer) => a.status !== null && a.status >= 200 && a.status < 300;

function describeFailure(a: WebhookAnswer): string {
  if (a.status === null) return a.error ?? "no answer";
  if (a.status >= 300 && a.status < 400) return `HTTP ${a.status} (redirects are not followed)`;
  return a.error ? `HTTP ${a.status}: ${a.error}` : `HTTP ${a.status}`;
}

async function finish(
  t: AttemptTarget,
  deliveryId: string,
  attempt: number,
  answer: WebhookAnswer,
  s: DeliverySettings,
  started: number,
  final: boolean,
): Promise<{ status: string }> {
  const ok = delivered(answer);
  const error = ok ? null : clip(describeFailure(answer));
  const lastAttempt = final || attempt > s.retryDelaysMs.length;
  const outcome: DeliveryOutcome = ok ? "delivered" : lastAttempt ? "failed" : "retrying";
  const delayMs = outcome === "retrying" ? s.retryDelaysMs[attempt - 1]! : 0;
  const recorded = await sql<{ id: string }>(Prisma.sql`
    UPDATE webhook_deliveries
       SET status = ${outcome === "retrying" ? "pending" : outcome}::"WebhookDeliveryStatus", attempts = ${attempt},
           response_status = ${answer.status}, last_error = ${error},
           next_attempt_at = ${outcome === "retrying" ? Prisma.sql`clock_timestamp() + ${delayMs} * interval '1 millisecond'` : null},
           delivered_at = ${ok ? Prisma.sql`clock_timestamp()` : null}
     WHERE id = ${deliveryId}::uuid AND status = 'pending' AND attempts = ${attempt - 1}
    RETURNING id`);
  if (recorded.length === 0) return { status: "stale" }; // another run of this attempt recorded it
  // The attempt is recorded: its health and its outcome count now, whatever happens to the enqueue
  // below (a re-run of this job would find the attempt stale and count nothing).
  if (!final) await updateHealth(t, ok, error ?? "", s);
  deliveryEnded({
    outcome,
    deliveryId,
    endpointId: t.endpointId,
    workspaceId: t.workspaceId,
    eventType: t.type,
    attempt,
    responseStatus: answer.status,
    error,
    durationMs: Date.now() - started,
  });
  if (outcome === "retrying") {
    // Lost only if Redis is away now: the outbox sweep re-queues a pending delivery whose job is missing.
    await enqueueDeliveries([{ deliveryId, attempt: attempt + 1, delayMs }]).catch((e: Error) =>
      logger.warn({ err: e.message, deliveryId, attempt: attempt + 1 }, "webhook retry not queued; the sweep will queue it"),
    );
  }
  return { status: outcome };
}

/** 72 h → "72 hours", 3600 ms → "3.6 seconds". */
function describeSpan(ms: number): string {
  const [unit, size] =
    ms >= 3_600_000 ? (["hours", 3_600_000] as const) : ms >= 60_000 ? (["minutes", 60_000] as const) : (["seconds", 1000] as const);
  return `${Math.round((ms / size) * 100) / 100} ${unit}`;
}

/** Success clears the failing streak (and a test's success enables a disabled endpoint); failure may disable. */
async function updateHealth(t: AttemptTarget, ok: boolean, error: string, s: DeliverySettings): Promise<void> {
  if (ok) {
    const enable = t.type === "webhook.test";
    // Healthy when read: nothing to clear (no write on the hot path). A concurrent failure that set
    // failing_since meanwhile is cleared by the endpoint's next success.
    if (!t.failingSince && !(enable && t.disabledAt)) return;
    await sql(Prisma.sql`
      UPDATE webhook_endpoints SET failing_since = NULL
        ${enable ? Prisma.sql`, disabled_at = NULL, disabled_reason = NULL` : Prisma.empty}
       WHERE id = ${t.endpointId}::uuid AND (failing_since IS NOT NULL ${enable ? Prisma.sql`OR disabled_at IS NOT NULL` : Prisma.empty})`);
    return;
  }
  const span = describeSpan(s.disableAfterMs);
  const [row] = await sql<{ disabledNow: boolean }>(Prisma.sql`
    WITH cur AS (SELECT id, COALESCE(failing_since, clock_timestamp()) AS since, disabled_at IS NULL AND COALESCE(failing_since, clock_timestamp()) <= clock_timestamp() - ${s.disableAfterMs} * interval '1 millisecond' AS disable
                   FROM webhook_endpoints WHERE id = ${t.endpointId}::uuid FOR UPDATE)
    UPDATE webhook_endpoints e
       SET failing_since = cur.since,
           disabled_at = CASE WHEN cur.disable THEN clock_timestamp() ELSE e.disabled_at END,
           disabled_reason = CASE WHEN cur.disable
             THEN 'Every delivery attempt failed since ' || to_char(cur.since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                  || ${` (more than ${span}); last error: ${error}. Fix the receiver, then send a test event (POST /webhooks/{id}/test): its success enables the endpoint again.`}
             ELSE e.disabled_reason END
      FROM cur WHERE e.id = cur.id
    RETURNING cur.disable AS "disabledNow"`);
  if (row?.disabledNow)
    logger.warn({ endpointId: t.endpointId, workspaceId: t.workspaceId }, "webhook endpoint disabled after failing for too long");
}
