/**
 * Credits: every change of balance is a ledger row with an idempotency key unique per workspace,
 * and every change takes the workspace row lock first, so concurrent requests serialise and a
 * retried job or repeated request can never charge twice.
 *
 *   total_remaining   = (monthly_allowance - monthly_used) + granted_credits
 *   available to new work = total_remaining - reserved_credits
 *
 * Charges draw the monthly allowance first, then granted credits. A reservation holds credits for
 * work charged only on success (analysis): it is captured (charged) or released exactly once.
 * The database CHECKs on `workspaces` back all of this up (see the init migration).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, type Tx } from "../../infra/db.ts";
import { pageAndTotal, pageSql, type Order, type PageRequest } from "../shared/pages.ts";
import { InsufficientCreditsError, notFound, validationError } from "../shared/errors.ts";
import type { CreditEntryKind } from "../../generated/prisma/client.ts";
import { nextCycleBoundary } from "./cycle.ts";
import { currentThenEvents, publishEvent } from "../shared/events.ts";
import { recordWorkspaceEvents, relayWorkspaceBacklog } from "../webhooks/outbox.ts";
import { config } from "../../config.ts";

/**
 * Tells live subscribers the workspace's balance or reservations changed. Called after the commit:
 * by this module for its own transactions, and by a caller that passed its `tx` (analysis
 * admission, radar creation) once that transaction is committed. A lost event only delays a refresh.
 */
export function creditsChanged(workspaceId: string): void {
  void publishEvent("creditsUpdated", workspaceId, { workspaceId, at: new Date().toISOString() });
  // A charge may have recorded `credits.low` in the committed transaction: relay it now.
  void relayWorkspaceBacklog(workspaceId);
}

/** Runs `fn` in `tx` when given (the caller commits and announces), else in its own transaction. */
async function inTransaction<T extends { applied: boolean }>(workspaceId: () => string, fn: (t: Tx) => Promise<T>, tx?: Tx): Promise<T> {
  if (tx) return fn(tx);
  const result = await prisma.$transaction(fn);
  if (result.applied) creditsChanged(workspaceId());
  return result;
}

/** The balance columns of a workspace row. */
interface WorkspaceBalanceRow {
  id: string;
  planName: string;
  monthlyAllowance: number;
  monthlyUsed: number;
  grantedCredits: number;
  reservedCredits: number;
  cycleDay: number;
  cycleStartedAt: Date;
  cycleResetsAt: Date;
  /** The owners' `credits.low` threshold (credits left), or null for CREDITS_LOW_PERCENT of the allowance. */
  creditsAlertThreshold: number | null;
}

const BALANCE_COLUMNS = Prisma.raw(`id, plan_name AS "planName", monthly_allowance AS "monthlyAllowance", monthly_used AS "monthlyUsed",
  granted_credits AS "grantedCredits", reserved_credits AS "reservedCredits", cycle_day AS "cycleDay",
  cycle_started_at AS "cycleStartedAt", cycle_resets_at AS "cycleResetsAt", credits_alert_threshold AS "creditsAlertThreshold"`);

export interface CreditBalance {
  totalRemaining: number;
  monthlyTotal: number;
  monthlyUsed: number;
  monthlyRemaining: number;
  reserved: number;
  cycleResetsAt: Date;
}

export interface LedgerEntry {
  id: string;
  kind: CreditEntryKind;
  amount: number;
  balanceAfter: number;
  reason: string;
  createdAt: Date;
}

const total = (w: Pick<WorkspaceBalanceRow, "monthlyAllowance" | "monthlyUsed" | "grantedCredits">) =>
  w.monthlyAllowance - w.monthlyUsed + w.grantedCredits;

/** Locks the workspace row for the rest of the transaction and returns its balance columns. */
async function lockWorkspace(tx: Tx, workspaceId: string): Promise<WorkspaceBalanceRow> {
  const [row] = await sql<WorkspaceBalanceRow>(
    Prisma.sql`SELECT ${BALANCE_COLUMNS} FROM workspaces WHERE id = ${workspaceId}::uuid FOR UPDATE`,
    { tx },
  );
  if (!row) throw notFound("Workspace");
  return row;
}

