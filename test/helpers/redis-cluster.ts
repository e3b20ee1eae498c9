/**
 * A Redis Cluster of three primaries on loopback, started for one test file (or benchmark) on ports
 * of its own and stopped by it: `redis-server --cluster-enabled yes` nodes in a temporary directory,
 * joined with `redis-cli --cluster create … --cluster-replicas 0`. Only the nodes started here are
 * ever stopped (by their own port and pid file).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { signalProcess } from "./signals.js";

const run = promisify(execFile);

export interface LocalCluster {
  ports: number[];
  /** `127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3`: REDIS_CLUSTER_NODES. */
  nodes: string;
  /** A plain connection to one node (not cluster-aware), for looking at that node alone. */
  node(port: number): Redis;
  stop(): Promise<void>;
}

function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** Three ports P with P and its cluster bus port (P + 10000) free. */
async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const p = 21000 + Math.floor(Math.random() * 20000);
    if (ports.includes(p)) continue;
    if ((await free(p)) && (await free(p + 10000))) ports.push(p);
  }
  return ports;
}

async function until(what: string, ok: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Redis Cluster: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startRedisCluster(): Promise<LocalCluster> {
  const dir = await mkdtemp(join(tmpdir(), "redis-cluster-"));
  const ports = await freePorts(3);
  const clients: Redis[] = [];
  const node = (port: number) => {
    const c = new Redis({ host: "127.0.0.1", port, maxRetriesPerRequest: 1, lazyConnect: false });
    c.on("error", () => undefined);
    clients.push(c);
    return c;
  };
  const stop = async () => {
    for (const c of clients) c.disconnect();
    for (const port of ports) {
      await run("redis-cli", ["-p", String(port), "shutdown", "nosave"]).catch(async () => {
        // Not answering: end it by its own pid file (never by name).
        const pid = Number(await readFile(join(dir, `${port}.pid`), "utf8").catch(() => ""));
        if (pid > 1) signalProcess(pid, "SIGKILL"); // false: already gone
      });
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      await run("redis-server", [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        `nodes-${port}.conf`,
        "--cluster-node-timeout",
        "3000",
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "yes",
        "--dir",
        dir,
        "--pidfile",
        join(dir, `${port}.pid`),
        "--logfile",
        join(dir, `${port}.log`),
      ]);
    }
    for (const port of ports) {
      const c = node(port);
      await until(`node ${port} answering`, async () => (await c.ping()) === "PONG");
    }
    await run("redis-cli", ["--cluster", "create", ...ports.map((p) => `127.0.0.1:${p}`), "--cluster-replicas", "0", "--cluster-yes"]);
    for (const c of clients)
      await until("cluster_state:ok on every node", async () => /cluster_state:ok/.test(String(await c.cluster("INFO"))));
  } catch (e) {
    await stop();
    throw e;
  }
  return { ports, nodes: ports.map((p) => `127.0.0.1:${p}`).join(","), node, stop };
}
