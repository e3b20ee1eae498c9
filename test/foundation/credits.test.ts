import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, gql, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import { newPerson, signedIn } from "../helpers/people.js";
import { prisma } from "../../src/infra/db.js";
import {
  captureReservation,
  charge,
  getBalance,
  grant,
  refund,
  releaseReservation,
  renewDueWorkspaces,
  reserve,
} from "../../src/domain/credits/service.js";
import { InsufficientCreditsError } from "../../src/domain/shared/errors.js";
import type { RunningApi } from "../../src/main/server.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

/** A workspace whose monthly allowance is used up except `left` credits. */
async function workspaceWith(left: number) {
  const ws = await newWorkspace("free");
  await prisma.workspace.update({ where: { id: ws.workspaceId }, data: { monthlyUsed: 200 - left } });
  return ws;
}

describe("credits", () => {
  it("GET /credits shows the balance, reservations, cycle and ledger; GET /workspace the spec's shape", async () => {
    const ws = await newWorkspace("starter");
    const c = client(api.url, ws.key);
    const credits = await c.get("/api/v1/credits");
    expect(credits.status).toBe(200);
    expect(credits.body.data).toMatchObject({
      total_remaining: 2000,
      monthly_total: 2000,
      monthly_used: 0,
      monthly_remaining: 2000,
      reserved: 0,
    });
    expect(credits.body.data.cycle_resets_at).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
    expect(credits.body.data.ledger[0]).toMatchObject({ kind: "renewal", amount: 2000, balanceAfter: 2000 });
    const info = await c.get("/api/v1/workspace");
    expect(info.body).toEqual({
      data: {
        plan: "starter",
        credits: { total_remaining: 2000, monthly_total: 2000, monthly_used: 0, monthly_remaining: 2000 },
        limits: { video_limit: 1000, video_slots_used: 0, additions_remaining: 1000 },
      },
    });
  });

  it("never goes negative: 50 concurrent reservations of 5 against a balance for 10 admit exactly 10", async () => {
    const ws = await workspaceWith(50);
    const attempts = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        reserve({ workspaceId: ws.workspaceId, amount: 5, idempotencyKey: `r${i}`, reason: "analysis" }),
      ),
    );
    const admitted = attempts.filter((a) => a.status === "fulfilled");
    expect(admitted).toHaveLength(10);
    for (const a of attempts) if (a.status === "rejected") expect(a.reason).toBeInstanceOf(InsufficientCreditsError);
    const b = await getBalance(ws.workspaceId);
    expect(b).toMatchObject({ reserved: 50, totalRemaining: 50 });
    // Capturing all of them charges exactly 50 and leaves nothing reserved.
    for (const a of admitted) await captureReservation((a as PromiseFulfilledResult<{ id: string }>).value.id);
    expect(await getBalance(ws.workspaceId)).toMatchObject({ reserved: 0, totalRemaining: 0, monthlyUsed: 200 });
  });

  it("concurrent charges never overspend", async () => {
    const ws = await workspaceWith(150);
    await grant({ workspaceId: ws.workspaceId, amount: 50, idempotencyKey: "g", reason: "top-up" }); // total 200
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => charge({ workspaceId: ws.workspaceId, amount: 100, idempotencyKey: `c${i}`, reason: "radar" })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    const b = await getBalance(ws.workspaceId);
    expect(b.totalRemaining).toBe(0);
  });

  it("a charge with a used idempotency key changes nothing", async () => {
    const ws = await workspaceWith(100);
    const first = await charge({ workspaceId: ws.workspaceId, amount: 30, idempotencyKey: "job-1", reason: "x" });
    const again = await charge({ workspaceId: ws.workspaceId, amount: 30, idempotencyKey: "job-1", reason: "x" });
    expect(first.applied).toBe(true);
    expect(again).toEqual({ entry: first.entry, applied: false });
    expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(70);
    expect(await prisma.creditLedgerEntry.count({ where: { workspaceId: ws.workspaceId, kind: "charge" } })).toBe(1);
  });

  it("charges the monthly allowance first, then granted credits; refunds restore exactly once", async () => {
    const ws = await workspaceWith(60);
    await grant({ workspaceId: ws.workspaceId, amount: 100, idempotencyKey: "g1", reason: "top-up" });
    await charge({ workspaceId: ws.workspaceId, amount: 100, idempotencyKey: "radar:1:charge", reason: "radar" });
    expect(await getBalance(ws.workspaceId)).toMatchObject({ monthlyRemaining: 0, totalRemaining: 60 });
    const w = await prisma.workspace.findUniqueOrThrow({ where: { id: ws.workspaceId } });
    expect(w.grantedCredits).toBe(60);
    const r1 = await refund({ workspaceId: ws.workspaceId, chargeKey: "radar:1:charge", refundKey: "radar:1:refund", reason: "failed" });
    const r2 = await refund({ workspaceId: ws.workspaceId, chargeKey: "radar:1:charge", refundKey: "radar:1:refund", reason: "failed" });
    expect([r1.applied, r2.applied]).toEqual([true, false]);
    expect(await getBalance(ws.workspaceId)).toMatchObject({ monthlyRemaining: 60, totalRemaining: 160 });
  });

  it("insufficient credits change nothing and say what is required and available", async () => {
    const ws = await workspaceWith(99);
    await expect(
      charge({ workspaceId: ws.workspaceId, amount: 100, idempotencyKey: "x", reason: "radar", what: "a radar search" }),
    ).rejects.toMatchObject({
      code: "INSUFFICIENT_CREDITS",
      required: 100,
      available: 99,
      message: expect.stringMatching(/100.*99/),
    });
    expect((await getBalance(ws.workspaceId)).totalRemaining).toBe(99);
    expect(await prisma.creditLedgerEntry.count({ where: { workspaceId: ws.workspaceId, kind: "charge" } })).toBe(0);
  });

  it("reservations count against admission but not against the balance shown; release gives back once", async () => {
    const ws = await workspaceWith(7);
    const r = await reserve({ workspaceId: ws.workspaceId, amount: 5, idempotencyKey: "a1", reason: "analysis" });
    expect(await getBalance(ws.workspaceId)).toMatchObject({ totalRemaining: 7, reserved: 5 });
    await expect(reserve({ workspaceId: ws.workspaceId, amount: 5, idempotencyKey: "a2", reason: "analysis" })).rejects.toBeInstanceOf(
      InsufficientCreditsError,
    );
    // The same idempotency key returns the same reservation instead of a second one.
    expect((await reserve({ workspaceId: ws.workspaceId, amount: 5, idempotencyKey: "a1", reason: "analysis" })).id).toBe(r.id);
    expect(await releaseReservation(r.id)).toEqual({ applied: true });
    expect(await releaseReservation(r.id)).toEqual({ applied: false });
    expect(await captureReservation(r.id)).toEqual({ applied: false });
    expect(await getBalance(ws.workspaceId)).toMatchObject({ totalRemaining: 7, reserved: 0 });
  });

  it("monthly renewal: unused monthly credits do not roll over, granted credits stay, renewing twice renews once", async () => {
    const ws = await workspaceWith(40);
    await grant({ workspaceId: ws.workspaceId, amount: 25, idempotencyKey: "g", reason: "top-up" });
    const w = await prisma.workspace.findUniqueOrThrow({ where: { id: ws.workspaceId } });
    const now = new Date(w.cycleResetsAt.getTime() + 3600_000);
    expect(await renewDueWorkspaces(now)).toBeGreaterThanOrEqual(1);
    expect(await renewDueWorkspaces(now)).toBe(0);
    const b = await getBalance(ws.workspaceId);
    expect(b).toMatchObject({ monthlyTotal: 200, monthlyUsed: 0, totalRemaining: 225 });
    expect(b.cycleResetsAt.getTime()).toBeGreaterThan(now.getTime());
    const renewals = await prisma.creditLedgerEntry.findMany({
      where: { workspaceId: ws.workspaceId, kind: "renewal" },
      orderBy: { createdAt: "asc" },
    });
    expect(renewals).toHaveLength(2);
    expect(renewals[1]).toMatchObject({ amount: 160, balanceAfter: 225 });
  });

  it("the renewal runs as a BullMQ job scheduler on the maintenance queue", async () => {
    const { maintenanceQueue } = await import("../../src/jobs/registry.js");
    const { schedulersOf } = await import("../helpers/jobs.js");
    expect((await schedulersOf(maintenanceQueue())).map((s) => s.key)).toContain("renew-credits");
  });

  it("the database refuses a negative balance or an uncovered reservation even without the service", async () => {
    const ws = await workspaceWith(10);
    await expect(prisma.workspace.update({ where: { id: ws.workspaceId }, data: { grantedCredits: -1 } })).rejects.toThrow();
    await expect(prisma.workspace.update({ where: { id: ws.workspaceId }, data: { monthlyUsed: 201 } })).rejects.toThrow();
    await expect(prisma.workspace.update({ where: { id: ws.workspaceId }, data: { reservedCredits: 11 } })).rejects.toThrow();
    await expect(
      prisma.creditLedgerEntry.createMany({
        data: [1, 2].map(() => ({
          workspaceId: ws.workspaceId,
          kind: "grant" as const,
          amount: 1,
          balanceAfter: 1,
          idempotencyKey: "dup",
        })),
      }),
    ).rejects.toThrow();
  });

  it("a ledger page and its total agree while credits are granted, over REST and GraphQL (one statement, one snapshot)", async () => {
    const busy = await newWorkspace("free");
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 80; i++) await grant({ workspaceId: busy.workspaceId, amount: 1, idempotencyKey: `g${i}`, reason: "top-up" });
      writing = false;
    })();
    let reads = 0;
    while (writing) {
      const [rest, graph] = await Promise.all([
        client(api.url, busy.key).get("/api/v1/credits/ledger?limit=100"),
        gql(api.url, busy.key, `{ workspace { credits { ledger(first: 100) { totalCount edges { node { amount } } } } } }`),
      ]);
      expect(rest.body.pagination.total, "REST: the total counts the rows of the page").toBe(rest.body.data.length);
      const ledger = graph.body.data.workspace.credits.ledger;
      expect(ledger.totalCount, "GraphQL: the same").toBe(ledger.edges.length);
      reads++;
    }
    await writer;
    expect(reads).toBeGreaterThan(5);
    // A person's session reads the same page as the key; someone of another workspace cannot name this one.
    await newPerson("ledger-owner@example.com", busy.workspaceId, "owner");
    const other = await newWorkspace("free");
    await newPerson("outsider@example.com", other.workspaceId, "owner");
    const byKey = await client(api.url, busy.key).get("/api/v1/credits/ledger?limit=100");
    const owner = await signedIn(api.url, "ledger-owner@example.com");
    const bySession = await owner.send("GET", "/api/v1/credits/ledger?limit=100", { headers: { "x-workspace-id": busy.workspaceId } });
    expect(bySession.status).toBe(200);
    expect(bySession.body).toEqual(byKey.body);
    const graphBySession = await owner.gql(
      `{ workspace { credits { ledger(first: 100) { totalCount } } } }`,
      {},
      { workspace: busy.workspaceId },
    );
    expect(graphBySession.body.data.workspace.credits.ledger.totalCount).toBe(byKey.body.pagination.total);
    const outsider = await signedIn(api.url, "outsider@example.com");
    const refused = await outsider.send("GET", "/api/v1/credits/ledger", { headers: { "x-workspace-id": busy.workspaceId } });
    // Not a member: the workspace is not found for them (its existence is not told), as for any other door.
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ code: "NOT_FOUND", message: "Workspace not found." });
    expect(JSON.stringify(refused.body)).not.toContain("top-up");

    const last = await client(api.url, busy.key).get("/api/v1/credits/ledger?limit=10&offset=1000");
    expect(last.body.data, "past the end: no rows, the total still counted").toEqual([]);
    expect(last.body.pagination.total).toBeGreaterThanOrEqual(80);
  });
});
