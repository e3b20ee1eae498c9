/**
 * Revocation reaching live connections. A request is refused on its very next call once its key is
 * revoked (./access.ts), but a WebSocket connection or an SSE stream authenticated earlier would go
 * on receiving events. So a revocation is announced to every process (the `apiKeyRevoked` event over
 * Redis), and each process also re-checks the keys of its live connections every
 * REVOCATION_CHECK_INTERVAL_MS against PostgreSQL (`revokedAmong`), so a lost event delays the end
 * of a connection by at most that interval. The doors end what they hold (src/http/graphql/revocation.ts).
 */
import { Prisma } from "../../generated/prisma/client.js";
import { sql } from "../../infra/db.js";
import { publishEvent, subscribeEvents } from "../shared/events.js";

const ALL = "all";

/** Tells every process that the key is revoked (after its row says so); never throws. */
export async function announceRevocation(keyId: string, workspaceId: string): Promise<void> {
  await publishEvent("apiKeyRevoked", ALL, { keyId, workspaceId, at: new Date().toISOString() });
}

/** The revocations announced from now on, by any process. */
export function revocations(): AsyncIterable<{ keyId: string }> {
  return subscribeEvents("apiKeyRevoked", ALL);
}

/** Which of these keys may no longer be used: revoked, or gone with their workspace. */
export async function revokedAmong(keyIds: readonly string[]): Promise<Set<string>> {
  if (keyIds.length === 0) return new Set();
  const active = await sql<{ id: string }>(
    Prisma.sql`SELECT id FROM api_keys WHERE id = ANY(${keyIds as string[]}::uuid[]) AND revoked_at IS NULL`,
  );
  const ok = new Set(active.map((k) => k.id));
  return new Set(keyIds.filter((id) => !ok.has(id)));
}
