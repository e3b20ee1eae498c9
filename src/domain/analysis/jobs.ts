/**
 * The analysis jobs (queue `analysis`): `run-analysis` runs one analysis's pipeline (data
 * {analysisId}; its job id is derived from the analysis id, so queueing it twice is a no-op) and
 * `sweep-analyses` (a job scheduler) fails stuck analyses and re-queues orphaned ones.
 */
import { config } from "../../config.ts";
import { queue } from "../../infra/queues.ts";

export const RUN_ANALYSIS_JOB = "run-analysis";
export const SWEEP_JOB = "sweep-analyses";

export interface RunAnalysisData {
  analysisId: string;
}

/** Deterministic job id: queueing the same analysis twice is a no-op. (BullMQ ids cannot contain ":".) */
export const analysisJobId = (analysisId: string) => `analysis-${analysisId}`;

export async function enqueueAnalysis(analysisId: string): Promise<void> {
  await queue("analysis").add(RUN_ANALYSIS_JOB, { analysisId } satisfies RunAnalysisData, {
    jobId: analysisJobId(analysisId),
    attempts: config.analysisJobs.attempts,
    backoff: { type: "exponential", delay: config.analysisJobs.retryDelayMs },
  });
}

/** Where the analysis's job is: "unknown" when the queue holds none (lost, or removed after finishing). */
export async function analysisJobState(analysisId: string): Promise<{ state: string; failedReason?: string }> {
  const state = await queue("analysis").getJobState(analysisJobId(analysisId));
  if (state !== "failed") return { state };
  const job = await queue("analysis").getJob(analysisJobId(analysisId));
  return { state, ...(job?.failedReason ? { failedReason: job.failedReason } : {}) };
}
