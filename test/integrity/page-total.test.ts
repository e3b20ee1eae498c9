/**
 * A page and its list's total from one snapshot (src/domain/shared/pages.ts, `pageAndTotal`), an empty page too.
 * Counted in a statement of their own, an empty page's counts saw a row written after the page was read: a total of 1
 * beside an empty first page (test/mail/mail.test.ts's race, once in CI). Here the page's own statement writes that row
 * (a volatile function in its filter: the row is invisible to the statement that wrote it), so the race happens every
 * time instead of once in many runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageAndTotal, type Order } from "../../src/domain/shared/pages.js";
import { Prisma } from "../../src/generated/prisma/client.js";
import { sqlExec } from "../../src/infra/db.js";

const T = `page_total_${process.pid}`;

beforeAll(async () => {
  await sqlExec(Prisma.raw(`CREATE TABLE ${T} (id int PRIMARY KEY)`));
  await sqlExec(Prisma.raw(`CREATE TABLE ${T}_written (x int)`));
  // Writes the row id 1 the first time it is called, nothing after; returns 1.
  await sqlExec(
    Prisma.raw(
      `CREATE FUNCTION ${T}_write() RETURNS int VOLATILE LANGUAGE plpgsql AS $$ BEGIN IF NOT EXISTS (SELECT 1 FROM ${T}_written) THEN INSERT INTO ${T}_written VALUES (1); INSERT INTO ${T} VALUES (1); END IF; RETURN 1; END $$`,
    ),
  );
  await sqlExec(Prisma.raw(`INSERT INTO ${T} VALUES (0)`)); // a row the list leaves out: the filter runs on it
});
afterAll(async () => {
  await sqlExec(Prisma.raw(`DROP FUNCTION ${T}_write(); DROP TABLE ${T}_written; DROP TABLE ${T}`));
});

describe("a page and its total", () => {
  it("agree when a row is written after the page was read and before its counts would have been", async () => {
    const order: Order<{ id: number }> = [{ sql: "n.id", type: "int4", value: (r) => r.id }];
    // The list is the rows with an id above 0; its filter says so through the function (which returns 1).
    const page = await pageAndTotal(
      order,
      { limit: 10, offset: 0 },
      {
        columns: Prisma.raw("n.id"),
        from: Prisma.raw(`${T} n`),
        where: Prisma.raw(`(${T}_write() + n.id) > 1`),
        count: Prisma.raw(`SELECT count(*)::int FROM ${T} n WHERE n.id > 0`),
      },
    );
    expect(page.items.map((r) => r.id)).toEqual(Array.from({ length: page.total }, (_, i) => i + 1));
    expect(page.total, "the row written meanwhile is counted and shown").toBe(1);
  });
});
