/**
 * The reports' job (queue `mail`, src/jobs/registry.ts): `reports`, a job scheduler every 5 minutes,
 * produces the scheduled reports that are due and queues their mails (./produce.ts).
 */
export const REPORTS_JOB = "reports";
export const REPORTS_EVERY_MS = 5 * 60_000;
