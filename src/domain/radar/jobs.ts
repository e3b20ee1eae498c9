/**
 * The radar jobs (queue `radar`): `search` runs one radar search (./run.ts; data {searchId}, job id =
 * search id, so adding it twice runs it once) and `sweep` (a job scheduler) re-enqueues searches
 * stuck in `pending` and fails, with the refund, searches not finished in time (./lifecycle.ts).
 */
import { config } from "../../config.ts";
import { queue } from "../../infra/queues.ts";

export const SEARCH_JOB = "search";
export const SWEEP_JOB = "sweep";

export interface SearchJobData {
  searchId: string;
}

/** Puts the search's job on the `radar` queue; the job id is the search id, so adding twice runs once. */
export async function enqueueSearch(searchId: string): Promise<void> {
  await queue("radar").add(SEARCH_JOB, { searchId } satisfies SearchJobData, {
    jobId: searchId,
    backoff: { type: "exponential", delay: config.radarJobs.retryDelayMs },
  });
}
