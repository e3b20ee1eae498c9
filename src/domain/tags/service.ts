/**
 * Tags: a workspace's own labels (name unique without regard to case, a #rrggbb colour), many per
 * tracked video and tracked account. Every function is scoped by the workspace: a tag of another
 * workspace is NOT_FOUND, exactly like an unknown id. Tags hang on the tracking records, so untracking
 * removes an item's tags and tagging never tracks anything. Filtering the lists by tag: ./filter.ts;
 * grouping by tag: `tagCounts` (each tag's videos, accounts and their views), read by GET /tags.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, sqlExec, type Tx } from "../../infra/db.ts";
import { DomainError, notFound } from "../shared/errors.ts";
import type { BulkItemResult } from "../shared/inputs.ts";
import { pageSql, type Order, type Page, type PageRequest } from "../shared/pages.ts";
import { authorizeTagChange, type Changer } from "../actors/payout-holds.ts";
import { searchSql } from "../shared/search.ts";
import { DEFAULT_TAG_COLOR } from "./inputs.ts";

export interface TagRecord {
  id: string;
  name: string;
  color: string;
  createdAt: Date;
}

/** What a tag groups: its tracked videos and accounts, and the views of its videos. */
export interface TagCounts {
  videoCount: number;
  accountCount: number;
  /** Sum of the latest view counts of the tag's videos (not yet scraped: 0). */
  totalViews: number;
}

export type TagSummary = TagRecord & TagCounts;

const TAG_COLUMNS = Prisma.raw(`t.id, t.name, t.color, t.created_at AS "createdAt"`);

/** The workspace's tags by name (the database's collation), ties by id. */
export const TAGS_ORDER: Order<TagRecord> = [
  { sql: "t.name", type: "text", value: (t) => t.name },
  { sql: "t.id", type: "uuid", value: (t) => t.id },
];

const nameTaken = (name: string) =>
  new DomainError("TAG_EXISTS", `A tag named “${name}” already exists in this workspace (names are compared without regard to case).`);

/** PostgreSQL's unique_violation of the case-insensitive name index (a concurrent create or rename). */
const isNameClash = (e: unknown) => typeof e === "object" && e !== null && (e as { code?: string }).code === "23505";

export async function createTag(workspaceId: string, input: { name: string; color?: string }): Promise<TagRecord> {
  const [tag] = await sql<TagRecord>(Prisma.sql`
    INSERT INTO tags AS t (workspace_id, name, color) VALUES (${workspaceId}::uuid, ${input.name}, ${input.color ?? DEFAULT_TAG_COLOR})
    ON CONFLICT (workspace_id, lower(name)) DO NOTHING
    RETURNING ${TAG_COLUMNS}`);
  if (!tag) throw nameTaken(input.name);
  return tag;
}

/** Which tags a list holds: `q`, words of their names (all tags without it). */
export interface TagListFilter {
  q?: string;
}

/** A page of the workspace's tags (TAGS_ORDER), with the total of the filter's tags. */
export async function listTags(workspaceId: string, page: PageRequest, filter: TagListFilter = {}): Promise<Page<TagRecord>> {
  const p = pageSql(TAGS_ORDER, page);
  const named = searchSql(Prisma.sql`lower(t.name)`, filter.q);
  const [items, [count]] = await Promise.all([
    sql<TagRecord>(
      Prisma.sql`SELECT ${TAG_COLUMNS} FROM tags t WHERE t.workspace_id = ${workspaceId}::uuid ${named} ${p.where} ${p.orderBy} ${p.limit}`,
    ),
    sql<{ n: number }>(Prisma.sql`SELECT count(*) AS n FROM tags t WHERE t.workspace_id = ${workspaceId}::uuid ${named}`),
  ]);
  return { items, total: count!.n };
}

/** Tags of the workspace by id, in any order; other ids are left out. */
export async function tagsByIds(workspaceId: string, tagIds: readonly string[]): Promise<TagRecord[]> {
  if (tagIds.length === 0) return [];
  return sql<TagRecord>(
    Prisma.sql`SELECT ${TAG_COLUMNS} FROM tags t WHERE t.workspace_id = ${workspaceId}::uuid AND t.id = ANY(${tagIds as string[]}::uuid[])`,
  );
}

