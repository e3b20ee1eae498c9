/**
 * Export jobs (docs/exports.md): a workspace starts an export of one list (GraphQL `startExport`, MCP
 * `export_list`, the dashboard's Export button, REST POST /exports); a BullMQ job (./run.ts) writes the
 * file under EXPORT_DIR; the workspace reads its status and progress and downloads the file through a
 * short-lived signed link (./links.ts) until it expires (EXPORT_RETENTION_HOURS), when the sweep deletes
 * the file and the row.
 *
 * Rules: the request is checked when it is started (the role rule of owner-only lists, the list's own
 * filter schema, the folder, video, account or search belonging to the workspace), so a refusal is
 * immediate; at most EXPORT_MAX_CONCURRENT exports of a workspace are queued or running at once (429
 * EXPORT_LIMIT_REACHED), checked under a per-workspace transaction lock so two concurrent starts cannot
 * both pass; every read is scoped to the workspace (another workspace's export is NOT_FOUND).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql } from "../../infra/db.ts";
import { config } from "../../config.ts";
import { DomainError, notFound } from "../shared/errors.ts";
import { parseInput } from "../shared/inputs.ts";
import { pageSql, type Order, type Page, type PageRequest } from "../shared/pages.ts";
import { principalId, type Actor } from "../actors/actor.ts";
import { openExport } from "./stream.ts";
import { startExportInput, type ExportStatus } from "./inputs.ts";
import { EXPORT_KINDS, kindOf, type ExportKind } from "./kinds.ts";
import { may } from "../actors/roles.ts";
import type { ExportFormat } from "./writers.ts";
import { enqueueExport } from "./jobs.ts";
import { announceExport } from "./events.ts";
import { tokenAllows } from "./links.ts";

export interface ExportRecord {
  id: string;
  workspaceId: string;
  kind: ExportKind;
  format: ExportFormat;
  bom: boolean;
  filter: Record<string, unknown>;
  status: ExportStatus;
  rowsWritten: number;
  /** The rows the list had when the job started; null before. */
  totalRows: number | null;
  bytes: number | null;
  error: string | null;
  fileName: string | null;
  createdBy: string;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date | null;
}

export const EXPORT_COLUMNS =
  Prisma.raw(`e.id, e.workspace_id AS "workspaceId", e.kind, e.format, e.bom, e.filter, e.status, e.rows_written AS "rowsWritten", e.total_rows AS "totalRows",
  e.bytes, e.error, e.file_name AS "fileName", e.created_by AS "createdBy", e.created_at AS "createdAt", e.started_at AS "startedAt",
  e.finished_at AS "finishedAt", e.expires_at AS "expiresAt"`);

/** Newest first, ties by id. */
export const EXPORTS_ORDER: Order<ExportRecord> = [
  { sql: "e.created_at", type: "timestamptz", desc: true, value: (e) => e.createdAt },
  { sql: "e.id", type: "uuid", desc: true, value: (e) => e.id },
];

/** 429: the workspace already has EXPORT_MAX_CONCURRENT exports queued or running. */
export class ExportLimitError extends DomainError {
  override readonly retryAfterSeconds = 10;
  constructor(max: number) {
    super(
      "EXPORT_LIMIT_REACHED",
      `This workspace already has ${max} exports queued or running (EXPORT_MAX_CONCURRENT): wait for one to finish, then start this one again.`,
    );
  }
}

