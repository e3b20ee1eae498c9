/**
 * Saved views: a person's named filters, sort, columns and tags of a list, private or
 * shared with the workspace.
 *
 * Who sees what (one rule, `VISIBLE`, in every read): a private view only its owner, in the
 * workspace it was saved in; a shared view every member of that workspace (and the workspace's API
 * keys, which act for no person and so see shared views only). Only its owner changes a view; a
 * shared view may also be deleted by a workspace owner (a departed member's views stay tidy).
 * Saving needs a person: an API key is FORBIDDEN to save (a view belongs to someone).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { sql, sqlExec } from "../../infra/db.ts";
import type { Actor } from "../actors/actor.ts";
import { DomainError, notFound } from "../shared/errors.ts";
import { parseInput } from "../shared/inputs.ts";
import { VIEW_CONTENT, type SavedViewContent, type SavedViewList, type createSavedViewInput, type updateSavedViewInput } from "./inputs.ts";
import type { z } from "zod";

export interface SavedView {
  id: string;
  list: SavedViewList;
  name: string;
  shared: boolean;
  content: SavedViewContent;
  ownerId: string;
  /** The owner's name, as the workspace's members see it. */
  ownerName: string;
  createdAt: Date;
  updatedAt: Date;
  /** The list's order key (name lower-cased, then id), compared byte-wise ("C"): a connection's cursor. */
  sortKey: string;
}

/** At most this many views per person and workspace (a list of views stays a list one can read). */
export const MAX_VIEWS_PER_PERSON = 100;

const personOf = (actor: Actor): string | null => (actor.principal.kind === "user" ? actor.principal.id : null);

const SORT_KEY = Prisma.sql`(lower(s.name) || chr(1) || s.id::text)`;
const COLUMNS = Prisma.sql`s.id, s.list, s.name, s.shared, s.content, s.owner_id AS "ownerId", u.name AS "ownerName",
  s.created_at AS "createdAt", s.updated_at AS "updatedAt", ${SORT_KEY} AS "sortKey"`;

/** `AND …` over `saved_views s`: the actor's workspace, and its shared views or the person's own. */
function visible(actor: Actor): Prisma.Sql {
  const me = personOf(actor);
  return Prisma.sql`s.workspace_id = ${actor.workspaceId}::uuid AND (s.shared OR s.owner_id = ${me}::uuid)`;
}

/** The views the actor sees, of one list or all, by name. */
export async function listSavedViews(actor: Actor, list?: SavedViewList): Promise<SavedView[]> {
  const ofList = list ? Prisma.sql`AND s.list = ${list}` : Prisma.empty;
  return sql<SavedView>(Prisma.sql`SELECT ${COLUMNS} FROM saved_views s JOIN users u ON u.id = s.owner_id
    WHERE ${visible(actor)} ${ofList} ORDER BY ${SORT_KEY} COLLATE "C"`);
}

/** Views by id, those the actor sees (any order; others left out). */
export async function savedViewsByIds(actor: Actor, ids: readonly string[]): Promise<SavedView[]> {
  if (ids.length === 0) return [];
  return sql<SavedView>(Prisma.sql`SELECT ${COLUMNS} FROM saved_views s JOIN users u ON u.id = s.owner_id
    WHERE ${visible(actor)} AND s.id = ANY(${ids as string[]}::uuid[])`);
}

async function requireVisible(actor: Actor, id: string): Promise<SavedView> {
  const [view] = await savedViewsByIds(actor, [id]);
  if (!view) throw notFound("Saved view");
  return view;
}

function requirePerson(actor: Actor): string {
  const me = personOf(actor);
  if (!me)
    throw new DomainError(
      "FORBIDDEN",
      "Saved views belong to a person: sign in to the dashboard to save one (an API key can read the shared ones).",
    );
  return me;
}

export async function createSavedView(actor: Actor, input: z.output<typeof createSavedViewInput>): Promise<SavedView> {
  const me = requirePerson(actor);
  const content = parseInput(VIEW_CONTENT[input.list], input.content ?? {}, "content");
  const [row] = await sql<{ id: string }>(Prisma.sql`
    INSERT INTO saved_views (workspace_id, owner_id, list, name, shared, content)
    SELECT ${actor.workspaceId}::uuid, ${me}::uuid, ${input.list}, ${input.name}, ${input.shared}, ${JSON.stringify(content)}::jsonb
     WHERE (SELECT count(*) FROM saved_views WHERE workspace_id = ${actor.workspaceId}::uuid AND owner_id = ${me}::uuid) < ${MAX_VIEWS_PER_PERSON}
    RETURNING id`);
  if (!row) throw new DomainError("VALIDATION_ERROR", `At most ${MAX_VIEWS_PER_PERSON} saved views per person: delete one first.`);
  return requireVisible(actor, row.id);
}

/** Changes the name, the sharing or the content (validated against the view's list) of the person's own view. */
export async function updateSavedView(actor: Actor, id: string, patch: z.output<typeof updateSavedViewInput>): Promise<SavedView> {
  const me = requirePerson(actor);
  const view = await requireVisible(actor, id);
  if (view.ownerId !== me) throw new DomainError("FORBIDDEN", "Only the person who saved a view can change it.");
  const content = patch.content === undefined ? null : JSON.stringify(parseInput(VIEW_CONTENT[view.list], patch.content, "content"));
  await sqlExec(Prisma.sql`
    UPDATE saved_views SET name = COALESCE(${patch.name ?? null}, name), shared = COALESCE(${patch.shared ?? null}::boolean, shared),
           content = COALESCE(${content}::jsonb, content), updated_at = now()
     WHERE id = ${id}::uuid`);
  return requireVisible(actor, id);
}

/** Deletes the person's own view, or a shared view when the actor owns the workspace; answers its id. */
export async function deleteSavedView(actor: Actor, id: string): Promise<{ id: string }> {
  const view = await requireVisible(actor, id);
  const mayDelete = view.ownerId === personOf(actor) || (view.shared && actor.role === "owner" && personOf(actor) !== null);
  if (!mayDelete)
    throw new DomainError("FORBIDDEN", "Only the person who saved a view (or a workspace owner, for a shared view) can delete it.");
  await sqlExec(Prisma.sql`DELETE FROM saved_views WHERE id = ${id}::uuid`);
  return { id };
}