/** The counts of many tags of the workspace in one statement (the "group by tag" of every door). */
export async function tagCounts(workspaceId: string, tagIds: readonly string[]): Promise<Map<string, TagCounts>> {
  if (tagIds.length === 0) return new Map();
  const rows = await sql<TagCounts & { id: string }>(Prisma.sql`
    SELECT t.id::text AS id,
           (SELECT count(*) FROM video_tags vt WHERE vt.tag_id = t.id) AS "videoCount",
           (SELECT count(*) FROM account_tags atg WHERE atg.tag_id = t.id) AS "accountCount",
           (SELECT coalesce(sum(v.view_count), 0) FROM video_tags vt JOIN tracked_videos tv ON tv.id = vt.tracked_video_id
              JOIN videos v ON v.id = tv.video_id WHERE vt.tag_id = t.id)::int8 AS "totalViews"
      FROM tags t WHERE t.workspace_id = ${workspaceId}::uuid AND t.id = ANY(${tagIds as string[]}::uuid[])`);
  return new Map(rows.map(({ id, ...counts }) => [id, counts]));
}

const NO_COUNTS: TagCounts = { videoCount: 0, accountCount: 0, totalViews: 0 };

export async function listTagSummaries(workspaceId: string, page: PageRequest, filter: TagListFilter = {}): Promise<Page<TagSummary>> {
  const { items, total } = await listTags(workspaceId, page, filter);
  const counts = await tagCounts(
    workspaceId,
    items.map((t) => t.id),
  );
  return { items: items.map((t) => ({ ...t, ...(counts.get(t.id) ?? NO_COUNTS) })), total };
}

/** The tag if it belongs to the workspace, else NOT_FOUND. */
export async function requireTag(workspaceId: string, tagId: string): Promise<TagRecord> {
  const [tag] = await tagsByIds(workspaceId, [tagId]);
  if (!tag) throw notFound("Tag");
  return tag;
}

export async function getTagSummary(workspaceId: string, tagId: string): Promise<TagSummary> {
  const tag = await requireTag(workspaceId, tagId);
  return { ...tag, ...((await tagCounts(workspaceId, [tagId])).get(tagId) ?? NO_COUNTS) };
}

/** Renames and/or recolours a tag; answers what this request wrote. */
export async function updateTag(workspaceId: string, tagId: string, change: { name?: string; color?: string }): Promise<TagRecord> {
  try {
    const [tag] = await sql<TagRecord>(Prisma.sql`
      UPDATE tags AS t SET name = coalesce(${change.name ?? null}, t.name), color = coalesce(${change.color ?? null}, t.color), updated_at = now()
       WHERE t.id = ${tagId}::uuid AND t.workspace_id = ${workspaceId}::uuid
      RETURNING ${TAG_COLUMNS}`);
    if (!tag) throw notFound("Tag");
    return tag;
  } catch (e) {
    if (isNameClash(e)) throw nameTaken(change.name ?? "");
    throw e;
  }
}

/**
 * Deletes the tag; the items it was on stay tracked (their tag memberships go with it). An active campaign filtering by
 * it then counts every video of its members (its filter goes): an owner's change (actors/payout-holds.ts).
 */
export async function deleteTag(actor: Changer, tagId: string): Promise<{ id: string }> {
  const workspaceId = actor.workspaceId;
  await authorizeTagChange(actor, tagId);
  const { count } = await prisma.tag.deleteMany({ where: { id: tagId, workspaceId } });
  if (count === 0) throw notFound("Tag");
  return { id: tagId };
}

/** One kind of taggable tracked item: its tracking table and its tag table. */
interface Taggable {
  tracking: Prisma.Sql;
  item: Prisma.Sql;
  tags: Prisma.Sql;
  member: Prisma.Sql;
  notFound: string;
}
const VIDEOS: Taggable = {
  tracking: Prisma.raw("tracked_videos"),
  item: Prisma.raw("video_id"),
  tags: Prisma.raw("video_tags"),
  member: Prisma.raw("tracked_video_id"),
  notFound: "Video not found",
};
const ACCOUNTS: Taggable = {
  tracking: Prisma.raw("tracked_accounts"),
  item: Prisma.raw("account_id"),
  tags: Prisma.raw("account_tags"),
  member: Prisma.raw("tracked_account_id"),
  notFound: "Account not found",
};

/** Locks the tag against deletion for the rest of the transaction, so no membership of a vanished tag is inserted. */
async function lockTag(tx: Tx, workspaceId: string, tagId: string): Promise<void> {
  const rows = await sql<{ id: string }>(
    Prisma.sql`SELECT id FROM tags WHERE id = ${tagId}::uuid AND workspace_id = ${workspaceId}::uuid FOR KEY SHARE`,
    { tx },
  );
  if (rows.length === 0) throw notFound("Tag");
}

