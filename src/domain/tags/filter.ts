/**
 * The tag filter as SQL, for the lists of the tracking area (./inputs.ts `tagFilter`): kept here so
 * the rule "an item matches when it carries any of the tags" is written once. Tags hang on the
 * tracking records, which belong to one workspace, so another workspace's tag id can match nothing.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { tagIdsOf } from "./inputs.ts";

/** `EXISTS …` over a list whose tracked video is `tv` (null without tags). */
export function videoTagsSql(tag: string | string[] | undefined): Prisma.Sql | null {
  const ids = tagIdsOf(tag);
  if (ids.length === 0) return null;
  return Prisma.sql`EXISTS (SELECT 1 FROM video_tags vt WHERE vt.tracked_video_id = tv.id AND vt.tag_id = ANY(${ids}::uuid[]))`;
}

/** `EXISTS …` over a list whose tracked account is `ta` (null without tags). */
export function accountTagsSql(tag: string | string[] | undefined): Prisma.Sql | null {
  const ids = tagIdsOf(tag);
  if (ids.length === 0) return null;
  return Prisma.sql`EXISTS (SELECT 1 FROM account_tags atg WHERE atg.tracked_account_id = ta.id AND atg.tag_id = ANY(${ids}::uuid[]))`;
}

/**
 * `EXISTS …` over a list of videos `v` without their tracking row (a folder's video set): the
 * workspace's tracking of the video carries any of the tags (null without tags).
 */
export function videoIdTagsSql(workspaceId: string, tag: string | string[] | undefined): Prisma.Sql | null {
  const ids = tagIdsOf(tag);
  if (ids.length === 0) return null;
  return Prisma.sql`EXISTS (SELECT 1 FROM tracked_videos tvt JOIN video_tags vt ON vt.tracked_video_id = tvt.id
     WHERE tvt.workspace_id = ${workspaceId}::uuid AND tvt.video_id = v.id AND vt.tag_id = ANY(${ids}::uuid[]))`;
}
