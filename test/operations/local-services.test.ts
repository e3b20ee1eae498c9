/**
 * PostgreSQL and Redis without set-up (src/main/local-services.ts; CONTRACT, fifth wave, "local services"): with
 * DATABASE_URL and REDIS_URL unset and nothing letting us in at the default addresses, this checkout's own servers are
 * started from the installed programs under a data folder, said so, used, and stopped by the last process using them;
 * their data survives a restart; a set address always wins. For real: the machine's PostgreSQL (run as the `postgres`
 * user when root) and redis-server, on loopback ports of this file's own, and `npm start` (src/main/all.ts) itself.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServices, prepareLocalServices, probePostgres, probeRedis, respReply } from "../../src/main/local-services.js";
import { spawnService } from "../helpers/processes.js";
import { signalProcess } from "../helpers/signals.js";
import { freePort } from "./private-services.js";

const dir = mkdtempSync(join(tmpdir(), "local-services-"));
// A checkout's folder as git leaves it: readable by others, so the postgres user reaches its data folder.
chmodSync(dir, 0o755);

/** Two free loopback ports of 18700-18799 (a range of this file's own on the team's machines), kept in the data folder as
 *  a previous start would have kept them. */
let PG = 0;
let REDIS = 0;
beforeAll(async () => {
  const free: number[] = [];
  for (let port = 18700; port < 18800 && free.length < 2; port++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once("error", () => resolve(false));
      s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
    });
    if (ok) free.push(port);
  }
  [PG, REDIS] = free as [number, number];
  writeFileSync(join(dir, "ports.json"), `${JSON.stringify({ postgres: PG, redis: REDIS })}\n`);
});

const answers = async (url: string, probe: typeof probePostgres) => (await probe(url)).answer;
const dbUrl = (services: LocalServices) => services.postgres.url.replace(/\/[^/]*$/, "/postgres");