function toBalance(w: WorkspaceBalanceRow): CreditBalance {
  return {
    totalRemaining: total(w),
    monthlyTotal: w.monthlyAllowance,
    monthlyUsed: w.monthlyUsed,
    monthlyRemaining: w.monthlyAllowance - w.monthlyUsed,
    reserved: w.reservedCredits,
    cycleResetsAt: w.cycleResetsAt,
  };
}

function toEntry(e: {
  id: string;
  kind: CreditEntryKind;
  amount: number;
  balanceAfter: number;
  reason: string;
  createdAt: Date;
}): LedgerEntry {
  return { id: e.id, kind: e.kind, amount: e.amount, balanceAfter: e.balanceAfter, reason: e.reason, createdAt: e.createdAt };
}

async function findEntry(tx: Tx, workspaceId: string, idempotencyKey: string) {
  return tx.creditLedgerEntry.findUnique({ where: { workspaceId_idempotencyKey: { workspaceId, idempotencyKey } } });
}

export async function getBalance(workspaceId: string): Promise<CreditBalance> {
  const [row] = await sql<WorkspaceBalanceRow>(Prisma.sql`SELECT ${BALANCE_COLUMNS} FROM workspaces WHERE id = ${workspaceId}::uuid`, {
    prepare: true,
  });
  if (!row) throw notFound("Workspace");
  return toBalance(row);
}

/** The ledger: newest first, ties by id. */
export const LEDGER_ORDER: Order<LedgerEntry> = [
  { sql: "e.created_at", type: "timestamptz", desc: true, value: (e) => e.createdAt },
  { sql: "e.id", type: "uuid", desc: true, value: (e) => e.id },
];

/** A page of the workspace's ledger entries (LEDGER_ORDER). */
export async function listLedger(workspaceId: string, page: PageRequest): Promise<LedgerEntry[]> {
  const p = pageSql(LEDGER_ORDER, page);
  return sql<LedgerEntry>(
    Prisma.sql`SELECT ${LEDGER_COLUMNS} FROM credit_ledger e WHERE e.workspace_id = ${workspaceId}::uuid ${p.where} ${p.orderBy} ${p.limit}`,
  );
}

/** A page of the ledger and its size from one statement (`pageAndTotal`): they agree while credits are charged and granted. */
export function ledgerPage(workspaceId: string, page: PageRequest): Promise<{ items: LedgerEntry[]; total: number }> {
  return pageAndTotal(LEDGER_ORDER, page, {
    columns: LEDGER_COLUMNS,
    from: Prisma.sql`credit_ledger e`,
    where: Prisma.sql`e.workspace_id = ${workspaceId}::uuid`,
    count: Prisma.sql`SELECT count(*)::int FROM credit_ledger c WHERE c.workspace_id = ${workspaceId}::uuid`,
  });
}

const LEDGER_COLUMNS = Prisma.raw(
  `e.id, e.kind::text AS kind, e.amount, e.balance_after AS "balanceAfter", e.reason, e.created_at AS "createdAt"`,
);

/** How many of the latest ledger entries the credits summary shows (REST GET /credits, MCP get_credits). */
export const LATEST_LEDGER_ENTRIES = 20;

export interface CreditsSummary extends CreditBalance {
  /** The LATEST_LEDGER_ENTRIES latest ledger entries, newest first. */
  ledger: LedgerEntry[];
}

/** The balance with the latest ledger entries. */
export async function readCredits(workspaceId: string): Promise<CreditsSummary> {
  const [balance, ledger] = await Promise.all([
    getBalance(workspaceId),
    listLedger(workspaceId, { limit: LATEST_LEDGER_ENTRIES, offset: 0 }),
  ]);
  return { ...balance, ledger };
}

/** Ledger entries of the workspace by id, in any order. */
export async function ledgerEntriesByIds(workspaceId: string, ids: readonly string[]): Promise<LedgerEntry[]> {
  if (ids.length === 0) return [];
  return sql<LedgerEntry>(
    Prisma.sql`SELECT ${LEDGER_COLUMNS} FROM credit_ledger e WHERE e.workspace_id = ${workspaceId}::uuid AND e.id = ANY(${ids as string[]}::uuid[])`,
  );
}

/** The workspace's balance: a signal at once (read the current balance), then on every change (read it again). */
export function watchCredits(workspaceId: string): AsyncIterable<unknown> {
  return currentThenEvents("creditsUpdated", workspaceId, async () => ({ workspaceId, at: new Date().toISOString() }));
}

