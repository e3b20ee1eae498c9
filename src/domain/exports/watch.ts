/** Live progress of an export, as its workspace watches it (GraphQL exportUpdated): the current state first, then each change, until it ends. */
import { currentThenEvents } from "../shared/events.ts";
import { getExport, type ExportReader, type ExportRecord } from "./service.ts";

const TERMINAL = new Set(["completed", "failed", "expired"]);

/** NOT_FOUND for another workspace's export (or one the reader may not see), before anything is streamed. */
export async function watchExport(reader: ExportReader, id: string): Promise<AsyncIterable<ExportRecord>> {
  const first = await getExport(reader, id);
  if (TERMINAL.has(first.status)) {
    return (async function* () {
      yield first;
    })();
  }
  return updates(reader, id);
}

async function* updates(reader: ExportReader, id: string): AsyncGenerator<ExportRecord> {
  const events = currentThenEvents("exportUpdated", `${reader.workspaceId}:${id}`, async () => ({
    exportId: id,
    status: "",
    rowsWritten: 0,
    at: new Date().toISOString(),
  }));
  try {
    for await (const _ of events) {
      const current = await getExport(reader, id);
      yield current;
      if (TERMINAL.has(current.status)) return;
    }
  } finally {
    await events.return(undefined);
  }
}
