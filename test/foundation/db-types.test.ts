/**
 * TIMESTAMPTZ read by position (src/infra/db.ts, parseTimestamptz) gives the same instant as
 * node-postgres's general parser for every form PostgreSQL writes: fractions of 0 to 6 digits, other
 * offsets (another session time zone), years before 100, infinity. The texts come from PostgreSQL.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { parseTimestamptz, pgPool } from "../../src/infra/db.js";
import { stopAll } from "../helpers/api.js";

afterAll(() => stopAll());

const general = pg.types.getTypeParser(1184 as Parameters<typeof pg.types.getTypeParser>[0]) as (v: string) => Date | number;
const instant = (d: Date | number) => (d instanceof Date ? d.getTime() : d);

async function texts(timeZone: string): Promise<string[]> {
  const client = await pgPool.connect();
  try {
    await client.query(`SET TimeZone = '${timeZone}'`);
    const { rows } = await client.query<{ t: string }>(`
      SELECT t::text AS t FROM (
        SELECT timestamptz '2026-11-24 10:07:23.480123+00' + make_interval(secs => g * 7919.123457) AS t FROM generate_series(-5000, 5000) AS g
        UNION ALL SELECT unnest(ARRAY[timestamptz '2026-11-24 10:07:23+00', '2026-11-24 10:07:23.5+00', '2026-11-24 10:07:23.999999+00',
          '0050-06-01 12:00:00+00', '1970-01-01 00:00:00+00', '9999-12-31 23:59:59.999999+00', 'infinity', '-infinity'])
      ) AS x`);
    return rows.map((r) => r.t);
  } finally {
    await client.query("RESET TimeZone");
    client.release();
  }
}

describe("TIMESTAMPTZ parsing", () => {
  it.each(["UTC", "Asia/Kolkata", "America/St_Johns"])("the same instant as node-postgres's parser, session time zone %s", async (zone) => {
    const all = await texts(zone);
    expect(all.length).toBeGreaterThan(10_000);
    const differing = all.filter((t) => instant(parseTimestamptz(t)) !== instant(general(t)));
    expect(differing).toEqual([]);
    // The text it answers as (kept from PostgreSQL's, src/infra/db.ts Timestamp) is the one Date prints.
    const iso = (d: Date | number) => (d instanceof Date ? d.toISOString() : String(d));
    const printedOtherwise = all.filter(
      (t) => iso(parseTimestamptz(t)) !== iso(general(t)) || JSON.stringify(parseTimestamptz(t)) !== JSON.stringify(general(t)),
    );
    expect(printedOtherwise).toEqual([]);
  });

  it("a value changed by a setter prints its new instant", () => {
    const d = parseTimestamptz("2026-11-24 10:07:23.48+00");
    expect(d.toISOString()).toBe("2026-11-24T10:07:23.480Z");
    d.setUTCFullYear(2020);
    expect(d.toISOString()).toBe("2020-11-24T10:07:23.480Z");
    expect(JSON.stringify({ d })).toBe('{"d":"2020-11-24T10:07:23.480Z"}');
  });

  it("is what the pool's rows carry", async () => {
    const { rows } = await pgPool.query<{ t: Date }>(`SELECT timestamptz '2026-11-24 10:07:23.480999+00' AS t`);
    expect(rows[0]!.t.toISOString()).toBe("2026-11-24T10:07:23.480Z");
  });
});
