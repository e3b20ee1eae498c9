/**
 * The Folder page's "Reports" section: a read-only share link of the folder (owners; the URL shown once; every
 * link is listed and revoked in Settings → Share links), its report schedules (owners make, pause and delete
 * them; weekly or monthly, local day and hour, addresses, CSV) and the reports they produced, each linking to
 * the folder's shared page. Its data comes with the folder's, in the route's query (`FolderReports_query`);
 * both lists page like every other (DataTable).
 */
import { useState, type FormEvent } from "react";
import { graphql, useFragment } from "react-relay";
import type { FolderReports_query$key } from "../../__generated__/FolderReports_query.graphql";
import type { FolderReports_schedules$data, FolderReports_schedules$key } from "../../__generated__/FolderReports_schedules.graphql";
import type { FolderReports_reports$data, FolderReports_reports$key } from "../../__generated__/FolderReports_reports.graphql";
import type { FolderReportsSchedulesQuery } from "../../__generated__/FolderReportsSchedulesQuery.graphql";
import type { FolderReportsReportsQuery } from "../../__generated__/FolderReportsReportsQuery.graphql";
import type { FolderReportsShareMutation } from "../../__generated__/FolderReportsShareMutation.graphql";
import type { FolderReportsScheduleMutation, ReportFrequency } from "../../__generated__/FolderReportsScheduleMutation.graphql";
import type { FolderReportsUpdateMutation } from "../../__generated__/FolderReportsUpdateMutation.graphql";
import type { FolderReportsDeleteMutation } from "../../__generated__/FolderReportsDeleteMutation.graphql";
import { ConfirmButton } from "../../components/ConfirmButton";
import { actionsColumn, DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { Time } from "../../components/Time";
import { formatWhole, plural } from "../../lib/format";
import { useAction } from "../../relay/action";
import { usePagedConnection } from "../../relay/paged";
import { ShownOnce } from "../settings/ShownOnce";
import { Submit } from "../../components/Submit";
import { Panel } from "../../components/Panel";

const fragment = graphql`
  fragment FolderReports_query on Query @argumentDefinitions(folderId: { type: "ID!" }) {
    viewer {
      currentWorkspace {
        role
      }
    }
    ...FolderReports_schedules @arguments(folderId: $folderId)
    ...FolderReports_reports @arguments(folderId: $folderId)
  }
`;

const schedulesFragment = graphql`
  fragment FolderReports_schedules on Query
  @refetchable(queryName: "FolderReportsSchedulesQuery")
  @argumentDefinitions(folderId: { type: "ID!" }, first: { type: "Int", defaultValue: 20 }, after: { type: "String" }) {
    reportSchedules(folderId: $folderId, first: $first, after: $after) @connection(key: "FolderReports_reportSchedules") {
      totalCount
      edges {
        node {
          id
          frequency
          weekday
          dayOfMonth
          hour
          timeZone
          recipients
          attachCsv
          enabled
        }
      }
    }
  }
`;

const reportsFragment = graphql`
  fragment FolderReports_reports on Query
  @refetchable(queryName: "FolderReportsReportsQuery")
  @argumentDefinitions(folderId: { type: "ID!" }, first: { type: "Int", defaultValue: 12 }, after: { type: "String" }) {
    folderReports(folderId: $folderId, first: $first, after: $after) @connection(key: "FolderReports_folderReports") {
      totalCount
      edges {
        node {
          id
          period
          periodStart
          periodEnd
          viewsGained
          newVideos
          recipients
          createdAt
          schedule {
            shareUrl
          }
        }
      }
    }
  }
`;

const shareMutation = graphql`
  mutation FolderReportsShareMutation($folderId: ID!, $days: Int) {
    createFolderShareLink(folderId: $folderId, expiresInDays: $days) {
      url
      link {
        id
        expiresAt
      }
    }
  }
`;

const scheduleMutation = graphql`
  mutation FolderReportsScheduleMutation(
    $folderId: ID!
    $frequency: ReportFrequency!
    $weekday: Int
    $dayOfMonth: Int
    $hour: Int
    $timeZone: String
    $recipients: [String!]!
    $attachCsv: Boolean
  ) {
    createReportSchedule(
      folderId: $folderId
      frequency: $frequency
      weekday: $weekday
      dayOfMonth: $dayOfMonth
      hour: $hour
      timeZone: $timeZone
      recipients: $recipients
      attachCsv: $attachCsv
    ) {
      id
    }
  }
`;

const updateMutation = graphql`
  mutation FolderReportsUpdateMutation($id: ID!, $enabled: Boolean) {
    updateReportSchedule(id: $id, enabled: $enabled) {
      id
      enabled
    }
  }
`;

const deleteMutation = graphql`
  mutation FolderReportsDeleteMutation($id: ID!) {
    deleteReportSchedule(id: $id)
  }
`;

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

type Schedule = FolderReports_schedules$data["reportSchedules"]["edges"][number]["node"];
type Report = FolderReports_reports$data["folderReports"]["edges"][number]["node"];

/** "Weekly, Monday at 08:00 (Europe/Berlin)". */
const whenOf = (s: Schedule) =>
  `${s.frequency === "WEEKLY" ? `Weekly, ${WEEKDAYS[s.weekday ?? 0]}` : `Monthly, day ${s.dayOfMonth}`} at ${String(s.hour).padStart(2, "0")}:00 (${s.timeZone})`;

const REPORT_COLUMNS: Column<Report>[] = [
  { id: "period", header: "Period", cell: (r) => `${r.period} (${r.periodStart} – ${r.periodEnd})` },
  { id: "views", header: "Views gained", cell: (r) => formatWhole(r.viewsGained) },
  { id: "videos", header: "New videos", cell: (r) => formatWhole(r.newVideos) },
  { id: "recipients", header: "Mailed to", cell: (r) => plural(r.recipients, "address", "addresses") },
  { id: "made", header: "Made", cell: (r) => <Time value={r.createdAt} /> },
  { id: "page", header: "Page", cell: (r) => (r.schedule?.shareUrl ? <a href={r.schedule.shareUrl}>Open the shared page</a> : "—") },
];

interface Props {
  query: FolderReports_query$key;
  folderId: string;
  folderName: string;
  /** After a change: the route reads the folder (and these lists) again. */
  onChanged: () => void;
}

export function FolderReports({ query, folderId, folderName, onChanged }: Props) {
  const data = useFragment(fragment, query);
  const isOwner = data.viewer?.currentWorkspace?.role === "OWNER";
  const reports = usePagedConnection<FolderReportsReportsQuery, FolderReports_reports$key, Report>(
    reportsFragment,
    data,
    (d) => d.folderReports,
    "reports",
  );
  return (
    <Panel title="Reports">
      {isOwner ? (
        <ShareLink folderId={folderId} folderName={folderName} />
      ) : (
        <p className="muted">Owners make share links and schedule reports.</p>
      )}
      <h3>Scheduled reports</h3>
      <Schedules query={data} isOwner={isOwner} onChanged={onChanged} />
      {isOwner && <ScheduleForm folderId={folderId} onMade={onChanged} />}
      <h3>Produced reports</h3>
      <DataTable
        label="Reports produced, newest first"
        columns={REPORT_COLUMNS}
        rows={reports.rows}
        paging={reports.paging}
        empty={<EmptyState title="None yet.">A schedule produces its first report at its next day and hour.</EmptyState>}
      />
    </Panel>
  );
}

function Schedules({ query, isOwner, onChanged }: { query: FolderReports_schedules$key; isOwner: boolean; onChanged: () => void }) {
  const { rows, paging } = usePagedConnection<FolderReportsSchedulesQuery, FolderReports_schedules$key, Schedule>(
    schedulesFragment,
    query,
    (d) => d.reportSchedules,
    "schedules",
  );
  const update = useAction<FolderReportsUpdateMutation>(updateMutation);
  const remove = useAction<FolderReportsDeleteMutation>(deleteMutation);
  const toggle = (s: Schedule) =>
    void update.run(
      { id: s.id, enabled: !s.enabled },
      { done: () => (s.enabled ? "Schedule paused." : "Schedule resumed."), failed: "Could not change the schedule" },
    );
  const doDelete = async (s: Schedule) => {
    if (await remove.run({ id: s.id }, { done: () => "Schedule deleted.", failed: "Could not delete the schedule" })) onChanged();
  };
  const columns: Column<Schedule>[] = [
    { id: "when", header: "When", cell: whenOf },
    { id: "to", header: "Sent to", className: "cell-wrap", cell: (s) => s.recipients.join(", ") },
    { id: "csv", header: "Videos as CSV", cell: (s) => (s.attachCsv ? "Attached" : "No") },
    { id: "state", header: "State", cell: (s) => (s.enabled ? "Active" : "Paused") },
  ];
  if (isOwner)
    columns.push(
      actionsColumn((s) => (
        <span className="row">
          <button type="button" disabled={update.pending} onClick={() => toggle(s)}>
            {s.enabled ? "Pause" : "Resume"}
          </button>
          <ConfirmButton
            question="Delete this schedule and the reports it produced? Its share link stops working."
            confirmLabel="Delete schedule"
            onConfirm={() => void doDelete(s)}
          >
            Delete schedule
          </ConfirmButton>
        </span>
      )),
    );
  return (
    <>
      <DataTable
        label="Report schedules, oldest first"
        columns={columns}
        rows={rows}
        paging={paging}
        empty={<p className="muted">No report is scheduled for this folder.</p>}
      />
      <Outcome outcome={update.outcome ?? remove.outcome} />
    </>
  );
}

function ShareLink({ folderId, folderName }: { folderId: string; folderName: string }) {
  const share = useAction<FolderReportsShareMutation>(shareMutation);
  const [days, setDays] = useState(30);
  const [made, setMade] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const r = await share.run({ folderId, days }, { failed: "Could not make the link" });
    if (r) setMade(r.createFolderShareLink.url);
  }
  return (
    <>
      <form className="row" onSubmit={submit}>
        <div className="field">
          <label htmlFor="share-days">Share a read-only report, valid for</label>
          <select id="share-days" value={days} onChange={(e) => setDays(Number(e.target.value))}>
            <option value={7}>7 days</option>
            <option value={30}>30 days</option>
            <option value={90}>90 days</option>
          </select>
        </div>
        <Submit action={share}>Make share link</Submit>
      </form>
      {made && (
        <ShownOnce
          title={`Share link of “${folderName}”`}
          value={made}
          note="Anyone with it sees this folder's report without signing in, until it expires or is revoked (Settings → Share links)."
          onDone={() => setMade(null)}
        />
      )}
      <Outcome outcome={share.outcome} />
    </>
  );
}