export async function countLedger(workspaceId: string): Promise<number> {
  const [row] = await sql<{ n: number }>(Prisma.sql`SELECT count(*) AS n FROM credit_ledger WHERE workspace_id = ${workspaceId}::uuid`);
  return row!.n;
}

export interface ChargeInput {
  workspaceId: string;
  amount: number;
  idempotencyKey: string;
  reason: string;
  /** Words for the insufficient-credits message, e.g. "a radar search". */
  what?: string;
}

/**
 * Charges `amount` now, if `total_remaining - reserved >= amount`; otherwise throws
 * InsufficientCreditsError and changes nothing. A used idempotency key returns the original entry.
 * Pass `tx` to make the charge part of a larger transaction (e.g. creating the thing paid for).
 */
export async function charge(input: ChargeInput, tx?: Tx): Promise<{ entry: LedgerEntry; applied: boolean }> {
  const run = async (t: Tx) => {
    const w = await lockWorkspace(t, input.workspaceId);
    const existing = await findEntry(t, input.workspaceId, input.idempotencyKey);
    if (existing) return { entry: toEntry(existing), applied: false };
    const available = total(w) - w.reservedCredits;
    if (available < input.amount) throw new InsufficientCreditsError(input.amount, Math.max(available, 0), input.what ?? "this operation");
    return { entry: await applyCharge(t, w, input), applied: true };
  };
  return inTransaction(() => input.workspaceId, run, tx);
}

/** Moves the balance for a charge whose cover was already checked (or reserved) by the caller. */
async function applyCharge(tx: Tx, w: WorkspaceBalanceRow, input: ChargeInput, releaseReserved = 0): Promise<LedgerEntry> {
  const monthlyPart = Math.min(input.amount, w.monthlyAllowance - w.monthlyUsed);
  const grantedPart = input.amount - monthlyPart;
  const after = { ...w, monthlyUsed: w.monthlyUsed + monthlyPart, grantedCredits: w.grantedCredits - grantedPart };
  await tx.workspace.update({
    where: { id: w.id },
    data: {
      monthlyUsed: after.monthlyUsed,
      grantedCredits: after.grantedCredits,
      reservedCredits: w.reservedCredits - releaseReserved,
    },
  });
  await recordIfLow(tx, w, after);
  const entry = await tx.creditLedgerEntry.create({
    data: {
      workspaceId: w.id,
      kind: "charge",
      amount: -input.amount,
      monthlyPart,
      grantedPart,
      balanceAfter: total(after),
      reason: input.reason,
      idempotencyKey: input.idempotencyKey,
    },
  });
  return toEntry(entry);
}

/**
 * `credits.low`: recorded (in the charge's transaction) when a charge takes `total_remaining` from at
 * least the threshold to below it: the owners' threshold when they set one (credits left:
 * src/domain/notifications/preferences.ts), else CREDITS_LOW_PERCENT % of the monthly allowance. It fires once per crossing
 * (again only after the balance rose back above the threshold: a renewal, a grant, a refund).
 */
function creditsLowThreshold(monthlyAllowance: number, percent = config.creditsLowPercent): number {
  return Math.ceil((monthlyAllowance * percent) / 100);
}

async function recordIfLow(tx: Tx, before: WorkspaceBalanceRow, after: WorkspaceBalanceRow): Promise<void> {
  const threshold = before.creditsAlertThreshold ?? creditsLowThreshold(before.monthlyAllowance);
  if (threshold <= 0 || total(before) < threshold || total(after) >= threshold) return;
  await recordWorkspaceEvents(
    [
      {
        workspaceId: before.id,
        type: "credits.low",
        data: {
          totalRemaining: total(after),
          threshold,
          thresholdPercent: config.creditsLowPercent,
          thresholdSetByOwner: before.creditsAlertThreshold !== null,
          monthlyTotal: before.monthlyAllowance,
          reserved: before.reservedCredits,
        },
      },
    ],
    tx,
  );
}

/**
 * Gives back what the charge with `chargeKey` took, once (keyed by `refundKey`). The monthly part
 * goes back to the current cycle's allowance as far as it was used; the rest becomes granted
 * credits (so a refund across a renewal is not lost). A missing charge refunds nothing.
 */
