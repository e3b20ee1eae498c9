/**
 * The export jobs (queue `exports`): `export` writes one export's file (./run.ts; data {exportId}, job
 * id = export id, so adding it twice runs it once) and `sweep` (a job scheduler) deletes expired files
 * and rows, and queues again an export whose job was lost.
 */
import { queue } from "../../infra/queues.ts";

export const EXPORT_JOB = "export";
export const SWEEP_EXPORTS_JOB = "sweep";

export interface ExportJobData {
  exportId: string;
}

export async function enqueueExport(exportId: string): Promise<void> {
  await queue("exports").add(EXPORT_JOB, { exportId } satisfies ExportJobData, {
    jobId: exportId,
    attempts: 3,
    backoff: { type: "exponential", delay: 2000 },
  });
}
