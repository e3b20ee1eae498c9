/**
 * Driver adapter for the Prisma CLI only (migrate deploy/dev/diff/reset, db seed), so migrations run
 * offline on Prisma 6.19's WebAssembly schema engine. Two upstream bugs are worked around here:
 *
 * 1. The stock adapter rejects PostgreSQL catalog types that the schema engine's introspection
 *    queries return ("Column type 'name' could not be deserialized", prisma/orm issue 27403). The
 *    pg client below reports those OIDs as `text` (and `name[]` as `text[]`).
 * 2. `connectToShadowDb` builds the shadow pool as `{...config, database}`; with a connection string
 *    the string wins and the "shadow" pool points at the MAIN database. Ours swaps the database name
 *    inside the URL and closes the shadow pool before dropping the shadow database.
 *
 * Delete this file when the upstream issue is fixed.
 */
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";

// char, name, int2vector, regproc, xid, cid, pg_node_tree, pg_ndistinct (shown as text)
const CATALOG_TEXT_OIDS = new Set([18, 19, 22, 24, 28, 30, 194, 2205, 3361, 3402, 5017]);
const NAME_ARRAY_OID = 1003;
const TEXT_OID = 25;
const TEXT_ARRAY_OID = 1009;
const parseTextArray = pg.types.getTypeParser(TEXT_ARRAY_OID as Parameters<typeof pg.types.getTypeParser>[0]) as (v: string) => string[];

type Field = { dataTypeID: number };
type Result = { fields?: Field[]; rows?: unknown[] };

function rewrite(result: Result | Result[]): void {
  for (const r of Array.isArray(result) ? result : [result]) {
    r.fields?.forEach((field, index) => {
      if (CATALOG_TEXT_OIDS.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
      else if (field.dataTypeID === NAME_ARRAY_OID) {
        field.dataTypeID = TEXT_ARRAY_OID;
        for (const row of r.rows ?? []) {
          const cells = row as unknown[] & Record<string, unknown>;
          const key = Array.isArray(row) ? index : (field as unknown as { name: string }).name;
          const value = (cells as Record<string | number, unknown>)[key];
          if (typeof value === "string") (cells as Record<string | number, unknown>)[key] = parseTextArray(value);
        }
      }
    });
  }
}

class CatalogTolerantClient extends pg.Client {
  // pg's query has many overloads; wrap both the callback and the promise forms.
  override query(...args: unknown[]): any {
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (err: Error | null, res: Result) => {
        if (!err && res) rewrite(res);
        (last as (e: Error | null, r: Result) => void)(err, res);
      };
      return (super.query as (...a: unknown[]) => unknown)(...args);
    }
    const config = args[0] as { callback?: (e: Error | null, r: Result) => void } | undefined;
    if (config && typeof config === "object" && typeof config.callback === "function") {
      const cb = config.callback;
      config.callback = (err, res) => {
        if (!err && res) rewrite(res);
        cb(err, res);
      };
      return (super.query as (...a: unknown[]) => unknown)(...args);
    }
    const out = (super.query as (...a: unknown[]) => unknown)(...args);
    if (out && typeof (out as Promise<Result>).then === "function") {
      return (out as Promise<Result>).then((res) => {
        rewrite(res);
        return res;
      });
    }
    return out;
  }
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export function migrateAdapter(connectionString: string) {
  const pool = new pg.Pool({ connectionString, Client: CatalogTolerantClient, allowExitOnIdle: true });
  const factory = new PrismaPg(pool);
  // Replace the buggy shadow-database handling (see the header comment).
  (factory as unknown as { connectToShadowDb: () => Promise<unknown> }).connectToShadowDb = async () => {
    const main = await factory.connect();
    const database = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID().replaceAll("-", "")}`;
    await main.executeScript(`CREATE DATABASE "${database}"`);
    const shadowPool = new pg.Pool({
      connectionString: withDatabase(connectionString, database),
      Client: CatalogTolerantClient,
      allowExitOnIdle: true,
    });
    const shadow = await new PrismaPg(shadowPool).connect();
    const originalDispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await originalDispose();
      await shadowPool.end().catch(() => undefined);
      await main.executeScript(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await main.dispose();
    };
    return shadow;
  };
  return factory;
}