/**
 * Puts the tag on the workspace's tracked items `ids`, each on its own: success when the item carries
 * the tag afterwards (already tagged included), `notFound` when the workspace does not track it. The
 * tracking rows are read FOR KEY SHARE, as folder membership does (src/domain/folders/service.ts,
 * TRACKED_ROWS_LOCKED): a concurrent untrack never turns into a foreign-key failure.
 */
async function tagItems(k: Taggable, workspaceId: string, tagId: string, ids: string[]): Promise<BulkItemResult[]> {
  return prisma.$transaction(async (tx) => {
    await lockTag(tx, workspaceId, tagId);
    const found = await sql<{ itemId: string }>(
      Prisma.sql`
      WITH tracked AS (
        SELECT id, ${k.item} FROM ${k.tracking} WHERE workspace_id = ${workspaceId}::uuid AND ${k.item} = ANY(${ids}::uuid[]) FOR KEY SHARE
      ), added AS (
        INSERT INTO ${k.tags} (tag_id, ${k.member}) SELECT ${tagId}::uuid, id FROM tracked ON CONFLICT DO NOTHING
      )
      SELECT ${k.item}::text AS "itemId" FROM tracked`,
      { tx },
    );
    const tracked = new Set(found.map((r) => r.itemId));
    // PostgreSQL answers UUIDs in lower case; a client may send them in any case.
    return ids.map((id) => (tracked.has(id.toLowerCase()) ? { id, success: true } : { id, success: false, error: k.notFound }));
  });
}

/** Takes the tag off the workspace's tracked items `ids`; answers how many carried it. Ids not tagged are ignored. */
async function untagItems(k: Taggable, workspaceId: string, tagId: string, ids: string[]): Promise<{ removed: number }> {
  await requireTag(workspaceId, tagId);
  const removed = await sqlExec(Prisma.sql`
    DELETE FROM ${k.tags} m USING ${k.tracking} t
     WHERE m.tag_id = ${tagId}::uuid AND m.${k.member} = t.id AND t.workspace_id = ${workspaceId}::uuid AND t.${k.item} = ANY(${ids}::uuid[])`);
  return { removed };
}

/** Tagging or untagging videos with a tag an active campaign filters by changes what it pays: an owner's change. */
export async function tagVideos(actor: Changer, tagId: string, videoIds: string[]): Promise<BulkItemResult[]> {
  await authorizeTagChange(actor, tagId);
  return tagItems(VIDEOS, actor.workspaceId, tagId, videoIds);
}
export async function untagVideos(actor: Changer, tagId: string, videoIds: string[]): Promise<{ removed: number }> {
  await authorizeTagChange(actor, tagId);
  return untagItems(VIDEOS, actor.workspaceId, tagId, videoIds);
}
export const tagAccounts = (actor: Changer, tagId: string, accountIds: string[]) =>
  tagItems(ACCOUNTS, actor.workspaceId, tagId, accountIds);
export const untagAccounts = (actor: Changer, tagId: string, accountIds: string[]) =>
  untagItems(ACCOUNTS, actor.workspaceId, tagId, accountIds);

/** The tags of many tracked items (by video or canonical account id), by name; one statement. */
async function tagsOf(k: Taggable, workspaceId: string, ids: readonly string[]): Promise<Map<string, TagRecord[]>> {
  const out = new Map<string, TagRecord[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await sql<TagRecord & { itemId: string }>(Prisma.sql`
    SELECT i.${k.item}::text AS "itemId", ${TAG_COLUMNS}
      FROM ${k.tracking} i JOIN ${k.tags} m ON m.${k.member} = i.id JOIN tags t ON t.id = m.tag_id
     WHERE i.workspace_id = ${workspaceId}::uuid AND i.${k.item} = ANY(${ids as string[]}::uuid[])
     ORDER BY t.name, t.id`);
  for (const { itemId, ...tag } of rows) out.get(itemId)?.push(tag);
  return out;
}

export const tagsOfVideos = (workspaceId: string, videoIds: readonly string[]) => tagsOf(VIDEOS, workspaceId, videoIds);
export const tagsOfAccounts = (workspaceId: string, accountIds: readonly string[]) => tagsOf(ACCOUNTS, workspaceId, accountIds);
