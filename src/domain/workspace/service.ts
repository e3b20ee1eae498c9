/**
 * Workspaces and plans: creation (with its first key and first cycle's allowance), the workspace
 * info of the spec, plan changes, and the demo workspace of `npm start`.
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, type Tx } from "../../infra/db.ts";
import { DomainError, notFound, validationError } from "../shared/errors.ts";
import { creditsChanged, getBalance, setMonthlyAllowance, type CreditBalance } from "../credits/service.ts";
import { cycleDayFor, nextCycleBoundary } from "../credits/cycle.ts";
import { createKey } from "../keys/service.ts";
import { trackingLimits, type TrackingLimits } from "../tracking/limits.ts";

export interface WorkspaceInfo {
  plan: string;
  credits: CreditBalance;
  limits: TrackingLimits;
}

async function listPlans() {
  return prisma.plan.findMany({ orderBy: { monthlyCredits: "asc" } });
}

async function requirePlan(name: string) {
  const plan = await prisma.plan.findUnique({ where: { name } });
  if (!plan) {
    const names = (await listPlans()).map((p) => p.name).join(", ");
    throw validationError(`Unknown plan "${name}". Plans: ${names}.`);
  }
  return plan;
}

/** Creates a workspace on `planName` with its first allowance and a first key named `default`. */
export async function createWorkspace(args: { name: string; plan?: string; now?: Date }, outerTx?: Tx) {
  const name = args.name.trim();
  if (!name || name.length > 255) throw validationError("Workspace name must be 1 to 255 characters.");
  const plan = await requirePlan(args.plan ?? "free");
  const now = args.now ?? new Date();
  const cycleDay = cycleDayFor(now);
  const run = async (tx: Tx) => {
    const ws = await tx.workspace.create({
      data: {
        name,
        planName: plan.name,
        monthlyAllowance: plan.monthlyCredits,
        cycleDay,
        cycleStartedAt: now,
        cycleResetsAt: nextCycleBoundary(now, cycleDay),
      },
    });
    await tx.creditLedgerEntry.create({
      data: {
        workspaceId: ws.id,
        kind: "renewal",
        amount: plan.monthlyCredits,
        monthlyPart: plan.monthlyCredits,
        balanceAfter: plan.monthlyCredits,
        reason: `first monthly allowance of plan ${plan.name}`,
        idempotencyKey: `renewal:${now.toISOString()}`,
      },
    });
    const { key, secret } = await createKey(ws.id, "default", tx);
    return { workspace: ws, key, secret };
  };
  return outerTx ? run(outerTx) : prisma.$transaction(run);
}

export async function getWorkspaceInfo(workspaceId: string): Promise<WorkspaceInfo> {
  const [ws, credits, limits] = await Promise.all([
    prisma.workspace.findUnique({ where: { id: workspaceId }, select: { planName: true } }),
    getBalance(workspaceId),
    trackingLimits(workspaceId),
  ]);
  if (!ws) throw notFound("Workspace");
  return { plan: ws.planName, credits, limits };
}

/**
 * Moves a workspace to another plan. The tracking limit changes at once; the monthly allowance of
 * the current cycle becomes the new plan's (credits already used stay used), recorded in the ledger.
 */
export async function setPlan(workspaceId: string, planName: string) {
  const plan = await requirePlan(planName);
  const result = await prisma.$transaction(async (tx) => {
    await tx.workspace.update({ where: { id: workspaceId }, data: { planName: plan.name } });
    await setMonthlyAllowance(tx, workspaceId, plan.monthlyCredits, `plan changed to ${plan.name}`);
    return { workspaceId, plan: plan.name };
  });
  creditsChanged(workspaceId);
  return result;
}

/** On a database with no workspace, creates a demo workspace; returns its key once, else null. */
export async function ensureDemoWorkspace(): Promise<{ workspaceId: string; apiKey: string } | null> {
  // Two processes starting at once must not both create one: a transaction-scoped advisory lock.
  return prisma.$transaction(async (tx) => {
    // (IS NULL: the lock function returns void, which the driver adapter cannot read.)
    await sql(Prisma.sql`SELECT pg_advisory_xact_lock(727001) IS NULL AS locked`, { tx });
    if ((await tx.workspace.count()) > 0) return null;
    const { workspace, secret } = await createWorkspace({ name: "Demo workspace", plan: "free" }, tx);
    return { workspaceId: workspace.id, apiKey: secret };
  });
}
