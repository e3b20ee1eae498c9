/**
 * "Export" for a list: the person picks CSV or XLSX; the page's current filters go with it
 * (`filter`, named as the list's GraphQL arguments). It starts an export job (startExport), follows it
 * (exportUpdated: its state at once, then each change), says where it is in words, then offers the
 * file as a download link (a signed link valid for 15 minutes). A refusal (two exports already running,
 * a folder that is gone) is shown in words.
 */
import { useMemo, useState } from "react";
import { graphql, useFragment, useSubscription } from "react-relay";
import type { GraphQLSubscriptionConfig } from "relay-runtime";
import type { ExportButtonMutation, ExportFilterInput, ExportFormat, ExportKind } from "../__generated__/ExportButtonMutation.graphql";
import type { ExportButton_export$key } from "../__generated__/ExportButton_export.graphql";
import type { ExportButtonSubscription } from "../__generated__/ExportButtonSubscription.graphql";
import { useAction } from "../relay/action";
import { formatWhole, plural } from "../lib/format";
import { Outcome } from "./Outcome";
import { Select, type Option } from "./Select";

const mutation = graphql`
  mutation ExportButtonMutation($kind: ExportKind!, $format: ExportFormat!, $filter: ExportFilterInput) {
    startExport(kind: $kind, format: $format, filter: $filter) {
      id
      ...ExportButton_export
    }
  }
`;

const subscription = graphql`
  subscription ExportButtonSubscription($id: ID!) {
    exportUpdated(id: $id) {
      ...ExportButton_export
    }
  }
`;

/** What an export shows, selected once: the mutation that starts it and the subscription that follows it spread it. */
const exportFragment = graphql`
  fragment ExportButton_export on Export {
    id
    status
    rowsWritten
    totalRows
    downloadUrl
    fileName
    error
  }
`;

type Started = ExportButtonMutation["response"]["startExport"];

/** Follows one export: the subscription's states merge into the store by id, and this reads it from there. */
function Progress({ id, job }: { id: string; job: ExportButton_export$key }) {
  const state = useFragment(exportFragment, job);
  const config = useMemo<GraphQLSubscriptionConfig<ExportButtonSubscription>>(() => ({ subscription, variables: { id } }), [id]);
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

const FORMATS: Option<ExportFormat>[] = [
  { value: "CSV", label: "CSV" },
  { value: "XLSX", label: "Excel (XLSX)" },
];

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
  const [started, setStarted] = useState<Started | null>(null);

  async function click() {
    setStarted(null);
    const r = await start.run({ kind, format, filter: filter ?? null }, { failed: "Could not start the export", done: () => null });
    if (r) setStarted(r.startExport);
  }

  return (
    <div className="export" role="group" aria-label={`Export ${what}`}>
      <Select label={<span className="visually-hidden">File format</span>} value={format} options={FORMATS} onChange={setFormat} />
      <button type="button" onClick={() => void click()} disabled={start.pending}>
        Export {what}
      </button>
      <Outcome outcome={start.outcome} />
      {started && <Progress key={started.id} id={started.id} job={started} />}
    </div>
  );
}
