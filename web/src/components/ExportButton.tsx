/**
 * "Export" for a list: the person picks CSV or XLSX; the page's current filters go with it
 * (`filter`, named as the list's GraphQL arguments). It starts an export job (startExport), follows it
 * (exportUpdated: its state at once, then each change), says where it is in words, then offers the
 * file as a download link (a signed link valid for 15 minutes). A refusal (two exports already running,
 * a folder that is gone) is shown in words.
 */
import { useMemo, useState } from "react";
import { graphql, useSubscription } from "react-relay";
import type { GraphQLSubscriptionConfig } from "relay-runtime";
import type { ExportButtonMutation, ExportFilterInput, ExportFormat, ExportKind } from "../__generated__/ExportButtonMutation.graphql";
import type { ExportButtonSubscription } from "../__generated__/ExportButtonSubscription.graphql";
import { useAction } from "../relay/action";
import { formatWhole, plural } from "../lib/format";
import { Outcome } from "./Outcome";

const mutation = graphql`
  mutation ExportButtonMutation($kind: ExportKind!, $format: ExportFormat!, $filter: ExportFilterInput) {
    startExport(kind: $kind, format: $format, filter: $filter) {
      id
      status
      rowsWritten
      totalRows
      downloadUrl
      fileName
      error
    }
  }
`;

const subscription = graphql`
  subscription ExportButtonSubscription($id: ID!) {
    exportUpdated(id: $id) {
      id
      status
      rowsWritten
      totalRows
      downloadUrl
      fileName
      error
    }
  }
`;

type ExportState = ExportButtonMutation["response"]["startExport"];

/** Follows one export: its state from the subscription. */
function Progress({ first }: { first: ExportState }) {
  const [state, setState] = useState<ExportState>(first);
  const config = useMemo<GraphQLSubscriptionConfig<ExportButtonSubscription>>(
    () => ({
      subscription,
      variables: { id: first.id },
      onNext: (payload) => {
        if (payload) setState(payload.exportUpdated);
      },
    }),
    [first.id],
  );
  useSubscription(config);
  const rows = plural(state.rowsWritten, "row");
  switch (state.status) {
    case "QUEUED":
      return (
        <p role="status" className="muted">
          Export queued…
        </p>
      );
    case "RUNNING":
      return (
        <p role="status" className="muted">
          {state.totalRows == null
            ? `Exporting: ${rows} written so far…`
            : `Exporting: ${formatWhole(state.rowsWritten)} of ${plural(state.totalRows, "row")} written…`}
        </p>
      );
    case "COMPLETED":
      return (
        <p role="status" className="notice">
          Export ready ({rows}):{" "}
          <a href={state.downloadUrl ?? "#"} download={state.fileName ?? undefined}>
            download {state.fileName}
          </a>{" "}
          <span className="muted">(the link works for 15 minutes)</span>
        </p>
      );
    case "FAILED":
      return (
        <p role="alert" className="error">
          The export failed: {state.error ?? "start it again."}
        </p>
      );
    default:
      return (
        <p role="status" className="muted">
          The export's file has expired: start it again.
        </p>
      );
  }
}

interface Props {
  kind: ExportKind;
  /** The page's current filters, named as the list's GraphQL arguments. */
  filter?: ExportFilterInput;
  /** What is exported, for the button's accessible name ("Export videos"). */
  what: string;
}

export function ExportButton({ kind, filter, what }: Props) {
  const [format, setFormat] = useState<ExportFormat>("CSV");
  const start = useAction<ExportButtonMutation>(mutation);
  const [started, setStarted] = useState<ExportState | null>(null);

  async function click() {
    setStarted(null);
    const r = await start.run({ kind, format, filter: filter ?? null }, { failed: "Could not start the export", done: () => null });
    if (r) setStarted(r.startExport);
  }

  return (
    <div className="export" role="group" aria-label={`Export ${what}`}>
      <label>
        <span className="visually-hidden">File format</span>
        <select value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
          <option value="CSV">CSV</option>
          <option value="XLSX">Excel (XLSX)</option>
        </select>
      </label>
      <button type="button" onClick={() => void click()} disabled={start.pending}>
        Export {what}
      </button>
      <Outcome outcome={start.outcome} />
      {started && <Progress key={started.id} first={started} />}
    </div>
  );
}
