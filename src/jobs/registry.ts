/**
 * What the workers run: per queue, one line per job name calling the domain's job body (the
 * workflows live in src/domain/<area>/), the concurrency, the lock settings and the repeatable
 * schedules. Providers come from the composition root (src/main/providers.ts), built lazily so a
 * process that never runs a kind of job never builds its providers.
 */
import type { Job } from "bullmq";
import { config } from "../config.ts";
import type { QueueName } from "../infra/queues.ts";
import type { JobRun } from "../domain/shared/jobs.ts";
import { renewDueWorkspaces } from "../domain/credits/service.ts";
import {
  DAILY_SNAPSHOTS,
  HISTORY_PARTITIONS,
  PRUNE_HISTORY,
  REFRESH_DUE,
  RETIRED_SCHEDULES,
  SCRAPE_ACCOUNT,
  SCRAPE_VIDEO,
  type ScrapeAccountData,
  type ScrapeVideoData,
} from "../domain/tracking/jobs.ts";
import { refreshDue, scrapeAccount, scrapeVideo } from "../domain/tracking/scrape-jobs.ts";
import { ensureHistoryPartitions, pruneHistory } from "../domain/tracking/history-partitions.ts";
import { fillDailySnapshots } from "../domain/tracking/scrape-store.ts";
import type { ScrapeProvider } from "../domain/tracking/ports.ts";
import { RUN_ANALYSIS_JOB, SWEEP_JOB as SWEEP_ANALYSES, type RunAnalysisData } from "../domain/analysis/jobs.ts";
import { runAnalysis, sweepAnalyses, type AnalysisProviders } from "../domain/analysis/pipeline.ts";
import { SEARCH_JOB, SWEEP_JOB as SWEEP_SEARCHES, type SearchJobData } from "../domain/radar/jobs.ts";
import { runSearch, type RadarDeps } from "../domain/radar/run.ts";
import { RADAR_DEADLINE_MS, sweepStaleSearches } from "../domain/radar/lifecycle.ts";
import { DELIVER_JOB, PRUNE_JOB, SWEEP_JOB as SWEEP_WEBHOOKS, type DeliverJobData } from "../domain/webhooks/jobs.ts";
import { deliverWebhook } from "../domain/webhooks/delivery.ts";
import { pruneEvents, sweepOutbox } from "../domain/webhooks/outbox.ts";
import type { WebhookSender } from "../domain/webhooks/ports.ts";
import { PRUNE_IDEMPOTENT_REQUESTS, pruneIdempotentRequests } from "../domain/shared/idempotency.ts";
import {
  DIGESTS_JOB,
  NOTIFY_JOB,
  PRUNE_MAIL_JOB,
  SEND_MAIL_JOB,
  SWEEP_MAIL_JOB,
  type NotifyData,
  type SendMailData,
} from "../domain/mail/jobs.ts";
import { notifyEvents, sweepUnnotified } from "../domain/notifications/consume.ts";
import { queueDueDigests } from "../domain/notifications/digest.ts";
import { sendMail } from "../domain/mail/send.ts";
import { pruneMail, sweepMails } from "../domain/mail/outbox.ts";
import type { MailTransport } from "../domain/mail/ports.ts";
import { CAMPAIGN_BUDGETS_EVERY_MS, CAMPAIGN_BUDGETS_JOB } from "../domain/campaigns/jobs.ts";
import { checkCampaignBudgets } from "../domain/campaigns/close.ts";
import { EXPORT_JOB, SWEEP_EXPORTS_JOB, type ExportJobData } from "../domain/exports/jobs.ts";
import { runExport, sweepExports } from "../domain/exports/run.ts";
import { REPORTS_EVERY_MS, REPORTS_JOB } from "../domain/reports/jobs.ts";
import { produceDueReports } from "../domain/reports/produce.ts";
import { REPORT_MAIL_ATTACHERS } from "../domain/reports/attachments.ts";

export interface JobSchedule {
  /** Stable id: upserting the same id replaces the schedule instead of adding another. */
  id: string;
  jobName: string;
  every?: number;
  pattern?: string;
  data?: Record<string, unknown>;
}

export type JobHandler = (job: Job, run: JobRun) => Promise<unknown>;

