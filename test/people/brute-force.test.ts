/**
 * Brute force and enumeration (docs/contract/decisions.md, "People, sign-in and the dashboard"): at
 * most 10 failed sign-ins per email per 15 minutes and 50 per client address, counted in Redis across
 * API processes; beyond, 429 RATE_LIMITED with Retry-After even for the right password, except from an
 * address that signed in to that email before or completed a reset for it (its own budget), on IPv4
 * and IPv6 (counted by /64). An unknown email and a wrong password get the same answer after the same
 * work (argon2id either way).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../src/main/server.js";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, PASSWORD, personClient } from "../helpers/people.js";
import { addressKey } from "../../src/domain/people/sign-in-limits.js";
import { resetPasswordLink } from "../../src/domain/people/users.js";
import { spawnService, type ServiceProcess } from "../helpers/processes.js";

let api: RunningApi;
let second: ServiceProcess;
let dual: ServiceProcess;

beforeAll(async () => {
  api = await startTestApi();
  // The second API process trusts loopback proxies, so each test can be its own client address.
  // The third listens on both address families and trusts nothing forwarded: its clients are 127.0.0.1 and ::1.
  [second, dual] = await Promise.all([spawnService("api", { TRUST_PROXY: "loopback" }), spawnService("api", { HOST: "::" })]);
});

afterAll(async () => {
  await Promise.all([second.stop("SIGKILL"), dual.stop("SIGKILL")]);
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
      const r =
        i % 2
          ? await signIn(api.url, "target@example.com", `wrong password ${i}`)
          : await signIn(second.url!, "target@example.com", `wrong password ${i}`, `198.51.100.${i}`);
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
    for (let i = 0; i < 50; i++)
      expect((await signIn(second.url!, `nobody${i}@example.com`, "wrong password", address)).status, `attempt ${i + 1}`).toBe(401);
    const refused = await signIn(second.url!, "nobody-else@example.com", "wrong password", address);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    // Another address still gets answers.
    expect((await signIn(second.url!, "nobody-else@example.com", "wrong password", "192.0.2.78")).status).toBe(401);
  });
});

describe("lock-out without locking out", () => {
  const overIPv4 = () => dual.url!; // http://127.0.0.1:<port>
  const overIPv6 = () => dual.url!.replace("127.0.0.1", "[::1]");
  const failTenTimes = async (base: string, email: string, address?: string) => {
    for (let i = 0; i < 10; i++) expect((await signIn(base, email, `wrong password ${i}`, address)).status, `failure ${i + 1}`).toBe(401);
  };

  it("addresses count as networks hand them out: IPv4 as itself (mapped too), IPv6 by its /64", () => {
    expect(addressKey("192.0.2.7")).toBe("192.0.2.7");
    expect(addressKey("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(addressKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(addressKey("::1")).toBe("::/64");
    expect(addressKey("not an address")).toBe("not an address");
  });

  it.each([
    ["IPv6 (::1)", overIPv6, overIPv4],
    ["IPv4 (127.0.0.1)", overIPv4, overIPv6],
  ])(
    "the owner's address, %s, that signed in before gets through a lock-out made from the other family; the lock holds elsewhere",
    async (_family, owners, attackers) => {
      const { workspaceId } = await newWorkspace();
      const email = `owner-${Math.random().toString(36).slice(2)}@example.com`;
      await newPerson(email, workspaceId);
      expect((await signIn(owners(), email, PASSWORD)).status).toBe(200);
      await failTenTimes(attackers(), email);
      expect((await signIn(attackers(), email, PASSWORD)).status, "the attacker's side is locked, right password or not").toBe(429);
      expect((await signIn(owners(), email, PASSWORD)).status, "the owner's known address gets in").toBe(200);
      // The known address has a budget of its own, not an unlimited one.
      await failTenTimes(owners(), email);
      expect((await signIn(owners(), email, PASSWORD)).status).toBe(429);
    },
  );

  it("a completed password reset lets its address in past a lock-out", async () => {
    const { workspaceId } = await newWorkspace();
    await newPerson("reset-locked@example.com", workspaceId);
    for (let i = 0; i < 10; i++)
      expect((await signIn(second.url!, "reset-locked@example.com", `guess ${i}`, `198.51.100.${100 + i}`)).status).toBe(401);
    const token = new URL(await resetPasswordLink("reset-locked@example.com")).searchParams.get("token")!;
    const reset = await personClient(second.url!).auth(
      "POST",
      "/reset-password",
      { token, newPassword: "a new long password" },
      { "x-forwarded-for": "203.0.113.50" },
    );
    expect(reset.status, reset.text).toBe(200);
    expect((await signIn(second.url!, "reset-locked@example.com", "a new long password", "203.0.113.50")).status).toBe(200);
    expect((await signIn(second.url!, "reset-locked@example.com", "a new long password", "203.0.113.51")).status).toBe(429);
  });

  it("the per-address limit counts an IPv6 client by its /64: 50 failures spread over one /64 close it; the next /64 is another address", async () => {
    for (let i = 0; i < 50; i++)
      expect(
        (await signIn(second.url!, `v6-${i}@example.com`, "wrong password", `2001:db8:77:1::${(i + 1).toString(16)}`)).status,
        `attempt ${i + 1}`,
      ).toBe(401);
    expect((await signIn(second.url!, "v6-next@example.com", "wrong password", "2001:db8:77:1:ffff:ffff:ffff:ffff")).status).toBe(429);
    expect((await signIn(second.url!, "v6-next@example.com", "wrong password", "2001:db8:77:2::1")).status).toBe(401);
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
