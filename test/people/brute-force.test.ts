/**
 * Brute force and enumeration (docs/contract/decisions.md, "People, sign-in and the dashboard"): at
 * most 10 failed sign-ins per email per 15 minutes and 50 per client address, counted in Redis across
 * API processes; beyond, 429 RATE_LIMITED with Retry-After even for the right password. An unknown
 * email and a wrong password get the same answer after the same work (argon2id either way).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../src/main/server.js";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, PASSWORD, personClient } from "../helpers/people.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";

let api: RunningApi;
let second: ServiceProcess;

beforeAll(async () => {
  api = await startTestApi();
  // The second API process trusts loopback proxies, so each test can be its own client address.
  second = await spawnService("api", { TRUST_PROXY: "loopback" });
});

afterAll(async () => {
  await second.stop("SIGKILL");
  await stopAll(api);
});

const signIn = (base: string, email: string, password: string, address?: string) =>
  personClient(base).auth("POST", "/sign-in/email", { email, password }, address ? { "x-forwarded-for": address } : {});

describe("failed sign-ins", () => {
  it("10 per email, counted across processes: the 11th attempt is 429 RATE_LIMITED with Retry-After, even with the right password", async () => {
    const { workspaceId } = await newWorkspace();
    await newPerson("target@example.com", workspaceId);
    for (let i = 0; i < 10; i++) {
      // Alternating between the two processes, from ten addresses: the email's count is shared.
      const r = i % 2 ? await signIn(api.url, "target@example.com", `wrong password ${i}`) : await signIn(second.url!, "target@example.com", `wrong password ${i}`, `198.51.100.${i}`);
      expect(r.status, `attempt ${i + 1}`).toBe(401);
    }
    const refused = await signIn(api.url, "target@example.com", PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("RATE_LIMITED");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Another email is not affected.
    await newPerson("bystander@example.com", workspaceId);
    expect((await signIn(api.url, "bystander@example.com", PASSWORD)).status).toBe(200);
  });

  it("successful sign-ins do not count", async () => {
    const { workspaceId } = await newWorkspace();
    await newPerson("regular@example.com", workspaceId);
    for (let i = 0; i < 12; i++) expect((await signIn(second.url!, "regular@example.com", PASSWORD, "192.0.2.200")).status).toBe(200);
  });

  it("50 per client address, whatever the emails", async () => {
    const address = "192.0.2.77";
    for (let i = 0; i < 50; i++) expect((await signIn(second.url!, `nobody${i}@example.com`, "wrong password", address)).status, `attempt ${i + 1}`).toBe(401);
    const refused = await signIn(second.url!, "nobody-else@example.com", "wrong password", address);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    // Another address still gets answers.
    expect((await signIn(second.url!, "nobody-else@example.com", "wrong password", "192.0.2.78")).status).toBe(401);
  });
});

describe("no enumeration", () => {
  it("an unknown email and a wrong password: the same answer, after the same work", async () => {
    const { workspaceId } = await newWorkspace();
    await newPerson("known@example.com", workspaceId);
    const timed = async (email: string, i: number) => {
      const started = performance.now();
      const r = await signIn(second.url!, email, "not the password", `203.0.113.${i}`);
      return { ms: performance.now() - started, r };
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 8; i++) {
      const a = await timed("known@example.com", i);
      const b = await timed(`unknown${i}@example.com`, 100 + i);
      expect(a.r.status).toBe(401);
      expect(b.r.text).toBe(a.r.text);
      known.push(a.ms);
      unknown.push(b.ms);
    }
    const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    // Both run one argon2id computation (tens of ms); without it the unknown email would answer in ~1 ms.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
    expect(median(known)).toBeGreaterThan(median(unknown) * 0.5);
  });

  it("stores only an argon2id hash of the password", async () => {
    const { prisma } = await import("../../src/infra/db.js");
    const { workspaceId } = await newWorkspace();
    await newPerson("hashed@example.com", workspaceId);
    const account = await prisma.authAccount.findFirstOrThrow({ where: { user: { email: "hashed@example.com" } } });
    expect(account.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(account.password).not.toContain(PASSWORD);
  });
});