/** Starts an export: checks it, records it (under the workspace's cap) and queues its job. */
export async function startExport(actor: Actor, input: unknown): Promise<ExportRecord> {
  const i = parseInput(startExportInput, input);
  // Every check of the list itself, before anything is recorded (nothing is read but what the check needs).
  await openExport(actor, i.kind, i.filter, { filterPath: "filter", batchSize: 1 });
  const max = config.exports.maxConcurrent;
  const row = await prisma.$transaction(async (tx) => {
    await sql(Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${`exports:${actor.workspaceId}`}, 0)) IS NULL AS locked`, { tx });
    const [active] = await sql<{ n: number }>(
      Prisma.sql`SELECT count(*)::int AS n FROM exports WHERE workspace_id = ${actor.workspaceId}::uuid AND status IN ('queued', 'running')`,
      { tx },
    );
    if (active!.n >= max) throw new ExportLimitError(max);
    const [created] = await sql<ExportRecord>(
      Prisma.sql`INSERT INTO exports AS e (workspace_id, kind, format, bom, filter, created_by)
                 VALUES (${actor.workspaceId}::uuid, ${i.kind}, ${i.format}, ${i.bom}, ${JSON.stringify(i.filter)}::jsonb, ${principalId(actor.principal)})
                 RETURNING ${EXPORT_COLUMNS}`,
      { tx },
    );
    return created!;
  });
  await enqueueExport(row.id);
  announceExport(row);
  return row;
}

/** Who reads exports: their workspace, and their role (an export of an owner-only list is not the others'). */
export type ExportReader = Pick<Actor, "workspaceId" | "role">;

/**
 * The kinds the reader may not see, even as someone else's export: the owner-only lists (the audit log). Checked when an
 * export starts (openExport) AND when one is read, so a member never gets the link to an owner's audit-log file.
 */
function hiddenKinds(reader: ExportReader): string[] {
  return EXPORT_KINDS.filter((k) => {
    const permission = kindOf(k).permission;
    return permission !== undefined && !may(reader.role, permission);
  });
}

/** Exports of the workspace by id, in any order; other ids (and kinds the reader may not see) are left out. */
export async function exportsByIds(reader: ExportReader, ids: readonly string[]): Promise<ExportRecord[]> {
  if (ids.length === 0) return [];
  return sql<ExportRecord>(Prisma.sql`SELECT ${EXPORT_COLUMNS} FROM exports e
    WHERE e.workspace_id = ${reader.workspaceId}::uuid AND e.id = ANY(${ids as string[]}::uuid[]) AND e.kind <> ALL(${hiddenKinds(reader)}::text[])`);
}

/** One export of the workspace (another workspace's, or one the reader may not see: NOT_FOUND). */
export async function getExport(reader: ExportReader, id: string): Promise<ExportRecord> {
  const [e] = await exportsByIds(reader, [id]);
  if (!e) throw notFound("Export");
  return e;
}

/** A page of the workspace's exports the reader may see (newest first), with the total. */
export async function listExports(reader: ExportReader, page: PageRequest): Promise<Page<ExportRecord>> {
  const p = pageSql(EXPORTS_ORDER, page);
  const visible = Prisma.sql`e.workspace_id = ${reader.workspaceId}::uuid AND e.kind <> ALL(${hiddenKinds(reader)}::text[])`;
  const [items, [count]] = await Promise.all([
    sql<ExportRecord>(Prisma.sql`SELECT ${EXPORT_COLUMNS} FROM exports e WHERE ${visible} ${p.where} ${p.orderBy} ${p.limit}`),
    sql<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM exports e WHERE ${visible}`),
  ]);
  return { items, total: count!.n };
}

/** An export's progress from 0 to 1: 1 once completed, 0 while queued, rows written of the rows counted when it started (at most 1: rows may be added meanwhile). */
export function progressOf(e: Pick<ExportRecord, "status" | "rowsWritten" | "totalRows">): number | null {
  if (e.status === "completed") return 1;
  if (e.status === "queued") return 0;
  if (e.status !== "running" || e.totalRows === null) return null;
  return e.totalRows === 0 ? 1 : Math.min(1, e.rowsWritten / e.totalRows);
}

/**
 * The file a signed download link names (./links.ts): the export must be completed and the token valid for
 * it and its workspace, unexpired; anything else (altered or expired token, another workspace's export,
 * an unknown id, a file not written yet or expired) is the same NOT_FOUND.
 */
export async function exportForDownload(id: string, token: string, now = new Date()): Promise<ExportRecord> {
  const [e] = await sql<ExportRecord>(Prisma.sql`SELECT ${EXPORT_COLUMNS} FROM exports e WHERE e.id = ${id}::uuid`);
  if (!e || e.status !== "completed" || !(e.expiresAt && e.expiresAt > now) || !(await tokenAllows(token, e, now)))
    throw notFound("Export");
  return e;
}
