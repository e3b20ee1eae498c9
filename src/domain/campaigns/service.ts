/**
 * Campaigns: a period (two local date-times and an IANA time zone), members (creators, or single
 * accounts), which videos count (posted inside the period by members' accounts, optionally only
 * with a hashtag or a tag; plus videos added by hand, minus videos excluded by hand), a payout rule
 * for all with per-creator overrides, a budget, and a status (active, closed). Reads are open to
 * every member of the workspace; every change is owner-only (`campaigns.manage`, the role rule),
 * because each one changes what the workspace owes. A closed campaign changes no more
 * (409 CAMPAIGN_CLOSED). Earnings: ./earnings.ts; closing: ./close.ts.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, sqlExec, type Tx } from "../../infra/db.ts";
import type { Actor } from "../actors/actor.ts";
import { authorize } from "../actors/roles.ts";
import { recordAudit } from "../actors/audit.ts";
import { DomainError, notFound, validationError } from "../shared/errors.ts";
import type { BulkItemResult } from "../shared/inputs.ts";
import { pageSql, type Order, type Page, type PageRequest } from "../shared/pages.ts";
import {
  MAX_CAMPAIGN_DAYS,
  type CampaignStatus,
  type CreateCampaignInput,
  type PayoutRuleInput,
  type UpdateCampaignInput,
} from "./inputs.ts";

export interface PayoutRule {
  cpmMinor: number | null;
  capPerVideoMinor: number | null;
  capPerCreatorMinor: number | null;
  feePerVideoMinor: number | null;
}

export interface CampaignRecord {
  id: string;
  name: string;
  /** Local date-times of the campaign's zone, `YYYY-MM-DDTHH:MM:SS`. */
  startsAt: string;
  endsAt: string;
  timeZone: string;
  /** The same instants in UTC. */
  startsAtUtc: Date;
  endsAtUtc: Date;
  currency: string;
  budgetMinor: number | null;
  hashtag: string | null;
  tagId: string | null;
  rule: PayoutRule;
  status: CampaignStatus;
  closedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

interface CampaignRow extends Omit<CampaignRecord, "rule"> {
  cpmMinor: number | null;
  capPerVideoMinor: number | null;
  capPerCreatorMinor: number | null;
  feePerVideoMinor: number | null;
}

const COLUMNS =
  Prisma.raw(`c.id, c.name, to_char(c.starts_local, 'YYYY-MM-DD"T"HH24:MI:SS') AS "startsAt", to_char(c.ends_local, 'YYYY-MM-DD"T"HH24:MI:SS') AS "endsAt",
  c.time_zone AS "timeZone", (c.starts_local AT TIME ZONE c.time_zone) AS "startsAtUtc", (c.ends_local AT TIME ZONE c.time_zone) AS "endsAtUtc",
  c.currency, c.budget_minor AS "budgetMinor", c.hashtag, c.tag_id::text AS "tagId", c.cpm_minor AS "cpmMinor", c.cap_per_video_minor AS "capPerVideoMinor",
  c.cap_per_creator_minor AS "capPerCreatorMinor", c.fee_per_video_minor AS "feePerVideoMinor", c.status, c.closed_at AS "closedAt",
  c.created_at AS "createdAt", c.updated_at AS "updatedAt"`);

const record = ({ cpmMinor, capPerVideoMinor, capPerCreatorMinor, feePerVideoMinor, ...c }: CampaignRow): CampaignRecord => ({
  ...c,
  rule: { cpmMinor, capPerVideoMinor, capPerCreatorMinor, feePerVideoMinor },
});

/** Newest first, ties by id. */
export const CAMPAIGNS_ORDER: Order<CampaignRecord> = [
  { sql: "c.created_at", type: "timestamptz", desc: true, value: (c) => c.createdAt },
  { sql: "c.id", type: "uuid", desc: true, value: (c) => c.id },
];

const closed = () => new DomainError("CAMPAIGN_CLOSED", "The campaign is closed: its payouts are frozen and it changes no more.");

/** PostgreSQL must know the zone too (its names are the IANA database's, as Intl's; a rare alias one knows and not the other is refused). */
async function checkZone(tz: string | undefined): Promise<void> {
  if (tz === undefined) return;
  const [row] = await sql<{ ok: boolean }>(Prisma.sql`SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = ${tz}) AS ok`);
  if (!row?.ok)
    throw validationError("Invalid input: time_zone: unknown to the database's time zone list.", [
      { path: "time_zone", message: "unknown time zone" },
    ]);
}

