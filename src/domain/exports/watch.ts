/** Live progress of an export, as its workspace watches it (GraphQL exportUpdated): the current state first, then each change, until it ends. */
import { currentThenEvents } from "../shared/events.ts";
import { getExport, type ExportRecord } from "./service.ts";

const TERMINAL = new Set(["completed", "failed", "expired"]);

/** NOT_FOUND for another workspace's export, before anything is streamed. */
export async function watchExport(workspaceId: string, id: string): Promise<AsyncIterable<ExportRecord>> {
  const first = await getExport(workspaceId, id);
  if (TERMINAL.has(first.status)) {
    return (async function* () {
      yield first;
    })();
  }
  return updates(workspaceId, id);
}

async function* updates(workspaceId: string, id: string): AsyncGenerator<ExportRecord> {
  const events = currentThenEvents("exportUpdated", `${workspaceId}:${id}`, async () => ({ exportId: id, status: "", rowsWritten: 0, at: new Date().toISOString() }));
  try {
    for await (const _ of events) {
      const current = await getExport(workspaceId, id);
      yield current;
      if (TERMINAL.has(current.status)) return;
    }
  } finally {
    await events.return(undefined);
  }
}
