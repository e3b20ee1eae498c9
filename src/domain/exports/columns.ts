/**
 * A list's columns in a file, read from the record its doors answer with (the zod schema of the area's
 * records.ts): a column per field of the record, named as the field and in its order; its type from
 * the field's schema (a number, a boolean, a timestamp; anything else is text: lists joined by spaces,
 * objects as JSON); an object field named in `flatten` gives a column per field of it (`actor.kind`).
 * A row's cells are its record, made by the same mapper as the doors' answers. So a list's columns are
 * written once, by its record, for every door and every file.
 */
import { z } from "zod";
import type { Column, ColumnType } from "./writers.ts";

export type FileRecord = Record<string, unknown>;

/** How a list's rows become a file's rows: each row's record (`of`), written column by column. */
export interface RecordColumns<Row> {
  of(row: Row): FileRecord;
  columns: readonly Column<FileRecord>[];
}

function unwrapped(field: z.ZodType): z.ZodType {
  let inner = field;
  while (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  return inner;
}

function columnType(field: z.ZodType): ColumnType {
  const inner = unwrapped(field);
  if (inner instanceof z.ZodNumber) return "number";
  if (inner instanceof z.ZodBoolean) return "boolean";
  if (inner instanceof z.ZodString && z.globalRegistry.get(inner)?.format === "date-time") return "date";
  return "text";
}

/** The columns of `schema`'s fields (an object field in `flatten`: one per field of it), read from a record. */
function columnsOf(schema: z.ZodObject, flatten: readonly string[], read: (r: FileRecord) => unknown = (r) => r): Column<FileRecord>[] {
  return Object.entries(schema.shape).flatMap(([name, field]): Column<FileRecord>[] => {
    const value = (r: FileRecord) => (read(r) as FileRecord | null | undefined)?.[name];
    const inner = unwrapped(field as z.ZodType);
    if (flatten.includes(name) && inner instanceof z.ZodObject) {
      return columnsOf(inner, [], value).map((c) => ({ ...c, name: `${name}.${c.name}` }));
    }
    return [{ name, type: columnType(field as z.ZodType), value }];
  });
}

/** A list's file from its record: the record's schema names and types the columns, `of` makes each row's record. */
export function recordColumns<Row, Rec extends object>(
  schema: z.ZodObject,
  of: (row: Row) => Rec,
  opts: { flatten?: readonly string[] } = {},
): RecordColumns<Row> {
  return { of: of as (row: Row) => FileRecord, columns: columnsOf(schema, opts.flatten ?? []) };
}
