/**
 * The reproduction of a crash by aliased introspection against `npm start`'s entry point (API and workers in one
 * process): 1 MiB documents of aliased introspection, two at once, with and without a key. Before,
 * one answered 420 MiB in 89 s with /healthz stalled for 85 s, and two ended in "JavaScript heap out of
 * memory". Now each is refused before it runs, /healthz keeps answering at once, memory stays within
 * twice its idle size, and nothing answers 5xx.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newWorkspace, stopAll } from "../helpers/api.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";

let service: ServiceProcess;
beforeAll(async () => {
  service = await spawnService("all", {}, 60_000);
});
afterAll(async () => {
  await service?.stop();
  await stopAll();
});

/** Resident memory of the process, in bytes (Linux). */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

/** `{ s0: __schema { … } s1: … }` just under 1 MiB. */
function aliasedIntrospection(): string {
  const one = (i: number) => `s${i}: __schema { types { name fields { name args { name type { name } } } } } `;
  let doc = "{ ";
  for (let i = 0; doc.length + one(i).length < 1_000_000; i++) doc += one(i);
  return `${doc}}`;
}

describe("npm start survives aliased introspection (issue 22, item 1)", () => {
  it("two 1 MiB documents at once, with a key and without: refused, /healthz answering (median under 500 ms, none over 1 s), memory within 2x idle, no 5xx", async () => {
    const { key } = await newWorkspace();
    const url = service.url!;
    const pid = service.child.pid!;
    // Idle: after start-up and a first request of each kind.
    await fetch(`${url}/healthz`);
    await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ workspace { plan } }" }),
    });
    await new Promise((r) => setTimeout(r, 1_000));
    const idle = rssOf(pid);

    const body = JSON.stringify({ query: aliasedIntrospection() });
    expect(body.length).toBeLessThan(1024 * 1024);
    const send = (authorization?: string) =>
      fetch(`${url}/graphql`, {
        method: "POST",
        headers: { ...(authorization ? { authorization } : {}), "content-type": "application/json" },
        body,
      }).then(async (r) => ({
        status: r.status,
        code: ((await r.json()) as any).errors?.[0]?.extensions?.code,
      }));

    let peak = idle;
    const probes: { started: number; ms: number }[] = [];
    let attacking = true;
    let attackEnded = Infinity;
    const probe = (async () => {
      while (attacking) {
        const started = performance.now();
        const r = await fetch(`${url}/healthz`);
        await r.text();
        probes.push({ started, ms: performance.now() - started });
        peak = Math.max(peak, rssOf(pid));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const answers = [];
    // Enough rounds that the probes see the attack: each refusal is quick now (one run saw 3 probes in 3 rounds).
    const ROUNDS = 6;
    for (let round = 0; round < ROUNDS; round++) {
      answers.push(...(await Promise.all([send(`Bearer ${key}`), send(`Bearer ${key}`), send(), send()])));
    }
    attackEnded = performance.now();
    await new Promise((r) => setTimeout(r, 200));
    attacking = false;
    await probe;

    for (const a of answers) expect(a.status).toBeLessThan(500);
    expect(answers.filter((a) => a.code === "UNAUTHORIZED")).toHaveLength(2 * ROUNDS);
    expect(answers.filter((a) => a.code === "QUERY_TOO_LARGE")).toHaveLength(2 * ROUNDS);
    // Only the probes sent while the documents were being sent and answered.
    const latencies = probes
      .filter((p) => p.started < attackEnded)
      .map((p) => p.ms)
      .sort((a, b) => a - b);
    const median = latencies[Math.floor(latencies.length / 2)]!;
    const worst = latencies[latencies.length - 1]!;
    const all = `healthz latencies during the attack: ${latencies.map((l) => l.toFixed(1)).join(", ")}`;
    expect(latencies.length, all).toBeGreaterThanOrEqual(3);
    // Measured from this test process, which is itself busy uploading the 1 MiB documents, on a
    // machine shared with another test file: a typical probe answers in a few ms, and one may wait
    // behind the uploads (107 ms was seen in CI, with a median of 3.7 ms; on a machine twice as slow, in a
    // full run, a median of 114 ms with half the probes over 100 ms). So: the median under 500 ms and none
    // over 1 s, bounds that only the stall this guards against crosses: before the fix /healthz stalled 85 s.
    expect(median, all).toBeLessThan(500);
    expect(worst, all).toBeLessThan(1_000);
    expect(peak, `idle ${idle}, peak ${peak}`).toBeLessThan(2 * idle);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});
