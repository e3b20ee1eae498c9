/**
 * The campaigns' jobs (queue `maintenance`, src/jobs/registry.ts):
 * - `campaign-budgets` (a job scheduler, every 5 minutes): records `campaign.budget_reached` at 80 %
 *   and 100 % of each active campaign's budget, once each (./close.ts, `checkCampaignBudgets`).
 */
export const CAMPAIGN_BUDGETS_JOB = "campaign-budgets";
export const CAMPAIGN_BUDGETS_EVERY_MS = 5 * 60_000;