/** Stops what the data folder's servers left running when a test failed halfway (pid files), then removes it. */
afterAll(() => {
  const pids = [join(dir, "postgres/data/postmaster.pid"), join(dir, "redis/redis.pid")];
  for (const file of pids.filter(existsSync)) {
    const pid = Number(readFileSync(file, "utf8").split("\n")[0]);
    if (pid > 1) signalProcess(pid, "SIGINT"); // false: already gone
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A server on a free loopback port that answers every connection with `reply` (a server that does not let us in). */
async function answering(reply: Buffer): Promise<{ url: (scheme: string) => string; close: () => Promise<void> }> {
  const server: Server = createServer((socket) => socket.once("data", () => socket.end(reply)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return { url: (scheme) => `${scheme}://root@127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/** A PostgreSQL backend message: type, length, body. */
function pgMessage(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

describe("the probes: does a server at an address let us in", () => {
  it("nothing answering, a password asked, an error, and a server that lets us in are told apart", async () => {
    const dead = await freePort();
    expect(await probePostgres(`postgresql://root@127.0.0.1:${dead}/x`)).toEqual({ answer: "none", reason: "nothing answered" });
    expect(await probeRedis(`redis://127.0.0.1:${dead}`)).toEqual({ answer: "none", reason: "nothing answered" });

    const sasl = await answering(pgMessage("R", Buffer.from([0, 0, 0, 10, ...Buffer.from("SCRAM-SHA-256\0\0")])));
    const noRole = await answering(pgMessage("E", Buffer.from('SFATAL\0C28000\0Mrole "root" does not exist\0\0')));
    const noAuth = await answering(Buffer.from("-NOAUTH Authentication required.\r\n"));
    try {
      expect(await probePostgres(sasl.url("postgresql"))).toEqual({ answer: "refused", reason: "PostgreSQL asks a password of root" });
      expect(await probePostgres(noRole.url("postgresql"))).toEqual({
        answer: "refused",
        reason: 'PostgreSQL answered "role "root" does not exist"',
      });
      expect(await probeRedis(noAuth.url("redis"))).toEqual({
        answer: "refused",
        reason: 'Redis answered "NOAUTH Authentication required."',
      });
    } finally {
      await Promise.all([sasl.close(), noRole.close(), noAuth.close()]);
    }
  });

  it("reads Redis replies whole, and only whole", () => {
    expect(respReply(Buffer.from("+PONG\r\n"))).toEqual({ value: "+PONG" });
    // A bulk string's length counts bytes: "/tmp/dätä" is 11.
    expect(respReply(Buffer.from("*2\r\n$3\r\ndir\r\n$11\r\n/tmp/dätä\r\n"))).toEqual({ value: ["dir", "/tmp/dätä"] });
    expect(respReply(Buffer.from("*2\r\n$3\r\ndir\r\n$11\r\n/tmp/dät"))).toBeNull();
    expect(respReply(Buffer.from("$5\r\nab"))).toBeNull();
  });
});

describe("this checkout's own PostgreSQL and Redis", () => {
  it("are started when nothing answers at the defaults, used by a second process, stopped by the last, and keep their data", async () => {
    const dead = await freePort();
    const defaults = { postgres: `postgresql://root@127.0.0.1:${dead}/video_service`, redis: `redis://127.0.0.1:${dead}` };
    const env = { LOCAL_SERVICES_DIR: dir };
    const first = await prepareLocalServices({ env, who: "npm start", defaults });
    expect(first.postgres).toMatchObject({ source: "local", url: `postgresql://root@127.0.0.1:${PG}/video_service` });
    expect(first.postgres.line).toBe(
      `PostgreSQL: this checkout's own on 127.0.0.1:${PG} (started, data in ${dir}/postgres/data), because nothing answered at ` +
        `127.0.0.1:${dead}; npm start stops it when it ends, unless something else still uses it. To use your own server, set DATABASE_URL.`,
    );
    expect(first.redis).toMatchObject({ source: "local", url: `redis://127.0.0.1:${REDIS}` });
    expect(first.redis.line).toMatch(new RegExp(`^Redis: this checkout's own on 127\\.0\\.0\\.1:${REDIS} \\(started, .*set REDIS_URL\\.$`));
    // Run as the postgres user (PostgreSQL refuses root), with the timestamps in UTC.
    const client = new pg.Client({ connectionString: dbUrl(first) });
    await client.connect();
    const settings = await client.query(
      "SELECT current_setting('TimeZone') AS tz, (SELECT usename FROM pg_user WHERE usesysid = 10) AS owner",
    );
    expect(settings.rows[0]).toEqual({ tz: "UTC", owner: "root" });
    await client.query("CREATE TABLE kept (note text); INSERT INTO kept VALUES ('survives a restart')");
    const redis = new Redis(first.redis.url);
    await redis.set("kept", "survives a restart");

    // Another process of the checkout (npm test while npm start runs) uses the running ones and starts nothing.
    const second = await prepareLocalServices({ env: { ...env, LOCAL_SERVICES: "always" }, who: "npm test", defaults });
    expect(second.postgres.line).toMatch(
      new RegExp(`this checkout's own on 127\\.0\\.0\\.1:${PG} \\(already running, .*because LOCAL_SERVICES=always;`),
    );
    expect(second.redis.url).toBe(first.redis.url);
    // It ends first, while the connections above still use them: they keep running.
    expect(await second.release()).toEqual([
      `PostgreSQL on 127.0.0.1:${PG} left running: 1 other connection(s) use it`,
      `Redis on 127.0.0.1:${REDIS} left running: 1 other connection(s) use it`,
    ]);
    await client.end();
    redis.disconnect();
    // The last one stops them.
    expect(await first.release()).toEqual([
      `PostgreSQL on 127.0.0.1:${PG} stopped (its data stays in ${dir}/postgres/data)`,
      `Redis on 127.0.0.1:${REDIS} stopped (its data stays in ${dir}/redis)`,
    ]);
    expect(await answers(`postgresql://root@127.0.0.1:${PG}`, probePostgres)).toBe("none");
    expect(await answers(`redis://127.0.0.1:${REDIS}`, probeRedis)).toBe("none");

    // Started again: the data is there.
    const again = await prepareLocalServices({ env, who: "npm start", defaults });
    expect(again.postgres.line).toMatch(/\(started, /);
    const reader = new pg.Client({ connectionString: dbUrl(again) });
    await reader.connect();
    expect((await reader.query("SELECT note FROM kept")).rows).toEqual([{ note: "survives a restart" }]);
    await reader.end();
    const redisAgain = new Redis(again.redis.url);
    expect(await redisAgain.get("kept")).toBe("survives a restart");
    redisAgain.disconnect();
    await again.release();
  });

  it("are not started when a default address lets us in, nor when the addresses are set, nor with LOCAL_SERVICES=off", async () => {
    const defaults = { postgres: process.env.TEST_ADMIN_DATABASE_URL!, redis: process.env.REDIS_URL! };
    const chosen = await prepareLocalServices({ env: { LOCAL_SERVICES_DIR: dir }, who: "npm start", defaults });
    expect(chosen.postgres).toMatchObject({ source: "default", url: defaults.postgres });
    expect(chosen.postgres.line).toBe(
      `PostgreSQL: the server at ${new URL(defaults.postgres).host} (the default; set DATABASE_URL to use another)`,
    );
    expect(chosen.redis.source).toBe("default");

    const set = "postgresql://someone:secret@db.example:5432/video_service";
    const dead = `redis://127.0.0.1:${await freePort()}`;
    const given = await prepareLocalServices({ env: { LOCAL_SERVICES: "always" }, who: "npm start", postgresSet: set, redisSet: dead });
    expect(given.postgres).toEqual({
      url: set,
      source: "set",
      line: "PostgreSQL: as set (postgresql://someone:***@db.example:5432/video_service)",
    });
    expect(given.redis).toMatchObject({ url: dead, source: "set" });

    const off = await prepareLocalServices({ env: { NODE_ENV: "production" }, who: "npm start", defaults: { postgres: set, redis: dead } });
    expect([off.postgres.source, off.redis.source]).toEqual(["default", "default"]);
    expect(await Promise.all([chosen.release(), given.release(), off.release()])).toEqual([[], [], []]);
    await expect(prepareLocalServices({ env: { LOCAL_SERVICES: "sometimes" }, who: "npm start" })).rejects.toThrow(
      'LOCAL_SERVICES must be auto, always or off (not "sometimes")',
    );
  });

  it("npm start says which it uses, serves with them, and stopping it stops them", async () => {
    const service = await spawnService(
      "all",
      { DATABASE_URL: undefined, REDIS_URL: undefined, LOCAL_SERVICES: "always", LOCAL_SERVICES_DIR: dir, LOG_FORMAT: "json" },
      90_000,
    );
    const out = service.output();
    expect(out).toMatch(new RegExp(`"msg":"PostgreSQL: this checkout's own on 127\\.0\\.0\\.1:${PG} \\(started, `));
    expect(out).toMatch(new RegExp(`"msg":"Redis: this checkout's own on 127\\.0\\.0\\.1:${REDIS} \\(started, `));
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: unknown }).checks).toEqual({ database: "ok", redis: "ok" });

    const exited = new Promise<number | null>((resolve) => service.child.once("exit", resolve));
    service.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(service.output()).toMatch(new RegExp(`"msg":"PostgreSQL on 127\\.0\\.0\\.1:${PG} stopped \\(its data stays in `));
    expect(await answers(`postgresql://root@127.0.0.1:${PG}`, probePostgres)).toBe("none");
    expect(await answers(`redis://127.0.0.1:${REDIS}`, probeRedis)).toBe("none");
    // Run as the postgres user: its files are that user's.
    expect(execFileSync("stat", ["-c", "%U", join(dir, "postgres/data")], { encoding: "utf8" }).trim()).toBe(
      process.getuid?.() === 0 ? "postgres" : (process.env.USER ?? execFileSync("id", ["-un"], { encoding: "utf8" }).trim()),
    );
  });
});