const periodError = (why: string) => validationError(`Invalid input: ends_at: ${why}.`, [{ path: "ends_at", message: why }]);

/**
 * The period's rule on the instants, not only on the local strings: ends after starts, at most
 * MAX_CAMPAIGN_DAYS later. A local time skipped by a clock change (02:30 on a spring-forward night in
 * Europe/Paris) is read by PostgreSQL as the hour after, so `02:30 → 03:10` that night is a period
 * whose end comes before its start: refused here instead of a campaign that counts nothing. The
 * zone is known (`checkZone` first).
 */
async function checkPeriod(starts: string, ends: string, tz: string, tx?: Tx): Promise<void> {
  const within = `must be after starts_at, at most ${MAX_CAMPAIGN_DAYS} days later`;
  if (!(ends > starts) || Date.parse(`${ends}Z`) - Date.parse(`${starts}Z`) > MAX_CAMPAIGN_DAYS * 86_400_000) throw periodError(within);
  const [row] = await sql<{ ordered: boolean }>(
    Prisma.sql`SELECT (${ends}::timestamp AT TIME ZONE ${tz}) > (${starts}::timestamp AT TIME ZONE ${tz}) AS ordered`,
    { tx },
  );
  if (!row?.ordered)
    throw periodError(`must be after starts_at in ${tz} (a local time skipped by a clock change counts as the hour after)`);
}

async function checkTag(workspaceId: string, tagId: string | null | undefined): Promise<void> {
  if (!tagId) return;
  const [t] = await sql<{ id: string }>(Prisma.sql`SELECT id FROM tags WHERE id = ${tagId}::uuid AND workspace_id = ${workspaceId}::uuid`);
  if (!t) throw notFound("Tag");
}

export async function createCampaign(actor: Actor, input: CreateCampaignInput): Promise<CampaignRecord> {
  authorize(actor, "campaigns.manage");
  await checkZone(input.time_zone);
  await checkPeriod(input.starts_at, input.ends_at, input.time_zone);
  await checkTag(actor.workspaceId, input.tag_id);
  return prisma.$transaction(async (tx) => {
    const [c] = await sql<CampaignRow>(
      Prisma.sql`
      INSERT INTO campaigns AS c (workspace_id, name, starts_local, ends_local, time_zone, currency, budget_minor, hashtag, tag_id,
                                  cpm_minor, cap_per_video_minor, cap_per_creator_minor, fee_per_video_minor)
      VALUES (${actor.workspaceId}::uuid, ${input.name}, ${input.starts_at}::timestamp, ${input.ends_at}::timestamp, ${input.time_zone}, ${input.currency},
              ${input.budget_minor ?? null}::int8, ${input.hashtag ?? null}, ${input.tag_id ?? null}::uuid, ${input.cpm_minor ?? null}::int8,
              ${input.cap_per_video_minor ?? null}::int8, ${input.cap_per_creator_minor ?? null}::int8, ${input.fee_per_video_minor ?? null}::int8)
      RETURNING ${COLUMNS}`,
      { tx },
    );
    await recordAudit(
      { workspaceIds: [actor.workspaceId], by: actor, action: "campaign.created", target: input.name, details: { campaignId: c!.id } },
      tx,
    );
    return record(c!);
  });
}

export async function campaignsByIds(workspaceId: string, ids: readonly string[]): Promise<CampaignRecord[]> {
  if (ids.length === 0) return [];
  const rows = await sql<CampaignRow>(
    Prisma.sql`SELECT ${COLUMNS} FROM campaigns c WHERE c.workspace_id = ${workspaceId}::uuid AND c.id = ANY(${ids as string[]}::uuid[])`,
  );
  return rows.map(record);
}

export async function requireCampaign(workspaceId: string, id: string): Promise<CampaignRecord> {
  const [c] = await campaignsByIds(workspaceId, [id]);
  if (!c) throw notFound("Campaign");
  return c;
}

export async function listCampaigns(
  workspaceId: string,
  page: PageRequest,
  filter: { status?: CampaignStatus } = {},
): Promise<Page<CampaignRecord>> {
  const p = pageSql(CAMPAIGNS_ORDER, page);
  const status = filter.status ? Prisma.sql`AND c.status = ${filter.status}` : Prisma.empty;
  const [rows, [count]] = await Promise.all([
    sql<CampaignRow>(
      Prisma.sql`SELECT ${COLUMNS} FROM campaigns c WHERE c.workspace_id = ${workspaceId}::uuid ${status} ${p.where} ${p.orderBy} ${p.limit}`,
    ),
    sql<{ n: number }>(Prisma.sql`SELECT count(*) AS n FROM campaigns c WHERE c.workspace_id = ${workspaceId}::uuid ${status}`),
  ]);
  return { items: rows.map(record), total: count!.n };
}

