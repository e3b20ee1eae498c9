/**
 * The Folder page's "Reports" section: a read-only share link of the folder (owners; the
 * URL shown once; every link is listed and revoked in Settings → Share links), its report schedules
 * (owners make, pause and delete them; weekly or monthly, local day and hour, addresses, CSV) and the
 * reports they produced, each linking to the folder's shared page.
 */
import { Suspense, useState, type FormEvent } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import type { FolderReportsQuery } from "../../__generated__/FolderReportsQuery.graphql";
import type { FolderReportsShareMutation } from "../../__generated__/FolderReportsShareMutation.graphql";
import type { FolderReportsScheduleMutation, ReportFrequency } from "../../__generated__/FolderReportsScheduleMutation.graphql";
import type { FolderReportsUpdateMutation } from "../../__generated__/FolderReportsUpdateMutation.graphql";
import type { FolderReportsDeleteMutation } from "../../__generated__/FolderReportsDeleteMutation.graphql";
import { ConfirmButton } from "../../components/ConfirmButton";
import { ErrorBoundary } from "../../components/ErrorBoundary";
import { Loading } from "../../components/Loading";
import { Outcome } from "../../components/Outcome";
import { Time } from "../../components/Time";
import { useAction } from "../../relay/action";
import { ShownOnce } from "../settings/ShownOnce";

const query = graphql`
  query FolderReportsQuery($folderId: ID!) {
    viewer {
      currentWorkspace {
        role
      }
    }
    reportSchedules(folderId: $folderId, first: 50) {
      edges {
        node {
          id
          uuid
          frequency
          weekday
          dayOfMonth
          hour
          timeZone
          recipients
          attachCsv
          enabled
          shareUrl
        }
      }
    }
    folderReports(folderId: $folderId, first: 24) {
      edges {
        node {
          id
          scheduleUuid
          period
          periodStart
          periodEnd
          viewsGained
          newVideos
          recipients
          createdAt
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
const n = (v: number) => v.toLocaleString("en-US");

export function FolderReports({ folderId, folderName }: { folderId: string; folderName: string }) {
  return (
    <section aria-labelledby="folder-reports-heading" className="panel">
      <h2 id="folder-reports-heading">Reports</h2>
      <ErrorBoundary what="the reports">
        <Suspense fallback={<Loading what="Loading the reports" />}>
          <Reports folderId={folderId} folderName={folderName} />
        </Suspense>
      </ErrorBoundary>
    </section>
  );
}

function Reports({ folderId, folderName }: { folderId: string; folderName: string }) {
  const [fetchKey, setFetchKey] = useState(0);
  const data = useLazyLoadQuery<FolderReportsQuery>(
    query,
    { folderId },
    { fetchKey, fetchPolicy: fetchKey ? "network-only" : "store-or-network" },
  );
  const reload = () => setFetchKey((k) => k + 1);
  const isOwner = data.viewer?.currentWorkspace?.role === "OWNER";
  const schedules = data.reportSchedules.edges.map((e) => e.node);
  const reports = data.folderReports.edges.map((e) => e.node);
  const urlOf = new Map(schedules.map((s) => [s.uuid, s.shareUrl]));
  const update = useAction<FolderReportsUpdateMutation>(updateMutation);
  const remove = useAction<FolderReportsDeleteMutation>(deleteMutation);

  return (
    <>
      {isOwner ? (
        <ShareLink folderId={folderId} folderName={folderName} />
      ) : (
        <p className="muted">Owners make share links and schedule reports.</p>
      )}
      <h3>Scheduled reports</h3>
      {schedules.length === 0 ? (
        <p className="muted">No report is scheduled for this folder.</p>
      ) : (
        <ul className="report-schedules">
          {schedules.map((s) => (
            <li key={s.id}>
              <strong>{s.frequency === "WEEKLY" ? `Weekly, ${WEEKDAYS[s.weekday]}` : `Monthly, day ${s.dayOfMonth}`}</strong> at{" "}
              {String(s.hour).padStart(2, "0")}:00 ({s.timeZone}) to {s.recipients.join(", ")}
              {s.attachCsv ? " · with the videos as CSV" : ""}
              {s.enabled ? "" : " · paused"}
              {isOwner && (
                <span className="row">
                  <button
                    type="button"
                    disabled={update.pending}
                    onClick={() =>
                      void update.run(
                        { id: s.id, enabled: !s.enabled },
                        { done: () => (s.enabled ? "Schedule paused." : "Schedule resumed."), failed: "Could not change the schedule" },
                      )
                    }
                  >
                    {s.enabled ? "Pause" : "Resume"}
                  </button>
                  <ConfirmButton
                    question="Delete this schedule and the reports it produced? Its share link stops working."
                    confirmLabel="Delete schedule"
                    onConfirm={() =>
                      void remove.run(
                        { id: s.id },
                        { done: () => (reload(), "Schedule deleted."), failed: "Could not delete the schedule" },
                      )
                    }
                  >
                    Delete schedule
                  </ConfirmButton>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      <Outcome outcome={update.outcome} />
      <Outcome outcome={remove.outcome} />
      {isOwner && <ScheduleForm folderId={folderId} onMade={reload} />}
      <h3>Produced reports</h3>
      {reports.length === 0 ? (
        <p className="muted">None yet: a schedule produces its first report at its next day and hour.</p>
      ) : (
        <table className="folder-reports">
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col">Views gained</th>
              <th scope="col">New videos</th>
              <th scope="col">Mailed to</th>
              <th scope="col">Made</th>
              <th scope="col">Page</th>
            </tr>
          </thead>
          <tbody>
            {reports.map((r) => {
              const url = urlOf.get(r.scheduleUuid) ?? null;
              return (
                <tr key={r.id}>
                  <td>
                    {r.period} ({r.periodStart} – {r.periodEnd})
                  </td>
                  <td>{n(r.viewsGained)}</td>
                  <td>{n(r.newVideos)}</td>
                  <td>{r.recipients} addresses</td>
                  <td>
                    <Time value={r.createdAt} />
                  </td>
                  <td>{url ? <a href={url}>Open the shared page</a> : "—"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
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
        <button type="submit" className="button-primary" disabled={share.pending}>
          Make share link
        </button>
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
      <button type="submit" className="button-primary" disabled={schedule.pending}>
        Schedule report
      </button>
      <Outcome outcome={schedule.outcome} />
    </form>
  );
}
