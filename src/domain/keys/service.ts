/**
 * API keys: `svc_sk_` + 43 URL-safe characters (32 bytes from the CSPRNG, base64url). Only the
 * SHA-256 of the secret is stored. At most 5 active keys per workspace: an active key holds one of
 * five slots, and a partial unique index on (workspace, slot) makes the database refuse a sixth.
 * Authenticating a request with a key, and its rate limit, are ./access.ts.
 */
import { randomBytes } from "node:crypto";
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, type Tx } from "../../infra/db.ts";
import { orderBySql, pageAndTotal, type Order, type PageRequest } from "../shared/pages.ts";
import { hashSecret, KEY_PREFIX, restoreKey, withdrawKey } from "./access.ts";
import { DomainError, notFound } from "../shared/errors.ts";
import { announceRevocation, revocationSubject } from "./revocation.ts";
import { OPERATOR, type Acting } from "../actors/actor.ts";
import { recordAudit } from "../actors/audit.ts";
import { queueApiKeyNotice } from "./mails.ts";
import { dispatchMails, type QueuedMail } from "../mail/outbox.ts";

const MAX_ACTIVE_KEYS = 5;

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export function generateSecret(): string {
  return KEY_PREFIX + randomBytes(32).toString("base64url");
}

const toInfo = (k: ApiKeyInfo): ApiKeyInfo => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt,
  revokedAt: k.revokedAt,
});

/**
 * Creates a key and returns its secret, which is never retrievable again. Recorded in the audit log
 * as done `by` the caller (the operator's CLI when none is given).
 */
export async function createKey(
  workspaceId: string,
  name: string,
  tx?: Tx,
  by: Acting = OPERATOR,
): Promise<{ key: ApiKeyInfo; secret: string }> {
  // The owners' security notice is queued with the key (a caller's own transaction: the sweep sends it after that commit).
  let notices: QueuedMail[] = [];
  const run = async (t: Tx) => {
    // Serialise key creation per workspace so the slot choice below is race-free.
    const locked = await sql<{ id: string }>(Prisma.sql`SELECT id FROM workspaces WHERE id = ${workspaceId}::uuid FOR UPDATE`, { tx: t });
    if (!locked[0]) throw notFound("Workspace");
    const active = await t.apiKey.findMany({ where: { workspaceId, revokedAt: null }, select: { slot: true } });
    const used = new Set(active.map((k) => k.slot));
    const slot = Array.from({ length: MAX_ACTIVE_KEYS }, (_, i) => i + 1).find((s) => !used.has(s));
    if (slot === undefined) {
      throw new DomainError("KEY_LIMIT_REACHED", `A workspace can have at most ${MAX_ACTIVE_KEYS} active API keys; revoke one first.`);
    }
    const secret = generateSecret();
    const key = await t.apiKey.create({
      data: { workspaceId, name, slot, prefix: secret.slice(0, KEY_PREFIX.length + 4), secretHash: hashSecret(secret) },
    });
    await recordAudit(
      { workspaceIds: [workspaceId], by, action: "api_key.created", target: name, details: { keyId: key.id, prefix: key.prefix } },
      t,
    );
    notices = await queueApiKeyNotice(t, { id: key.id, workspaceId, name }, by);
    return { key: toInfo(key), secret };
  };
  if (tx) return run(tx);
  const created = await prisma.$transaction(run);
  await dispatchMails(notices);
  return created;
}

const KEY_COLUMNS = Prisma.raw(
  `k.id, k.name, k.prefix, k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt", k.revoked_at AS "revokedAt"`,
);

/** The workspace's keys, active and revoked: oldest first, ties by id. */
export const KEYS_ORDER: Order<ApiKeyInfo> = [
  { sql: "k.created_at", type: "timestamptz", value: (k) => k.createdAt },
  { sql: "k.id", type: "uuid", value: (k) => k.id },
];

/** The workspace's keys (KEYS_ORDER); every key when no page is given. Never the secret. */
/** Every key of the workspace, active and revoked, in the list's order (REST and the CLI list them whole: a workspace has few). */
export async function listKeys(workspaceId: string): Promise<ApiKeyInfo[]> {
  return sql<ApiKeyInfo>(
    Prisma.sql`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.workspace_id = ${workspaceId}::uuid ${orderBySql(KEYS_ORDER)}`,
  );
}

