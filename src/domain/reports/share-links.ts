/**
 * A folder's read-only share links (docs/reports.md). An owner makes one (the
 * role rule's `reports.manage`); its token is 256 random bits answered once as the page's URL
 * (`<PUBLIC_URL>/r/<token>`), and only the token's SHA-256 is kept. A link expires (7, 30 or 90
 * days, or a date at most a year away), can be revoked, and records when it was last viewed; both
 * changes are audited. A revoked or expired link answers exactly like a token that never existed.
 *
 * A report schedule owns a link of its own (`for_schedule`), whose token is not random but derived
 * from the link's id with the service's `reports` secret (HMAC-SHA256, 256 bits), so the mail of
 * every period can carry the page's URL without the token being stored; it is kept valid by the
 * schedule (./schedules.ts) and is listed and revocable like any other.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, type Tx } from "../../infra/db.ts";
import type { Acting, Actor } from "../actors/actor.ts";
import { recordAudit } from "../actors/audit.ts";
import { authorize } from "../actors/roles.ts";
import { notFound, validationError } from "../shared/errors.ts";
import { requireFolder } from "../folders/service.ts";
import { serviceLink } from "../mail/links.ts";
import { MAX_SHARE_LINK_DAYS, type CreateShareLinkInput } from "./inputs.ts";

const DAY_MS = 86_400_000;
const uuidLike = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

export interface ShareLink {
  id: string;
  folderId: string;
  folderName: string;
  createdByLabel: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastViewedAt: Date | null;
  forSchedule: boolean;
  /** `active`, `expired` or `revoked`, at the time of the read. */
  status: "active" | "expired" | "revoked";
  /** Newest first: a connection's cursor. */
  sortKey: string;
}

export const hashToken = (token: string): Buffer => createHash("sha256").update(token, "utf8").digest();

/** The page a token opens, at PUBLIC_URL. */
export const sharePath = (token: string) => `/r/${token}`;
export const shareUrl = (token: string) => serviceLink(sharePath(token));

let secret: Promise<Buffer> | null = null;
/** The service's `reports` secret (service_secrets), made on first use and shared by every process. */
function reportsSecret(): Promise<Buffer> {
  secret ??= (async () => {
    await prisma.serviceSecret.createMany({
      data: [{ name: "reports", value: randomBytes(32).toString("base64url") }],
      skipDuplicates: true,
    });
    return Buffer.from((await prisma.serviceSecret.findUniqueOrThrow({ where: { name: "reports" } })).value, "base64url");
  })();
  secret.catch(() => (secret = null));
  return secret;
}

/** A schedule's link token: HMAC-SHA256 of the link's id with the reports secret (256 bits). */
export async function scheduleLinkToken(linkId: string): Promise<string> {
  return createHmac("sha256", await reportsSecret())
    .update(`share-link:${linkId}`)
    .digest("base64url");
}

/** Who made a link, as the list shows it: a person's email, an API key's name, or the system's label. */
function creatorLabel(by: Acting): Prisma.Sql {
  const p = by.principal;
  if (p.kind === "user") return Prisma.sql`${p.email}::text`;
  if (p.kind === "api_key")
    return Prisma.sql`COALESCE((SELECT 'API key ' || k.name FROM api_keys k WHERE k.id = ${p.id}::uuid), 'API key')`;
  return Prisma.sql`${p.label}::text`;
}
const creatorId = (by: Acting) => (by.principal.kind === "user" ? by.principal.id : null);

const COLUMNS = Prisma.sql`l.id, l.folder_id AS "folderId", f.name AS "folderName", l.created_by_label AS "createdByLabel", l.created_at AS "createdAt",
  l.expires_at AS "expiresAt", l.revoked_at AS "revokedAt", l.last_viewed_at AS "lastViewedAt", l.for_schedule AS "forSchedule",
  CASE WHEN l.revoked_at IS NOT NULL THEN 'revoked' WHEN l.expires_at <= clock_timestamp() THEN 'expired' ELSE 'active' END AS status,
  (to_char(l.created_at AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSMS') || l.id::text) AS "sortKey"`;

/** When a new link expires: the chosen days from now, or the given moment (future, at most a year away). */
export function expiryOf(input: CreateShareLinkInput, now = new Date()): Date {
  if (input.expiresAt !== undefined) {
    const at = new Date(input.expiresAt);
    if (at.getTime() <= now.getTime())
      throw validationError("expiresAt must be in the future.", [{ path: "expiresAt", message: "must be in the future" }]);
    if (at.getTime() > now.getTime() + MAX_SHARE_LINK_DAYS * DAY_MS)
      throw validationError("expiresAt must be at most one year away.", [{ path: "expiresAt", message: "at most one year away" }]);
    return at;
  }
  return new Date(now.getTime() + (input.expiresInDays ?? 30) * DAY_MS);
}

/** Makes a link for one of the workspace's folders; answers it with its URL (shown this once). */
export async function createShareLink(
  actor: Actor,
  folderId: string,
  input: CreateShareLinkInput,
): Promise<{ link: ShareLink; url: string }> {
  authorize(actor, "reports.manage");
  const folder = await requireFolder(actor.workspaceId, folderId);
  const expiresAt = expiryOf(input);
  const token = randomBytes(32).toString("base64url");
  const id = await prisma.$transaction(async (tx) => {
    const [row] = await sql<{ id: string }>(
      Prisma.sql`INSERT INTO folder_share_links (workspace_id, folder_id, token_hash, created_by_id, created_by_label, expires_at)
                 VALUES (${actor.workspaceId}::uuid, ${folder.id}::uuid, ${hashToken(token)}, ${creatorId(actor)}::uuid, ${creatorLabel(actor)}, ${expiresAt})
                 RETURNING id`,
      { tx },
    );
    await recordAudit(
      {
        workspaceIds: [actor.workspaceId],
        by: actor,
        action: "share_link.created",
        target: folder.name,
        details: { linkId: row!.id, folderId: folder.id, expiresAt: expiresAt.toISOString() },
      },
      tx,
    );
    return row!.id;
  });
  const [link] = await shareLinksByIds(actor.workspaceId, [id]);
  return { link: link!, url: shareUrl(token) };
}