function ScheduleForm({ folderId, onMade }: { folderId: string; onMade: () => void }) {
  const schedule = useAction<FolderReportsScheduleMutation>(scheduleMutation);
  const [frequency, setFrequency] = useState<ReportFrequency>("WEEKLY");
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const recipients = String(form.get("recipients") ?? "")
      .split(/[\s,;]+/)
      .filter(Boolean);
    const r = await schedule.run(
      {
        folderId,
        frequency,
        weekday: frequency === "WEEKLY" ? Number(form.get("weekday")) : null,
        dayOfMonth: frequency === "MONTHLY" ? Number(form.get("dayOfMonth")) : null,
        hour: Number(form.get("hour")),
        timeZone: String(form.get("timeZone")),
        recipients,
        attachCsv: form.get("attachCsv") === "on",
      },
      { done: () => "Report scheduled.", failed: "Could not schedule the report" },
    );
    if (r) onMade();
  }
  return (
    <form className="stacked-form" onSubmit={submit} aria-label="Schedule a report">
      <label htmlFor="report-frequency">Frequency</label>
      <select id="report-frequency" value={frequency} onChange={(e) => setFrequency(e.target.value as ReportFrequency)}>
        <option value="WEEKLY">Weekly (the week before)</option>
        <option value="MONTHLY">Monthly (the month before)</option>
      </select>
      {frequency === "WEEKLY" ? (
        <>
          <label htmlFor="report-weekday">Day</label>
          <select id="report-weekday" name="weekday" defaultValue={1}>
            {WEEKDAYS.map((d, i) => (
              <option key={d} value={i}>
                {d}
              </option>
            ))}
          </select>
        </>
      ) : (
        <>
          <label htmlFor="report-day">Day of the month</label>
          <input id="report-day" name="dayOfMonth" type="number" min={1} max={28} defaultValue={1} />
        </>
      )}
      <label htmlFor="report-hour">Hour</label>
      <input id="report-hour" name="hour" type="number" min={0} max={23} defaultValue={8} />
      <label htmlFor="report-zone">Time zone</label>
      <input id="report-zone" name="timeZone" defaultValue={localZone()} />
      <label htmlFor="report-recipients">Send to (up to 20 addresses)</label>
      <textarea id="report-recipients" name="recipients" rows={2} required placeholder="client@example.com, manager@example.com" />
      <label className="checkbox">
        <input type="checkbox" name="attachCsv" /> Attach the folder's videos as CSV
      </label>
      <Submit action={schedule}>Schedule report</Submit>
      <Outcome outcome={schedule.outcome} />
    </form>
  );
}
