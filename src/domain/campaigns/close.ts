/**
 * Closing a campaign (owner-only) and its budget events.
 *
 * Closing freezes the figures: in one transaction, under the campaign's row lock, the earnings
 * function's rows at the window's end (./earnings.ts) are copied into `campaign_payout_rows` and the
 * spend over time into `campaigns.closed_series`; the campaign becomes `closed`, and
 * `campaign.closed` is recorded in the outbox (webhooks, GraphQL `workspaceEvents`). A closed
 * campaign answers its frozen rows only: later scrapes change nothing of it.
 *
 * `campaign.budget_reached` is recorded once per campaign and threshold (80 % and 100 % of the
 * budget; `campaign_budget_alerts` is the memory), by a periodic job (`checkCampaignBudgets`, every
 * 5 minutes) and at closing. Why a job and not the scrape store: a campaign's spend is an aggregate
 * over all its videos' history (the earnings function), while the scrape store writes one video per
 * statement on the hot path; recomputing a campaign's spend on each of its videos' scrapes would cost
 * the whole campaign per scrape. The job costs one statement per active campaign with a budget, and
 * an alert arrives at most 5 minutes after the scrape that crossed the threshold.
 */
import { logger } from "../../infra/logger.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { prisma, sql, sqlExec, type Tx } from "../../infra/db.ts";
import type { Actor } from "../actors/actor.ts";
import { authorize } from "../actors/roles.ts";
import { recordAudit } from "../actors/audit.ts";
import { DomainError, notFound } from "../shared/errors.ts";
import { recordWorkspaceEvents, relayWorkspaceEvents } from "../webhooks/outbox.ts";
import { campaignTotals, payoutRowsSql, spendSeries } from "./earnings.ts";
import { requireCampaign, type CampaignRecord } from "./service.ts";

/** The thresholds of `campaign.budget_reached`, in percent of the budget. */
export const BUDGET_THRESHOLDS = [80, 100] as const;

interface BudgetCampaign {
  id: string;
  workspaceId: string;
  name: string;
  currency: string;
  budgetMinor: number | null;
}

/** Records `campaign.budget_reached` for each threshold the spend has reached and that was not announced yet; answers the events' ids. */
async function recordBudgetThresholds(c: BudgetCampaign, spentMinor: number, tx: Tx): Promise<string[]> {
  const budget = c.budgetMinor;
  if (!budget) return [];
  const reached = BUDGET_THRESHOLDS.filter((p) => spentMinor * 100 >= budget * p);
  if (reached.length === 0) return [];
  const fresh = await sql<{ percent: number }>(
    Prisma.sql`INSERT INTO campaign_budget_alerts (campaign_id, percent) SELECT ${c.id}::uuid, p FROM unnest(${reached}::int[]) p
      ON CONFLICT DO NOTHING RETURNING percent`,
    { tx },
  );
  return recordWorkspaceEvents(
    fresh
      .sort((a, b) => a.percent - b.percent)
      .map((f) => ({
        workspaceId: c.workspaceId,
        type: "campaign.budget_reached" as const,
        data: { campaignId: c.id, name: c.name, percent: f.percent, budgetMinor: budget, spentMinor, currency: c.currency },
      })),
    tx,
  );
}

/** The job body: every active campaign with a budget, its spend now, its thresholds. */
export async function checkCampaignBudgets(): Promise<{ checked: number; events: number }> {
  const campaigns = await sql<BudgetCampaign & { status: "active" }>(Prisma.sql`
    SELECT id::text, workspace_id::text AS "workspaceId", name, currency, budget_minor AS "budgetMinor", status
      FROM campaigns WHERE status = 'active' AND budget_minor > 0
       AND (SELECT count(*) FROM campaign_budget_alerts a WHERE a.campaign_id = campaigns.id) < ${BUDGET_THRESHOLDS.length}`);
  let events = 0;
  for (const c of campaigns) {
    // One campaign that cannot be read must not keep the others' alerts back.
    try {
      const totals = await campaignTotals(c.workspaceId, c);
      const ids = await prisma.$transaction((tx) => recordBudgetThresholds(c, totals.payout, tx));
      events += ids.length;
      await relayWorkspaceEvents(ids);
    } catch (e) {
      logger.error({ err: (e as Error).message, campaignId: c.id, workspaceId: c.workspaceId }, "campaign budget check failed");
    }
  }
  return { checked: campaigns.length, events };
}