/** The workspace's links (of one folder, or all), newest first; owners only. */
export async function listShareLinks(actor: Actor, folderId?: string): Promise<ShareLink[]> {
  authorize(actor, "reports.manage");
  if (folderId) await requireFolder(actor.workspaceId, folderId);
  return sql<ShareLink>(Prisma.sql`
    SELECT ${COLUMNS} FROM folder_share_links l JOIN folders f ON f.id = l.folder_id
     WHERE l.workspace_id = ${actor.workspaceId}::uuid ${folderId ? Prisma.sql`AND l.folder_id = ${folderId}::uuid` : Prisma.empty}
     ORDER BY l.created_at DESC, l.id DESC LIMIT 1000`);
}

export async function shareLinksByIds(workspaceId: string, ids: readonly string[]): Promise<ShareLink[]> {
  if (ids.length === 0) return [];
  return sql<ShareLink>(Prisma.sql`
    SELECT ${COLUMNS} FROM folder_share_links l JOIN folders f ON f.id = l.folder_id
     WHERE l.workspace_id = ${workspaceId}::uuid AND l.id = ANY(${ids as string[]}::uuid[])`);
}

/** Revokes a link (at once: its page answers 404 from the next request); revoking twice changes nothing. */
export async function revokeShareLink(actor: Actor, linkId: string): Promise<ShareLink> {
  authorize(actor, "reports.manage");
  if (!uuidLike(linkId)) throw notFound("Share link");
  await prisma.$transaction(async (tx) => {
    const [row] = await sql<{ folderName: string }>(
      Prisma.sql`UPDATE folder_share_links l SET revoked_at = clock_timestamp()
                  FROM folders f WHERE f.id = l.folder_id AND l.id = ${linkId}::uuid AND l.workspace_id = ${actor.workspaceId}::uuid AND l.revoked_at IS NULL
              RETURNING f.name AS "folderName"`,
      { tx },
    );
    if (row)
      await recordAudit(
        { workspaceIds: [actor.workspaceId], by: actor, action: "share_link.revoked", target: row.folderName, details: { linkId } },
        tx,
      );
  });
  const [link] = await shareLinksByIds(actor.workspaceId, [linkId]);
  if (!link) throw notFound("Share link");
  return link;
}

/** What a token opens: its workspace and folder, or null (unknown, revoked or expired: the same answer). */
export async function resolveShareToken(
  token: string,
): Promise<{ linkId: string; workspaceId: string; folderId: string; expiresAt: Date } | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  // Seen at most once a minute per link (a page load is a few requests).
  const [row] = await sql<{ linkId: string; workspaceId: string; folderId: string; expiresAt: Date }>(Prisma.sql`
    WITH l AS (
      SELECT id, workspace_id, folder_id, expires_at, last_viewed_at FROM folder_share_links
       WHERE token_hash = ${hashToken(token)} AND revoked_at IS NULL AND expires_at > clock_timestamp()
    ), seen AS (
      UPDATE folder_share_links s SET last_viewed_at = clock_timestamp() FROM l
       WHERE s.id = l.id AND (l.last_viewed_at IS NULL OR l.last_viewed_at < clock_timestamp() - interval '1 minute') RETURNING 1
    )
    SELECT id AS "linkId", workspace_id AS "workspaceId", folder_id AS "folderId", expires_at AS "expiresAt" FROM l`);
  return row ?? null;
}

/**
 * A schedule's own link, valid until at least `validUntil` (in `tx`): the one it has, its expiry pushed
 * out when needed; a new one when it has none or it was revoked. Answers the link's id and token.
 */
export async function ensureScheduleLink(
  s: { id: string; workspaceId: string; folderId: string; shareLinkId: string | null },
  validUntil: Date,
  tx: Tx,
): Promise<{ linkId: string; token: string }> {
  const expiresAt = new Date(validUntil.getTime() + 30 * DAY_MS);
  if (s.shareLinkId) {
    const kept = await sql<{ id: string }>(
      Prisma.sql`UPDATE folder_share_links SET expires_at = GREATEST(expires_at, ${expiresAt})
                  WHERE id = ${s.shareLinkId}::uuid AND workspace_id = ${s.workspaceId}::uuid AND folder_id = ${s.folderId}::uuid AND revoked_at IS NULL RETURNING id`,
      { tx },
    );
    if (kept.length) return { linkId: s.shareLinkId, token: await scheduleLinkToken(s.shareLinkId) };
  }
  const [{ id }] = (await sql<{ id: string }>(Prisma.sql`SELECT gen_random_uuid() AS id`, { tx })) as [{ id: string }];
  const token = await scheduleLinkToken(id);
  await sql(
    Prisma.sql`INSERT INTO folder_share_links (id, workspace_id, folder_id, token_hash, created_by_label, expires_at, for_schedule)
               VALUES (${id}::uuid, ${s.workspaceId}::uuid, ${s.folderId}::uuid, ${hashToken(token)}, 'report schedule', ${expiresAt}, true) RETURNING id`,
    { tx },
  );
  await sql(Prisma.sql`UPDATE report_schedules SET share_link_id = ${id}::uuid WHERE id = ${s.id}::uuid RETURNING id`, { tx });
  return { linkId: id, token };
}
