/** The SQL statements this process sends to PostgreSQL while `fn` runs (every pg client, pooled or not). */
import pg from "pg";

export async function statementsOf<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const statements: string[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    statements.push(typeof q === "string" ? q : (q?.text ?? "?"));
    return original.apply(this, args);
  };
  try {
    return { result: await fn(), statements };
  } finally {
    proto.query = original;
  }
}
