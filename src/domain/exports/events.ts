/** What exports publish: an export's status and progress, on every change (./watch.ts is the stream its workspace reads). */
import { publishEvent } from "../shared/events.ts";

export function announceExport(e: { id: string; workspaceId: string; status: string; rowsWritten: number }): void {
  void publishEvent("exportUpdated", `${e.workspaceId}:${e.id}`, {
    exportId: e.id,
    status: e.status,
    rowsWritten: e.rowsWritten,
    at: new Date().toISOString(),
  });
}