export async function refund(args: { workspaceId: string; chargeKey: string; refundKey: string; reason: string }, tx?: Tx) {
  const run = async (t: Tx) => {
    const w = await lockWorkspace(t, args.workspaceId);
    const existing = await findEntry(t, args.workspaceId, args.refundKey);
    if (existing) return { entry: toEntry(existing), applied: false };
    const chargeEntry = await findEntry(t, args.workspaceId, args.chargeKey);
    if (!chargeEntry || chargeEntry.kind !== "charge") return { entry: null, applied: false };
    const amount = -chargeEntry.amount;
    const monthlyBack = Math.min(chargeEntry.monthlyPart, w.monthlyUsed);
    const grantedBack = amount - monthlyBack;
    const after = { ...w, monthlyUsed: w.monthlyUsed - monthlyBack, grantedCredits: w.grantedCredits + grantedBack };
    await t.workspace.update({ where: { id: w.id }, data: { monthlyUsed: after.monthlyUsed, grantedCredits: after.grantedCredits } });
    const entry = await t.creditLedgerEntry.create({
      data: {
        workspaceId: w.id,
        kind: "refund",
        amount,
        monthlyPart: -monthlyBack,
        grantedPart: -grantedBack,
        balanceAfter: total(after),
        reason: args.reason,
        idempotencyKey: args.refundKey,
      },
    });
    return { entry: toEntry(entry), applied: true };
  };
  return inTransaction(() => args.workspaceId, run, tx);
}

/** Adds granted (top-up) credits, which do not expire. */
export async function grant(args: { workspaceId: string; amount: number; idempotencyKey: string; reason: string }) {
  return inTransaction(
    () => args.workspaceId,
    async (t) => {
      const w = await lockWorkspace(t, args.workspaceId);
      const existing = await findEntry(t, args.workspaceId, args.idempotencyKey);
      if (existing) return { entry: toEntry(existing), applied: false, balance: toBalance(w) };
      const after = { ...w, grantedCredits: w.grantedCredits + args.amount };
      await t.workspace.update({ where: { id: w.id }, data: { grantedCredits: after.grantedCredits } });
      const entry = await t.creditLedgerEntry.create({
        data: {
          workspaceId: w.id,
          kind: "grant",
          amount: args.amount,
          grantedPart: args.amount,
          balanceAfter: total(after),
          reason: args.reason,
          idempotencyKey: args.idempotencyKey,
        },
      });
      return { entry: toEntry(entry), applied: true, balance: toBalance(after) };
    },
  );
}

export interface Reservation {
  id: string;
  amount: number;
  status: "held" | "captured" | "released";
}

/**
 * Holds `amount` credits for work charged only on success. Admission requires
 * `total_remaining - reserved >= amount`. A reservation is not a charge: the balance shown to the
 * client changes only at capture. A used idempotency key returns the existing reservation.
 */
export async function reserve(
  args: { workspaceId: string; amount: number; idempotencyKey: string; reason: string; what?: string },
  tx?: Tx,
): Promise<Reservation> {
  const run = async (t: Tx) => {
    const w = await lockWorkspace(t, args.workspaceId);
    const existing = await t.creditReservation.findUnique({
      where: { workspaceId_idempotencyKey: { workspaceId: args.workspaceId, idempotencyKey: args.idempotencyKey } },
    });
    if (existing) return { id: existing.id, amount: existing.amount, status: existing.status, applied: false };
    const available = total(w) - w.reservedCredits;
    if (available < args.amount) throw new InsufficientCreditsError(args.amount, Math.max(available, 0), args.what ?? "this operation");
    await t.workspace.update({ where: { id: w.id }, data: { reservedCredits: w.reservedCredits + args.amount } });
    const r = await t.creditReservation.create({
      data: { workspaceId: w.id, amount: args.amount, reason: args.reason, idempotencyKey: args.idempotencyKey },
    });
    return { id: r.id, amount: r.amount, status: r.status, applied: true };
  };
  const { applied: _applied, ...reservation } = await inTransaction(() => args.workspaceId, run, tx);
  return reservation;
}