/** An active campaign of the workspace, else NOT_FOUND or CAMPAIGN_CLOSED. */
async function requireActive(workspaceId: string, id: string): Promise<CampaignRecord> {
  const c = await requireCampaign(workspaceId, id);
  if (c.status === "closed") throw closed();
  return c;
}

/** A field given (even null) replaces the stored one; an absent field keeps it. */
const set = (column: string, value: unknown, cast: string) =>
  value === undefined ? null : Prisma.sql`${Prisma.raw(column)} = ${value}::${Prisma.raw(cast)}`;

export async function updateCampaign(actor: Actor, id: string, change: UpdateCampaignInput): Promise<CampaignRecord> {
  authorize(actor, "campaigns.manage");
  await requireActive(actor.workspaceId, id);
  await checkZone(change.time_zone);
  await checkTag(actor.workspaceId, change.tag_id);
  const sets = [
    set("name", change.name, "text"),
    set("starts_local", change.starts_at, "timestamp"),
    set("ends_local", change.ends_at, "timestamp"),
    set("time_zone", change.time_zone, "text"),
    set("currency", change.currency, "text"),
    set("budget_minor", change.budget_minor, "int8"),
    set("hashtag", change.hashtag, "text"),
    set("tag_id", change.tag_id, "uuid"),
    set("cpm_minor", change.cpm_minor, "int8"),
    set("cap_per_video_minor", change.cap_per_video_minor, "int8"),
    set("cap_per_creator_minor", change.cap_per_creator_minor, "int8"),
    set("fee_per_video_minor", change.fee_per_video_minor, "int8"),
  ].filter((s): s is Prisma.Sql => s !== null);
  return prisma.$transaction(async (tx) => {
    // The stored period read under the row's lock: two changes of its ends at once are checked one after
    // the other (checked outside, they could each pass and together break the table's campaign_period rule: a 500).
    const [current] = await sql<Pick<CampaignRow, "startsAt" | "endsAt" | "timeZone">>(
      Prisma.sql`SELECT ${COLUMNS} FROM campaigns c WHERE c.id = ${id}::uuid AND c.workspace_id = ${actor.workspaceId}::uuid FOR UPDATE`,
      { tx },
    );
    if (!current) throw notFound("Campaign");
    // One end given, the other stored: the period's rule over both (./inputs.ts checks the strings when both are given).
    await checkPeriod(change.starts_at ?? current.startsAt, change.ends_at ?? current.endsAt, change.time_zone ?? current.timeZone, tx);
    const rows = await sql<CampaignRow>(
      Prisma.sql`UPDATE campaigns AS c SET ${Prisma.join([...sets, Prisma.sql`updated_at = now()`], ", ")}
        WHERE c.id = ${id}::uuid AND c.workspace_id = ${actor.workspaceId}::uuid AND c.status = 'active' RETURNING ${COLUMNS}`,
      { tx },
    );
    if (!rows[0]) throw closed();
    await recordAudit(
      {
        workspaceIds: [actor.workspaceId],
        by: actor,
        action: "campaign.updated",
        target: rows[0].name,
        details: { campaignId: id, fields: Object.keys(change) },
      },
      tx,
    );
    return record(rows[0]);
  });
}

/** Deletes a campaign (active or closed) with its members, rules and frozen rows. */
export async function deleteCampaign(actor: Actor, id: string): Promise<{ id: string }> {
  authorize(actor, "campaigns.manage");
  const n = await sqlExec(Prisma.sql`DELETE FROM campaigns WHERE id = ${id}::uuid AND workspace_id = ${actor.workspaceId}::uuid`);
  if (n === 0) throw notFound("Campaign");
  return { id };
}

// --- Members

export interface CampaignMember {
  kind: "creator" | "account";
  /** The creator's id, or the canonical account id. */
  id: string;
  addedAt: Date;
}

/**
 * Adds creators and/or single accounts, each on its own: creators of the workspace, accounts it
 * tracks (`Creator not found`, `Account not found` otherwise). Already a member: success.
 */
