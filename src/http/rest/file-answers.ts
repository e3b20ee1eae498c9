/**
 * A REST list answered as a file (docs/exports.md): `format=csv|xlsx`, or `Accept: text/csv` /
 * the XLSX media type, on a route that declares `exportAs`. Every row matching the list's filter is
 * streamed (not one page), read in keyset batches by the domain (src/domain/exports/), with backpressure
 * onto the response; the headers leave as soon as the request is checked, so the first bytes arrive
 * at once. A refusal (unknown folder, bad filter, owner-only list) is the usual `{code, message}`, since
 * everything is checked before the first byte; a failure after it cuts the response short (the client
 * sees an incomplete transfer, never a file that looks complete).
 */
import type { Request, Response } from "express";
import { parseInput } from "../../domain/shared/inputs.ts";
import type { Actor } from "../../domain/actors/actor.ts";
import { openExport } from "../../domain/exports/stream.ts";
import { listFormatQuery } from "../../domain/exports/inputs.ts";
import { MEDIA_TYPES, type ExportFormat } from "../../domain/exports/writers.ts";
import type { ExportKind } from "../../domain/exports/kinds.ts";
import { logger } from "../../infra/logger.ts";
import { queryParams } from "./schemas.ts";

const XLSX = MEDIA_TYPES.xlsx;
const formatQuery = queryParams(listFormatQuery);

/** The file format a list request asks for: `format`, else the Accept header's preference; null for JSON. */
export function askedFileFormat(req: Request): ExportFormat | null {
  const { format } = parseInput(formatQuery, { format: req.query.format, bom: req.query.bom }, "query");
  if (format) return format === "json" ? null : format;
  if (!req.headers.accept) return null;
  const best = req.accepts(["application/json", "text/csv", XLSX]);
  return best === "text/csv" ? "csv" : best === XLSX ? "xlsx" : null;
}

/** `attachment; filename=…` (the name is ASCII by construction). */
const disposition = (name: string) => `attachment; filename="${name}"`;

export async function answerFile(
  exportAs: { kind: ExportKind; params?: (params: Record<string, string>) => Record<string, unknown> },
  format: ExportFormat,
  req: Request,
  res: Response,
  auth: Actor,
): Promise<void> {
  const { bom } = parseInput(formatQuery, { bom: req.query.bom }, "query");
  const { format: _f, bom: _b, limit: _l, offset: _o, ...filter } = req.query as Record<string, unknown>;
  const opened = await openExport(
    auth,
    exportAs.kind,
    { ...filter, ...(exportAs.params?.(req.params as Record<string, string>) ?? {}) },
    {
      filterPath: "query",
      readFilter: (schema) => queryParams(schema),
    },
  );
  res.status(200);
  res.setHeader("Content-Type", opened.mediaType(format));
  res.setHeader("Content-Disposition", disposition(opened.fileName(format)));
  res.setHeader("Cache-Control", "no-store");
  res.flushHeaders();
  try {
    await opened.write(format, res, { bom });
  } catch (err) {
    if (!res.destroyed) {
      logger.error({ err, kind: exportAs.kind, format }, "an export stopped while streaming");
      res.destroy(err as Error);
    }
  }
}
