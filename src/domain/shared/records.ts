/**
 * Pieces of the records the service answers with (REST items, MCP results, the columns of exports):
 * ids, platforms, integers and timestamps. REST documents them in its OpenAPI document; an export's
 * columns take their names and types from the same schemas (src/domain/exports/columns.ts).
 */
import { z } from "zod";
import { PLATFORMS } from "./platform.ts";
import { uuid as inputUuid } from "./inputs.ts";

export const uuid = inputUuid.meta({ format: "uuid", example: "3f1c1e0e-8d3b-4c35-9a4f-0d7f2b7c9a11" });

export const platform = z.enum(PLATFORMS).meta({
  description:
    "platformA: short-form video platform; platformB: video platform with long videos and shorts; platformC: photo and reel sharing platform.",
});

/** An integer (counts, totals). */
export const int = () => z.number().int();

/** Timestamp output: ISO 8601 UTC with milliseconds. */
export const timestamp = z.string().meta({ format: "date-time", example: "2026-11-22T10:15:00.000Z" });
export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);