export interface QueueDefinition {
  queue: QueueName;
  concurrency: number;
  handlers: Record<string, JobHandler>;
  schedules?: JobSchedule[];
  /** Runs when a worker process starts, alongside it (a failure is logged, not fatal). */
  onStart?: () => Promise<unknown>;
  /** Schedule ids of earlier versions, removed when the workers start. */
  retiredSchedules?: string[];
  /** Lock settings: how soon a job of a killed worker is picked up by another. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

/** The providers each queue's jobs need, each made on first use. */
export interface WorkerProviders {
  scrape: () => ScrapeProvider;
  analysis: () => AnalysisProviders;
  radar: () => RadarDeps;
  webhooks: () => WebhookSender;
  mail: () => MailTransport;
}

/** The daily snapshot fill runs every 6 hours: idempotent, and never misses a UTC day. */
const DAILY_SNAPSHOTS_EVERY_MS = 6 * 3600_000;
/**
 * History retention: hourly (a run drops the monthly partitions that left the full-resolution
 * window; most runs find none). Partitions made ahead: every 6 hours (next month's exists for weeks
 * before it starts; workers also make them when they start).
 */
const PRUNE_HISTORY_EVERY_MS = 3600_000;
const HISTORY_PARTITIONS_EVERY_MS = 6 * 3600_000;
const RENEW_CREDITS_EVERY_MS = 15 * 60_000;
const RADAR_SWEEP_EVERY_MS = 60_000;
const PRUNE_IDEMPOTENT_REQUESTS_EVERY_MS = 3600_000;

export function trackingQueue(scrape: () => ScrapeProvider): QueueDefinition {
  return {
    queue: "scrape",
    concurrency: config.concurrency.scrape,
    // A killed worker's job is picked up by another after at most lockDuration + stalledInterval.
    lockDurationMs: config.scrapeJobs.lockMs,
    stalledIntervalMs: config.scrapeJobs.stalledIntervalMs,
    handlers: {
      [SCRAPE_VIDEO]: (job, run) => scrapeVideo((job.data as ScrapeVideoData).videoId, run, scrape()),
      [SCRAPE_ACCOUNT]: (job, run) => scrapeAccount((job.data as ScrapeAccountData).accountId, run, scrape()),
      [REFRESH_DUE]: () => refreshDue(),
      [PRUNE_HISTORY]: () => pruneHistory(),
      [HISTORY_PARTITIONS]: () => ensureHistoryPartitions(),
      [DAILY_SNAPSHOTS]: () => fillDailySnapshots(new Date()),
    },
    schedules: [
      { id: REFRESH_DUE, jobName: REFRESH_DUE, every: config.refresh.schedulerEveryMs },
      { id: PRUNE_HISTORY, jobName: PRUNE_HISTORY, every: PRUNE_HISTORY_EVERY_MS },
      { id: HISTORY_PARTITIONS, jobName: HISTORY_PARTITIONS, every: HISTORY_PARTITIONS_EVERY_MS },
      { id: DAILY_SNAPSHOTS, jobName: DAILY_SNAPSHOTS, every: DAILY_SNAPSHOTS_EVERY_MS },
    ],
    retiredSchedules: RETIRED_SCHEDULES,
    // The window's, the current and next month's history partitions exist without waiting for the job.
    onStart: () => ensureHistoryPartitions(),
  };
}

export function analysisQueue(providers: () => AnalysisProviders): QueueDefinition {
  return {
    queue: "analysis",
    concurrency: config.concurrency.analysis,
    lockDurationMs: config.analysisJobs.lockMs,
    stalledIntervalMs: config.analysisJobs.stalledIntervalMs,
    handlers: {
      [RUN_ANALYSIS_JOB]: (job, run) => runAnalysis((job.data as RunAnalysisData).analysisId, providers(), run),
      [SWEEP_ANALYSES]: () => sweepAnalyses(),
    },
    schedules: [{ id: SWEEP_ANALYSES, jobName: SWEEP_ANALYSES, every: config.analysisJobs.sweepIntervalMs }],
  };
}

export function radarQueue(deps: () => RadarDeps): QueueDefinition {
  return {
    queue: "radar",
    concurrency: config.concurrency.radar,
    // A killed worker's search is picked up by another worker after about 30 s (RADAR_LOCK_MS + RADAR_STALLED_INTERVAL_MS), not 60.
    lockDurationMs: config.radarJobs.lockMs,
    stalledIntervalMs: config.radarJobs.stalledIntervalMs,
    handlers: {
      [SEARCH_JOB]: (job, run) => runSearch((job.data as SearchJobData).searchId, deps(), run),
      [SWEEP_SEARCHES]: () => sweepStaleSearches(RADAR_DEADLINE_MS),
    },
    schedules: [{ id: "radar-sweep", jobName: SWEEP_SEARCHES, every: RADAR_SWEEP_EVERY_MS }],
  };
}

/** Webhook deliveries (one job per attempt), the outbox sweep and the pruning of old events. */
export function webhooksQueue(sender: () => WebhookSender): QueueDefinition {
  return {
    queue: "webhooks",
    concurrency: config.webhooks.concurrency,
    lockDurationMs: config.webhooks.lockMs,
    stalledIntervalMs: config.webhooks.stalledIntervalMs,
    handlers: {
      [DELIVER_JOB]: (job, run) =>
        deliverWebhook((job.data as DeliverJobData).deliveryId, (job.data as DeliverJobData).attempt, sender(), undefined, run.signal),
      [SWEEP_WEBHOOKS]: () => sweepOutbox(),
      [PRUNE_JOB]: () => pruneEvents(config.webhooks.retentionDays),
    },
    schedules: [
      { id: "webhooks-sweep", jobName: SWEEP_WEBHOOKS, every: config.webhooks.sweepIntervalMs },
      { id: "webhooks-prune", jobName: PRUNE_JOB, every: 3600_000 },
    ],
  };
}

const MAIL_SWEEP_EVERY_MS = 30_000;
/** Digests are due at a local hour: checked every 5 minutes, each sent once per ISO week. */
const DIGESTS_EVERY_MS = 5 * 60_000;

/**
 * Mails (one job per mail: src/domain/mail/send.ts, with the files the areas attach to their kinds of
 * mail), the notifications consumer of the workspace events, the weekly digests, and the sweep that
 * queues again what lost its job.
 */
export function mailQueue(transport: () => MailTransport): QueueDefinition {
  return {
    queue: "mail",
    concurrency: 4,
    // A killed worker's mail (claimed for 2 minutes: src/domain/mail/send.ts) is picked up within about 20 s.
    lockDurationMs: 10_000,
    stalledIntervalMs: 10_000,
    handlers: {
      [SEND_MAIL_JOB]: (job, run) => sendMail((job.data as SendMailData).mailId, transport(), run, REPORT_MAIL_ATTACHERS),
      [NOTIFY_JOB]: (job) => notifyEvents((job.data as NotifyData).eventIds),
      [SWEEP_MAIL_JOB]: async () => ({ ...(await sweepUnnotified()), ...(await sweepMails()) }),
      [DIGESTS_JOB]: () => queueDueDigests(),
      [PRUNE_MAIL_JOB]: () => pruneMail(),
      [REPORTS_JOB]: () => produceDueReports(),
    },
    schedules: [
      { id: "mail-sweep", jobName: SWEEP_MAIL_JOB, every: MAIL_SWEEP_EVERY_MS },
      { id: "mail-digests", jobName: DIGESTS_JOB, every: DIGESTS_EVERY_MS },
      { id: "mail-prune", jobName: PRUNE_MAIL_JOB, every: 3600_000 },
      { id: "mail-reports", jobName: REPORTS_JOB, every: REPORTS_EVERY_MS },
    ],
  };
}

/**
 * Monthly credit renewal, by a job scheduler (not a timer in the API), and the hourly deletion of
 * idempotent answers past their 24 hours (an expired key is also taken over by its next request).
 */
export function maintenanceQueue(): QueueDefinition {
  return {
    queue: "maintenance",
    concurrency: 1,
    handlers: {
      "renew-credits": async () => ({ renewed: await renewDueWorkspaces() }),
      [PRUNE_IDEMPOTENT_REQUESTS]: () => pruneIdempotentRequests(),
      [CAMPAIGN_BUDGETS_JOB]: () => checkCampaignBudgets(),
    },
    schedules: [
      { id: "renew-credits", jobName: "renew-credits", every: RENEW_CREDITS_EVERY_MS },
      { id: PRUNE_IDEMPOTENT_REQUESTS, jobName: PRUNE_IDEMPOTENT_REQUESTS, every: PRUNE_IDEMPOTENT_REQUESTS_EVERY_MS },
      { id: CAMPAIGN_BUDGETS_JOB, jobName: CAMPAIGN_BUDGETS_JOB, every: CAMPAIGN_BUDGETS_EVERY_MS },
    ],
  };
}

/** Exports (src/domain/exports/): one job per export writing its file; the sweep deletes expired files. */
export function exportsQueue(): QueueDefinition {
  return {
    queue: "exports",
    concurrency: 2,
    lockDurationMs: 30_000,
    stalledIntervalMs: 15_000,
    handlers: {
      [EXPORT_JOB]: (job, run) => runExport((job.data as ExportJobData).exportId, run),
      [SWEEP_EXPORTS_JOB]: () => sweepExports(),
    },
    schedules: [{ id: "exports-sweep", jobName: SWEEP_EXPORTS_JOB, every: 5 * 60_000 }],
  };
}

export function jobDefinitions(providers: WorkerProviders): QueueDefinition[] {
  return [
    maintenanceQueue(),
    trackingQueue(providers.scrape),
    analysisQueue(providers.analysis),
    radarQueue(providers.radar),
    webhooksQueue(providers.webhooks),
    mailQueue(providers.mail),
    exportsQueue(),
  ];
}
