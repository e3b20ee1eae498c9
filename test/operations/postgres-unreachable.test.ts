/**
 * Which errors the job runner waits out without using an attempt (src/jobs/worker.ts): PostgreSQL that
 * cannot be reached, and nothing else. The errors are the real ones pg raises: a statement the server
 * cancels for its statement timeout is the job's own failure, a refused connection to another port is
 * another service's. The outage itself, a stopped cluster, is drilled in ./drills.test.ts (a').
 */
import { createServer } from "node:net";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { config } from "../../src/config.ts";
import { postgresUnreachable } from "../../src/infra/logger.ts";
import { OUTAGE_DELAY_MAX_MS, outageDelayMs } from "../../src/jobs/worker.ts";

async function errorOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (e) {
    return e;
  }
  throw new Error("expected an error");
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("postgresUnreachable", () => {
  it("a refused connection at the database's port is an outage; at another port it is not", async () => {
    const port = await closedPort();
    const refused = await errorOf(() => new pg.Client({ host: "127.0.0.1", port, user: "root", database: "test" }).connect());
    expect((refused as { code?: string }).code).toBe("ECONNREFUSED");
    expect(postgresUnreachable(refused)).toBe(false);
    const atDatabase = Object.assign(new Error("connect ECONNREFUSED"), {
      code: "ECONNREFUSED",
      port: Number(new URL(config.databaseUrl).port || 5432),
    });
    expect(postgresUnreachable(new Error("wrapped", { cause: atDatabase }))).toBe(true);
  });

  it("the server shutting down or out of connections is an outage; a statement cancelled for its timeout is not", async () => {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      await client.query("SET statement_timeout = 50");
      const cancelled = await errorOf(() => client.query("SELECT pg_sleep(1)"));
      expect((cancelled as { code?: string }).code).toBe("57014");
      expect(postgresUnreachable(cancelled)).toBe(false);
    } finally {
      await client.end();
    }
    for (const code of ["57P01", "57P03", "53300", "P1001", "P2024"])
      expect(postgresUnreachable(Object.assign(new Error(code), { code }))).toBe(true);
    expect(postgresUnreachable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(postgresUnreachable(new Error("provider answered 500"))).toBe(false);
  });

  it("a job waits 1 s, then twice as long each time it meets the outage again, never more than the cap", () => {
    expect([1, 2, 3, 4, 5].map(outageDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(outageDelayMs(6)).toBe(OUTAGE_DELAY_MAX_MS);
    expect(outageDelayMs(1000)).toBe(OUTAGE_DELAY_MAX_MS);
  });
});
