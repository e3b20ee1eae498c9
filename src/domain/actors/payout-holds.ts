/**
 * What an active campaign pays from, and the rule that changing it is an owner's change (docs/campaigns.md, "Who may
 * change it"). A campaign's payout is computed from data other areas own: the videos the workspace tracks, the tags on
 * them, which creator an account belongs to, and the creator's name and contact printed in every payout row. Every
 * campaign change is owner-only; these are the changes outside the campaign that move the same money, so they are
 * owner-only too while an ACTIVE campaign depends on what they change (a closed campaign pays its frozen rows):
 *
 * - putting its tag on a video, or taking it off, or deleting that tag (`authorizeTagChange`);
 * - no longer tracking a video it may pay for (`heldVideos`, refused per video in a bulk answer): posted by a member's account inside the
 *   campaign's window, or added to it by hand, and not excluded (its hashtag and tag filters are not asked: a video
 *   that could qualify tomorrow is held today);
 * - giving accounts to a creator, or taking them, when the campaign pays for the accounts' videos (`authorizeAccountsChange`);
 * - changing or deleting a creator the campaign pays (`authorizeCreatorChange`): a member, a creator with a rule of its
 *   own, or the creator of an account the campaign pays for.
 *
 * It lives with the role rule (actors, below every area that owns those objects: tags, tracking, campaigns) because
 * those areas sit below campaigns and may not import it; it reads the campaigns' tables, which the database shares.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql } from "../../infra/db.ts";
import type { WorkspaceRole } from "./actor.ts";
import { authorize } from "./roles.ts";

/** Who changes: the workspace and the role. */
export interface Changer {
  workspaceId: string;
  role: WorkspaceRole;
}

/** Refuses a member when `held` says an active campaign depends on the change; an owner asks nothing. */
async function authorizeIfHeld(actor: Changer, held: (workspaceId: string) => Prisma.Sql): Promise<void> {
  if (actor.role === "owner") return;
  const [row] = await sql<{ held: boolean }>(Prisma.sql`SELECT EXISTS (${held(actor.workspaceId)}) AS held`);
  if (row?.held) authorize(actor, "payouts.change");
}

const active = (workspaceId: string) =>
  Prisma.sql`SELECT id, starts_local AT TIME ZONE time_zone AS s, ends_local AT TIME ZONE time_zone AS e
               FROM campaigns WHERE workspace_id = ${workspaceId}::uuid AND status = 'active'`;

/** Accounts an active campaign pays for: a member, an account of a member creator, or one whose video was added by hand. */
const accountsHeld = (workspaceId: string, accountIds: Prisma.Sql) => Prisma.sql`
  SELECT 1 FROM (${active(workspaceId)}) c JOIN campaign_members m ON m.campaign_id = c.id WHERE m.account_id = ANY(${accountIds})
  UNION ALL
  SELECT 1 FROM (${active(workspaceId)}) c JOIN campaign_members m ON m.campaign_id = c.id
    JOIN creator_accounts ca ON ca.workspace_id = ${workspaceId}::uuid AND ca.creator_id = m.creator_id WHERE ca.account_id = ANY(${accountIds})
  UNION ALL
  SELECT 1 FROM (${active(workspaceId)}) c JOIN campaign_videos x ON x.campaign_id = c.id AND x.mode = 'added'
    JOIN videos v ON v.id = x.video_id WHERE v.account_id = ANY(${accountIds})`;

/** Tagging a video with `tagId`, untagging it, or deleting the tag, while an active campaign filters by that tag. */
export function authorizeTagChange(actor: Changer, tagId: string): Promise<void> {
  return authorizeIfHeld(
    actor,
    (ws) => Prisma.sql`SELECT 1 FROM campaigns WHERE workspace_id = ${ws}::uuid AND status = 'active' AND tag_id = ${tagId}::uuid`,
  );
}

/**
 * Of `videoIds`, those a member may not stop tracking because an active campaign may pay for them (none for an owner):
 * a bulk change refuses those ids one by one (`HELD_VIDEO`) and does the rest.
 */
export async function heldVideos(actor: Changer, videoIds: readonly string[]): Promise<Set<string>> {
  if (actor.role === "owner" || videoIds.length === 0) return new Set();
  const ids = Prisma.sql`${videoIds as string[]}::uuid[]`;
  const ws = actor.workspaceId;
  const rows = await sql<{ id: string }>(Prisma.sql`
    SELECT v.id::text AS id FROM (${active(ws)}) c
      JOIN campaign_members m ON m.campaign_id = c.id
      LEFT JOIN creator_accounts ca ON ca.workspace_id = ${ws}::uuid AND ca.creator_id = m.creator_id
      JOIN videos v ON v.account_id = coalesce(m.account_id, ca.account_id) AND v.posted_at >= c.s AND v.posted_at < c.e
     WHERE v.id = ANY(${ids})
       AND NOT EXISTS (SELECT 1 FROM campaign_videos x WHERE x.campaign_id = c.id AND x.video_id = v.id AND x.mode = 'excluded')
    UNION
    SELECT x.video_id::text FROM (${active(ws)}) c JOIN campaign_videos x ON x.campaign_id = c.id AND x.mode = 'added' WHERE x.video_id = ANY(${ids})`);
  return new Set(rows.map((r) => r.id));
}

/** Why a held video was left alone, in a bulk answer. */
export const HELD_VIDEO = "An active campaign may pay for this video: only owners of the workspace may stop tracking it.";

/** Giving accounts to a creator or taking them from it, when an active campaign pays for the accounts' videos or the creator. */
export function authorizeAccountsChange(actor: Changer, creatorId: string, accountIds: readonly string[]): Promise<void> {
  return authorizeIfHeld(
    actor,
    (ws) => Prisma.sql`${accountsHeld(ws, Prisma.sql`${accountIds as string[]}::uuid[]`)} UNION ALL ${creatorHeld(ws, creatorId)}`,
  );
}

/** Changing or deleting a creator an active campaign pays. */
export function authorizeCreatorChange(actor: Changer, creatorId: string): Promise<void> {
  return authorizeIfHeld(actor, (ws) => creatorHeld(ws, creatorId));
}

const creatorHeld = (workspaceId: string, creatorId: string) => Prisma.sql`
  SELECT 1 FROM (${active(workspaceId)}) c JOIN campaign_members m ON m.campaign_id = c.id WHERE m.creator_id = ${creatorId}::uuid
  UNION ALL
  SELECT 1 FROM (${active(workspaceId)}) c JOIN campaign_creator_rules r ON r.campaign_id = c.id WHERE r.creator_id = ${creatorId}::uuid
  UNION ALL
  ${accountsHeld(
    workspaceId,
    Prisma.sql`ARRAY(SELECT account_id FROM creator_accounts WHERE workspace_id = ${workspaceId}::uuid AND creator_id = ${creatorId}::uuid)`,
  )}`;