/** A page of the workspace's keys and how many it has, from one statement (`pageAndTotal`). */
export function keysPage(workspaceId: string, page: PageRequest): Promise<{ items: ApiKeyInfo[]; total: number }> {
  return pageAndTotal(KEYS_ORDER, page, {
    columns: KEY_COLUMNS,
    from: Prisma.sql`api_keys k`,
    where: Prisma.sql`k.workspace_id = ${workspaceId}::uuid`,
    count: Prisma.sql`SELECT count(*)::int FROM api_keys c WHERE c.workspace_id = ${workspaceId}::uuid`,
  });
}

/** Keys of the workspace by id, in any order. */
export async function keysByIds(workspaceId: string, keyIds: readonly string[]): Promise<ApiKeyInfo[]> {
  if (keyIds.length === 0) return [];
  return sql<ApiKeyInfo>(
    Prisma.sql`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.workspace_id = ${workspaceId}::uuid AND k.id = ANY(${keyIds as string[]}::uuid[])`,
  );
}

/**
 * Revokes a key of the workspace, in one step: in one transaction its row is revoked (and locked),
 * the key taken out of the access registry with its tombstone (./access.ts: from then on no process
 * admits it, nor registers it again) and the audit entry written. A failure before the withdrawal
 * rolls the row back and leaves no tombstone; a failure after it (the audit entry, the commit) rolls
 * the row back and takes the tombstone back: a key is never refused everywhere while still listed
 * active and holding a slot. After the commit, the announcement ends its live connections in every process
 * (./revocation.ts). Revoking a revoked key changes nothing and reports when it was revoked.
 */
export async function revokeKey(workspaceId: string, keyId: string, by: Acting = OPERATOR): Promise<ApiKeyInfo> {
  const found = await prisma.apiKey.findFirst({ where: { id: keyId, workspaceId }, select: { secretHash: true } });
  if (!found) throw notFound("API key");
  let withdrawn = false;
  let key: ApiKeyInfo;
  try {
    key = await prisma.$transaction(async (tx) => {
      // The answer is the row as this statement left it (RETURNING), never a re-read a concurrent
      // request may have changed; an already revoked key keeps its first revocation time.
      // `old` (the row locked, as it was) tells whether this statement is the one that revoked it, for the audit log.
      const [row] = await sql<ApiKeyInfo & { newlyRevoked: boolean }>(
        Prisma.sql`
        UPDATE api_keys AS k SET revoked_at = COALESCE(k.revoked_at, now()), slot = NULL
          FROM (SELECT id, revoked_at FROM api_keys WHERE id = ${keyId}::uuid AND workspace_id = ${workspaceId}::uuid FOR UPDATE) AS old
         WHERE k.id = old.id
        RETURNING ${KEY_COLUMNS}, old.revoked_at IS NULL AS "newlyRevoked"`,
        { tx },
      );
      if (!row) throw notFound("API key");
      await withdrawKey(found.secretHash);
      withdrawn = true;
      const { newlyRevoked, ...revoked } = row;
      if (newlyRevoked)
        await recordAudit(
          {
            workspaceIds: [workspaceId],
            by,
            action: "api_key.revoked",
            target: revoked.name,
            details: { keyId: revoked.id, prefix: revoked.prefix },
          },
          tx,
        );
      return revoked;
    });
  } catch (e) {
    // The row was not revoked after the withdrawal: the key stays usable, as it is listed.
    if (withdrawn) await restoreKey(found.secretHash).catch(() => undefined);
    throw e;
  }
  await announceRevocation(revocationSubject.key(key.id));
  return key;
}

/** Revokes a key by id alone (admin CLI). */
export async function revokeKeyById(keyId: string): Promise<ApiKeyInfo> {
  const key = await prisma.apiKey.findUnique({ where: { id: keyId } });
  if (!key) throw notFound("API key");
  return revokeKey(key.workspaceId, keyId);
}
