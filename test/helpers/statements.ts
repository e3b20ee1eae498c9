/** The SQL statements this process sends to PostgreSQL while `fn` runs (every pg client, pooled or not). */
import pg from "pg";

/** The statements with their parameters (e.g. to EXPLAIN one exactly as it was sent). */
export async function queriesOf<T>(fn: () => Promise<T>): Promise<{ result: T; queries: { text: string; values: unknown[] }[] }> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const queries: { text: string; values: unknown[] }[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string; values?: unknown[] };
    queries.push(
      typeof q === "string"
        ? { text: q, values: Array.isArray(args[1]) ? args[1] : [] }
        : { text: q?.text ?? "?", values: q?.values ?? [] },
    );
    return original.apply(this, args);
  };
  try {
    return { result: await fn(), queries };
  } finally {
    proto.query = original;
  }
}

export async function statementsOf<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const { result, queries } = await queriesOf(fn);
  return { result, statements: queries.map((q) => q.text) };
}