export async function addMembers(
  actor: Actor,
  campaignId: string,
  input: { creator_ids?: string[]; account_ids?: string[] },
): Promise<BulkItemResult[]> {
  authorize(actor, "campaigns.manage");
  await requireActive(actor.workspaceId, campaignId);
  const ws = actor.workspaceId;
  const creators = input.creator_ids ?? [];
  const accounts = input.account_ids ?? [];
  const [okCreators, okAccounts] = await prisma.$transaction(async (tx) => [
    await sql<{ id: string }>(
      Prisma.sql`WITH ok AS (SELECT id FROM creators WHERE workspace_id = ${ws}::uuid AND id = ANY(${creators}::uuid[])),
        ins AS (INSERT INTO campaign_members (campaign_id, creator_id) SELECT ${campaignId}::uuid, id FROM ok ON CONFLICT DO NOTHING)
        SELECT id::text AS id FROM ok`,
      { tx },
    ),
    await sql<{ id: string }>(
      Prisma.sql`WITH ok AS (SELECT account_id AS id FROM tracked_accounts WHERE workspace_id = ${ws}::uuid AND account_id = ANY(${accounts}::uuid[])),
        ins AS (INSERT INTO campaign_members (campaign_id, account_id) SELECT ${campaignId}::uuid, id FROM ok ON CONFLICT DO NOTHING)
        SELECT id::text AS id FROM ok`,
      { tx },
    ),
  ]);
  const c = new Set(okCreators.map((r) => r.id));
  const a = new Set(okAccounts.map((r) => r.id));
  return [
    ...creators.map((id) => (c.has(id.toLowerCase()) ? { id, success: true } : { id, success: false, error: "Creator not found" })),
    ...accounts.map((id) => (a.has(id.toLowerCase()) ? { id, success: true } : { id, success: false, error: "Account not found" })),
  ];
}

export async function removeMembers(
  actor: Actor,
  campaignId: string,
  input: { creator_ids?: string[]; account_ids?: string[] },
): Promise<{ removed: number }> {
  authorize(actor, "campaigns.manage");
  await requireActive(actor.workspaceId, campaignId);
  const removed = await sqlExec(Prisma.sql`
    DELETE FROM campaign_members WHERE campaign_id = ${campaignId}::uuid
       AND (creator_id = ANY(${input.creator_ids ?? []}::uuid[]) OR account_id = ANY(${input.account_ids ?? []}::uuid[]))`);
  return { removed };
}

/** The members of many campaigns of the workspace, one statement. */
export async function membersOfCampaigns(workspaceId: string, campaignIds: readonly string[]): Promise<Map<string, CampaignMember[]>> {
  const out = new Map<string, CampaignMember[]>(campaignIds.map((id) => [id, []]));
  if (campaignIds.length === 0) return out;
  const rows = await sql<CampaignMember & { campaignId: string }>(Prisma.sql`
    SELECT m.campaign_id::text AS "campaignId", CASE WHEN m.creator_id IS NULL THEN 'account' ELSE 'creator' END AS kind,
           coalesce(m.creator_id, m.account_id)::text AS id, m.added_at AS "addedAt"
      FROM campaign_members m JOIN campaigns c ON c.id = m.campaign_id
     WHERE c.workspace_id = ${workspaceId}::uuid AND m.campaign_id = ANY(${campaignIds as string[]}::uuid[]) ORDER BY m.added_at, m.id`);
  for (const { campaignId, ...m } of rows) out.get(campaignId)?.push(m);
  return out;
}

// --- Videos by hand

/**
 * Adds videos by hand (they count whatever their account or posting time) or excludes them (they
 * never count), each on its own: videos the workspace tracks (`Video not found` otherwise). A video
 * excluded and then added is added, and the other way round.
 */
export async function setVideosByHand(
  actor: Actor,
  campaignId: string,
  videoIds: string[],
  mode: "added" | "excluded",
): Promise<BulkItemResult[]> {
  authorize(actor, "campaigns.manage");
  await requireActive(actor.workspaceId, campaignId);
  const ok = await sql<{ id: string }>(Prisma.sql`
    WITH ok AS (SELECT video_id AS id FROM tracked_videos WHERE workspace_id = ${actor.workspaceId}::uuid AND video_id = ANY(${videoIds}::uuid[])),
    ins AS (INSERT INTO campaign_videos (campaign_id, video_id, mode) SELECT ${campaignId}::uuid, id, ${mode} FROM ok
            ON CONFLICT (campaign_id, video_id) DO UPDATE SET mode = EXCLUDED.mode, at = now())
    SELECT id::text AS id FROM ok`);
  const found = new Set(ok.map((r) => r.id));
  return videoIds.map((id) => (found.has(id.toLowerCase()) ? { id, success: true } : { id, success: false, error: "Video not found" }));
}