/** Settles a held reservation exactly once: `capture` charges it, `release` gives it back. */
async function settle(reservationId: string, outcome: "captured" | "released", tx?: Tx): Promise<{ applied: boolean }> {
  let workspaceId = "";
  const run = async (t: Tx) => {
    const r0 = await t.creditReservation.findUnique({ where: { id: reservationId } });
    workspaceId = r0?.workspaceId ?? "";
    if (!r0) throw notFound("Credit reservation");
    const w = await lockWorkspace(t, r0.workspaceId);
    const r = await t.creditReservation.findUniqueOrThrow({ where: { id: reservationId } });
    if (r.status !== "held") return { applied: false };
    if (outcome === "captured") {
      await applyCharge(
        t,
        w,
        { workspaceId: w.id, amount: r.amount, idempotencyKey: `reservation:${r.id}:capture`, reason: r.reason },
        r.amount,
      );
    } else {
      await t.workspace.update({ where: { id: w.id }, data: { reservedCredits: w.reservedCredits - r.amount } });
    }
    await t.creditReservation.update({ where: { id: r.id }, data: { status: outcome, settledAt: new Date() } });
    return { applied: true };
  };
  return inTransaction(() => workspaceId, run, tx);
}

export const captureReservation = (reservationId: string, tx?: Tx) => settle(reservationId, "captured", tx);
export const releaseReservation = (reservationId: string, tx?: Tx) => settle(reservationId, "released", tx);

/**
 * Gives the current cycle a new monthly allowance (a plan change): credits already used stay used
 * (as far as the new allowance goes), granted credits stay, and the change of total_remaining is a
 * ledger row. Refused when the new balance would not cover the credits running analyses reserve.
 * Runs in the caller's transaction (which announces the change after its commit).
 */
export async function setMonthlyAllowance(tx: Tx, workspaceId: string, allowance: number, reason: string): Promise<void> {
  const w = await lockWorkspace(tx, workspaceId);
  const after = { ...w, monthlyAllowance: allowance, monthlyUsed: Math.min(w.monthlyUsed, allowance) };
  if (total(after) < w.reservedCredits) {
    throw validationError("The new plan's allowance would not cover credits reserved by running analyses; try again when they finish.");
  }
  await tx.workspace.update({ where: { id: w.id }, data: { monthlyAllowance: after.monthlyAllowance, monthlyUsed: after.monthlyUsed } });
  const change = total(after) - total(w);
  if (change !== 0) {
    await tx.creditLedgerEntry.create({
      data: {
        workspaceId: w.id,
        kind: "renewal",
        amount: change,
        monthlyPart: change,
        balanceAfter: total(after),
        reason,
        idempotencyKey: `allowance:${allowance}:${Date.now()}`,
      },
    });
  }
}

/**
 * Renews the monthly allowance of one workspace if its cycle has ended: unused monthly credits do
 * not roll over, granted credits stay. Keyed by the cycle boundary, so running twice renews once.
 */
async function renewIfDue(workspaceId: string, now = new Date()): Promise<boolean> {
  const { applied } = await inTransaction(
    () => workspaceId,
    async (t) => {
      const w = await lockWorkspace(t, workspaceId);
      if (w.cycleResetsAt > now) return { applied: false };
      const plan = await t.plan.findUniqueOrThrow({ where: { name: w.planName } });
      let boundary = w.cycleResetsAt;
      while (nextCycleBoundary(boundary, w.cycleDay) <= now) boundary = nextCycleBoundary(boundary, w.cycleDay);
      const after = { ...w, monthlyAllowance: plan.monthlyCredits, monthlyUsed: 0 };
      await t.workspace.update({
        where: { id: w.id },
        data: {
          monthlyAllowance: plan.monthlyCredits,
          monthlyUsed: 0,
          cycleStartedAt: boundary,
          cycleResetsAt: nextCycleBoundary(boundary, w.cycleDay),
        },
      });
      await t.creditLedgerEntry.create({
        data: {
          workspaceId: w.id,
          kind: "renewal",
          amount: total(after) - total(w),
          monthlyPart: plan.monthlyCredits,
          balanceAfter: total(after),
          reason: `monthly allowance of plan ${plan.name}`,
          idempotencyKey: `renewal:${boundary.toISOString()}`,
        },
      });
      return { applied: true };
    },
  );
  return applied;
}

/** Renews every workspace whose cycle has ended; run by the `renew-credits` job scheduler. */
export async function renewDueWorkspaces(now = new Date()): Promise<number> {
  const due = await prisma.workspace.findMany({ where: { cycleResetsAt: { lte: now } }, select: { id: true } });
  let renewed = 0;
  for (const { id } of due) if (await renewIfDue(id, now)) renewed++;
  return renewed;
}
