/**
 * What the workers run: per queue, the handlers by job name, the concurrency and the repeatable
 * schedules. Each area contributes its own definition; the worker process starts them all.
 */
import type { Job } from "bullmq";
import type { QueueName } from "./queues.js";
import { maintenanceJobs } from "./maintenance.js";
import { trackingJobs } from "./tracking.js";
import { analysisJobs } from "./analysis.js";
import { radarJobs } from "./radar.js";

export interface JobSchedule {
  /** Stable id: upserting the same id replaces the schedule instead of adding another. */
  id: string;
  jobName: string;
  every?: number;
  pattern?: string;
  data?: Record<string, unknown>;
}

export interface QueueDefinition {
  queue: QueueName;
  concurrency: number;
  handlers: Record<string, (job: Job) => Promise<unknown>>;
  schedules?: JobSchedule[];
  /** Lock settings: how soon a job of a killed worker is picked up by another. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

export function jobDefinitions(): QueueDefinition[] {
  return [maintenanceJobs(), trackingJobs(), analysisJobs(), radarJobs()];
}
