/**
 * `npm start` (src/main/all.ts) on an empty database, as the README promises: it applies the migrations,
 * creates a demo workspace and prints its key once, and a one-time link with which its owner sets a
 * password, signs in and makes a key of their own; it serves the API and runs the workers in one
 * process, and exits 0 on SIGTERM. A second start on the same database creates nothing.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";
import { prisma } from "../../src/infra/db.js";
import { personClient } from "../helpers/people.js";

const started: ServiceProcess[] = [];
afterAll(async () => {
  for (const p of started) await p.stop("SIGKILL");
});

async function npmStart(): Promise<ServiceProcess> {
  const p = await spawnService("all", { SEED_DEMO: "true" }, 60_000);
  started.push(p);
  return p;
}

const exitCode = (p: ServiceProcess) =>
  new Promise<number | null>((resolve) =>
    p.child.exitCode !== null ? resolve(p.child.exitCode) : p.child.once("exit", (code) => resolve(code)),
  );

describe("npm start on an empty database", () => {
  it("creates a demo workspace whose printed key works, serves the API, and exits 0 on SIGTERM; a second start creates nothing", async () => {
    expect(await prisma.workspace.count()).toBe(0);
    const first = await npmStart();
    const key = first.output().match(/API key \(shown once\): (svc_sk_\S+)/)?.[1];
    expect(key).toBeDefined();
    const r = await fetch(`${first.url}/api/v1/workspace`, { headers: { authorization: `Bearer ${key}` } });
    expect(r.status).toBe(200);
    expect(((await r.json()) as any).data.plan).toBe("free");

    // The printed link: /reset-password?token=… on PUBLIC_URL (default http://localhost:<PORT>).
    const link = first.output().match(/Owner (\S+): set a password and sign in \(single use, 1 hour\): (\S+)/);
    expect(link?.[1]).toBe("demo@example.com");
    const url = new URL(link![2]!);
    expect(url.pathname).toBe("/reset-password");
    const owner = personClient(first.url!);
    const set = await owner.auth("POST", "/reset-password", { newPassword: "a fine long password", token: url.searchParams.get("token") });
    expect(set.status, set.text).toBe(200);
    expect(
      (await owner.auth("POST", "/reset-password", { newPassword: "another long password", token: url.searchParams.get("token") })).status,
    ).toBe(400); // single use
    expect((await owner.signIn("demo@example.com", "a fine long password")).status).toBe(200);
    const made = await owner.gql(`mutation { createApiKey(name: "mine") { secret } }`);
    expect(made.body.errors, made.text).toBeUndefined();
    const mine = await fetch(`${first.url}/api/v1/workspace`, {
      headers: { authorization: `Bearer ${made.body.data.createApiKey.secret}` },
    });
    expect(mine.status).toBe(200);

    const code = exitCode(first);
    first.child.kill("SIGTERM");
    expect(await code).toBe(0);

    const second = await npmStart();
    expect(second.output()).not.toMatch(/API key \(shown once\)/);
    expect(await prisma.workspace.count()).toBe(1);
    await second.stop();
  });
});