/** Forgets what was said by hand of these videos (they count again by the campaign's rules alone); answers how many. */
export async function clearVideosByHand(actor: Actor, campaignId: string, videoIds: string[]): Promise<{ removed: number }> {
  authorize(actor, "campaigns.manage");
  await requireActive(actor.workspaceId, campaignId);
  const removed = await sqlExec(
    Prisma.sql`DELETE FROM campaign_videos WHERE campaign_id = ${campaignId}::uuid AND video_id = ANY(${videoIds}::uuid[])`,
  );
  return { removed };
}

export interface VideoByHand {
  videoId: string;
  mode: "added" | "excluded";
  at: Date;
}

export async function videosByHand(workspaceId: string, campaignId: string): Promise<VideoByHand[]> {
  return sql<VideoByHand>(Prisma.sql`
    SELECT x.video_id::text AS "videoId", x.mode, x.at FROM campaign_videos x JOIN campaigns c ON c.id = x.campaign_id
     WHERE c.workspace_id = ${workspaceId}::uuid AND c.id = ${campaignId}::uuid ORDER BY x.at, x.video_id`);
}

// --- Per-creator rules

export interface CreatorRule extends PayoutRule {
  creatorId: string;
}

/** Sets a creator's own rule in the campaign (it replaces the campaign's rule for that creator, whole), or removes it (`rule` null). */
export async function setCreatorRule(
  actor: Actor,
  campaignId: string,
  creatorId: string,
  rule: PayoutRuleInput | null,
): Promise<CreatorRule | null> {
  authorize(actor, "campaigns.manage");
  await requireActive(actor.workspaceId, campaignId);
  const [cr] = await sql<{ id: string }>(
    Prisma.sql`SELECT id FROM creators WHERE id = ${creatorId}::uuid AND workspace_id = ${actor.workspaceId}::uuid`,
  );
  if (!cr) throw notFound("Creator");
  if (rule === null) {
    await sqlExec(
      Prisma.sql`DELETE FROM campaign_creator_rules WHERE campaign_id = ${campaignId}::uuid AND creator_id = ${creatorId}::uuid`,
    );
    return null;
  }
  const [row] = await sql<CreatorRule>(Prisma.sql`
    INSERT INTO campaign_creator_rules (campaign_id, creator_id, cpm_minor, cap_per_video_minor, cap_per_creator_minor, fee_per_video_minor)
    VALUES (${campaignId}::uuid, ${creatorId}::uuid, ${rule.cpm_minor ?? null}::int8, ${rule.cap_per_video_minor ?? null}::int8,
            ${rule.cap_per_creator_minor ?? null}::int8, ${rule.fee_per_video_minor ?? null}::int8)
    ON CONFLICT (campaign_id, creator_id) DO UPDATE SET cpm_minor = EXCLUDED.cpm_minor, cap_per_video_minor = EXCLUDED.cap_per_video_minor,
      cap_per_creator_minor = EXCLUDED.cap_per_creator_minor, fee_per_video_minor = EXCLUDED.fee_per_video_minor
    RETURNING creator_id::text AS "creatorId", cpm_minor AS "cpmMinor", cap_per_video_minor AS "capPerVideoMinor",
              cap_per_creator_minor AS "capPerCreatorMinor", fee_per_video_minor AS "feePerVideoMinor"`);
  return row!;
}

export async function creatorRulesOf(workspaceId: string, campaignId: string): Promise<CreatorRule[]> {
  return sql<CreatorRule>(Prisma.sql`
    SELECT r.creator_id::text AS "creatorId", r.cpm_minor AS "cpmMinor", r.cap_per_video_minor AS "capPerVideoMinor",
           r.cap_per_creator_minor AS "capPerCreatorMinor", r.fee_per_video_minor AS "feePerVideoMinor"
      FROM campaign_creator_rules r JOIN campaigns c ON c.id = r.campaign_id
     WHERE c.workspace_id = ${workspaceId}::uuid AND c.id = ${campaignId}::uuid ORDER BY r.creator_id`);
}