/** Closes an active campaign, freezing its rows and spend over time (owner-only; 409 CAMPAIGN_CLOSED when it already is). */
export async function closeCampaign(actor: Actor, campaignId: string): Promise<CampaignRecord> {
  authorize(actor, "campaigns.manage");
  const ws = actor.workspaceId;
  const eventIds = await prisma.$transaction(async (tx) => {
    const [row] = await sql<{ status: string }>(
      Prisma.sql`SELECT status FROM campaigns WHERE id = ${campaignId}::uuid AND workspace_id = ${ws}::uuid FOR UPDATE`,
      { tx },
    );
    if (!row) throw notFound("Campaign");
    if (row.status === "closed") throw new DomainError("CAMPAIGN_CLOSED", "The campaign is already closed.");
    await sqlExec(
      Prisma.sql`
      INSERT INTO campaign_payout_rows (campaign_id, video_id, account_id, creator_id, payee_name, platform, url, username, posted_at, start_at, start_views,
        start_source, end_at, end_views, end_source, views_earned, cpm_amount, per_video_cap_cut, fee_amount, amount_before_creator_cap, creator_cap_cut,
        payout, last_scraped_at)
      SELECT ${campaignId}::uuid, r."videoId"::uuid, r."accountId"::uuid, r."creatorId"::uuid, r."payeeName", r.platform, r.url, r.username, r."postedAt",
        r."startAt", r."startViews", r."startSource", r."endAt", r."endViews", r."endSource", r."viewsEarned", r."cpmAmount", r."perVideoCapCut",
        r."feeAmount", r."amountBeforeCreatorCap", r."creatorCapCut", r.payout, r."lastScrapedAt"
        FROM (${payoutRowsSql(ws, campaignId, Prisma.sql`SELECT e AS at FROM c`)}) r`,
      { tx },
    );
    const series = await spendSeries(ws, campaignId, tx);
    const [c] = await sql<BudgetCampaign & { payout: number; viewsEarned: number; videos: number; closedAt: Date }>(
      Prisma.sql`
      UPDATE campaigns SET status = 'closed', closed_at = now(), updated_at = now(), closed_series = ${JSON.stringify(series)}::jsonb
       WHERE id = ${campaignId}::uuid
      RETURNING id::text, workspace_id::text AS "workspaceId", name, currency, budget_minor AS "budgetMinor", closed_at AS "closedAt",
        (SELECT coalesce(sum(payout), 0) FROM campaign_payout_rows WHERE campaign_id = ${campaignId}::uuid)::int8 AS payout,
        (SELECT coalesce(sum(views_earned), 0) FROM campaign_payout_rows WHERE campaign_id = ${campaignId}::uuid)::int8 AS "viewsEarned",
        (SELECT count(*) FROM campaign_payout_rows WHERE campaign_id = ${campaignId}::uuid)::int8 AS videos`,
      { tx },
    );
    const closed = await recordWorkspaceEvents(
      [
        {
          workspaceId: ws,
          type: "campaign.closed",
          data: {
            campaignId,
            name: c!.name,
            currency: c!.currency,
            payoutMinor: c!.payout,
            viewsEarned: c!.viewsEarned,
            videos: c!.videos,
            budgetMinor: c!.budgetMinor,
            closedAt: c!.closedAt.toISOString(),
          },
        },
      ],
      tx,
    );
    const budget = await recordBudgetThresholds(c!, c!.payout, tx);
    await recordAudit(
      {
        workspaceIds: [ws],
        by: actor,
        action: "campaign.closed",
        target: c!.name,
        details: { campaignId, payoutMinor: c!.payout, currency: c!.currency },
      },
      tx,
    );
    return [...closed, ...budget];
  });
  await relayWorkspaceEvents(eventIds);
  return requireCampaign(ws, campaignId);
}
