/**
 * A list's file columns come from the record its doors answer with: the record schema's fields in
 * order, typed by their schemas (numbers, booleans, timestamps; anything else text), an object field
 * flattened only where asked; the cells are the mapper's record. And every export kind's columns are its
 * REST record's fields (plus what only the file adds), so a field added to a record reaches its file.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { recordColumns } from "../../src/domain/exports/columns.js";
import { csvCell } from "../../src/domain/exports/writers.js";
import { columnNames } from "../../src/domain/exports/stream.js";
import { int, iso, timestamp } from "../../src/domain/shared/records.js";
import { accountSchema, trackedVideoSchema } from "../../src/domain/tracking/records.js";
import { ledgerEntry } from "../../src/domain/credits/records.js";
import { auditEntry } from "../../src/domain/actors/records.js";

describe("record columns", () => {
  const schema = z.object({
    id: z.string(),
    views: int().nullable().meta({ description: "Views." }),
    at: timestamp.nullable().meta({ description: "When." }),
    live: z.boolean(),
    kind: z.enum(["a", "b"]),
    tags: z.array(z.string()),
    who: z.object({ kind: z.string(), since: timestamp }),
    rules: z.object({ min: int() }),
    note: z.string().optional(),
  });
  const row = { id: "x", views: 12, at: new Date("2026-01-02T03:04:05.678Z"), live: false, kind: "b", tags: ["p", "q"], min: 3 };
  const file = recordColumns(
    schema,
    (r: typeof row) => ({
      id: r.id,
      views: r.views,
      at: iso(r.at),
      live: r.live,
      kind: r.kind,
      tags: r.tags,
      who: { kind: "user", since: "2026-01-01T00:00:00.000Z" },
      rules: { min: r.min },
    }),
    { flatten: ["who"] },
  );

  it("names and types the columns after the record's fields, flattening only what is asked", () => {
    expect(file.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      "id:text",
      "views:number",
      "at:date",
      "live:boolean",
      "kind:text",
      "tags:text",
      "who.kind:text",
      "who.since:date",
      "rules:text",
      "note:text",
    ]);
  });

  it("writes the record's values: lists joined, objects as JSON, absent as empty", () => {
    const rec = file.of(row);
    expect(file.columns.map((c) => csvCell(c.type, c.value(rec)))).toEqual([
      "x",
      "12",
      "2026-01-02T03:04:05.678Z",
      "false",
      "b",
      "p q",
      "user",
      "2026-01-01T00:00:00.000Z",
      '{"min":3}',
      "",
    ]);
  });

  it("gives each export kind its REST record's fields, in the record's order", () => {
    expect(columnNames("videos")).toEqual(Object.keys(trackedVideoSchema.shape));
    expect(columnNames("accounts")).toEqual(Object.keys(accountSchema.shape));
    expect(columnNames("folder_accounts")).toEqual([...Object.keys(accountSchema.shape), "addedAt"]);
    expect(columnNames("credit_ledger")).toEqual(Object.keys(ledgerEntry.shape));
    expect(columnNames("audit_log")).toEqual(
      Object.keys(auditEntry.shape).flatMap((k) => (k === "actor" ? ["actor.kind", "actor.id", "actor.label"] : [k])),
    );
  });
});
