/**
 * What a job body (a workflow of the domain run by a BullMQ worker, src/jobs/) knows of its run,
 * and how it says that no retry can help. The domain never sees BullMQ's Job: src/jobs/worker.ts
 * maps the one onto the other.
 */
export interface JobRun {
  /** The queue's job id (a reason for the job: `video-<id>-refresh-<n>` …), for logs. */
  id?: string;
  /** This attempt, from 1. */
  attempt: number;
  /** Attempts the job has in all (BullMQ's `attempts`). */
  maxAttempts: number;
  /** Times the job was started, stalls included (a killed worker's job restarted counts). */
  starts: number;
  /** When the job was queued (absent for a direct call): a job whose purpose another run already
   *  served after that moment can return at once (the scrape jobs do). */
  queuedAt?: Date;
  /** Aborted when the job runner takes the job back (a shutdown past SHUTDOWN_TIMEOUT_MS), and the job
   *  runs again elsewhere. Every body passes it to its providers (analysis, radar, scrapes and their
   *  yt-dlp budget, webhook senders), whose programs and requests then stop; a scrape stops before
   *  storing anything (src/domain/tracking/scrape-jobs.ts). */
  signal?: AbortSignal;
}

/** A run outside any queue (tests, benchmarks, a direct call): one attempt, and it is the last. */
export const SINGLE_RUN: JobRun = { attempt: 1, maxAttempts: 1, starts: 1 };

export const isLastAttempt = (run: JobRun) => run.attempt >= run.maxAttempts;

/** Thrown by a job body when retrying cannot help: the worker fails the job at once, without retries. */
export class PermanentJobFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PermanentJobFailure";
  }
}

/**
 * Thrown by a job body that may not run now and has done nothing (a webhook endpoint with its
 * deliveries in flight at the bound): the job runner puts the job back, delayed by `delayMs`,
 * without using an attempt (src/jobs/worker.ts).
 */
export class DeferJob extends Error {
  readonly delayMs: number;
  constructor(delayMs: number, message: string) {
    super(message);
    this.delayMs = delayMs;
    this.name = "DeferJob";
  }
}
