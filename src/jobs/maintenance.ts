/** Maintenance jobs: monthly credit renewal, run by a BullMQ job scheduler (not a timer in the API). */
import { renewDueWorkspaces } from "../domain/credits/service.js";
import type { QueueDefinition } from "./registry.js";

export const RENEW_CREDITS_EVERY_MS = 15 * 60_000;

export function maintenanceJobs(): QueueDefinition {
  return {
    queue: "maintenance",
    concurrency: 1,
    handlers: {
      "renew-credits": async () => ({ renewed: await renewDueWorkspaces() }),
    },
    schedules: [{ id: "renew-credits", jobName: "renew-credits", every: RENEW_CREDITS_EVERY_MS }],
  };
}
