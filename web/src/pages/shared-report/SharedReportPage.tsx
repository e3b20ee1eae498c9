/**
 * A folder's shared report at `/r/<token>`: outside the signed-in shell, no sign-in, no navigation. It reads
 * the narrow entry point POST /graphql/shared (not the dashboard's /graphql, and not through Relay: that schema
 * is the service's own, src/http/shared-report/schema.ts) with the token from the URL. An unknown, revoked or
 * expired link (404) says it is no longer valid. Numbers, days, titles and tables read as on every other page
 * (lib/format.ts, DataTable), and simulated numbers are said to be simulated. Prints on A4 without the period
 * buttons (./shared-report.css).
 */
import { useEffect, useMemo, useState } from "react";
import { useParams } from "react-router";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { TimeSeriesChart, type ChartSeries } from "../../components/TimeSeriesChart";
import { formatDay, formatPercent, formatWhole, shortTitle } from "../../lib/format";
import "./shared-report.css";
import { Panel } from "../../components/Panel";

type Period = "D7" | "D30" | "D90";
const PERIODS: { value: Period; label: string }[] = [
  { value: "D7", label: "7 days" },
  { value: "D30", label: "30 days" },
  { value: "D90", label: "90 days" },
];

interface Report {
  folderName: string;
  generatedAt: string;
  expiresAt: string;
  cards: {
    totalVideos: number;
    totalAccounts: number;
    totalViews: number;
    totalLikes: number;
    totalComments: number;
    totalShares: number;
    avgEngagementRate: number;
  };
  growth: { date: string; totalFollowers: number; totalViews: number; totalVideos: number }[];
  topVideos: { rank: number; username: string; description: string; views: number }[];
  topAccounts: {
    rank: number;
    platform: string;
    username: string;
    displayName: string;
    followers: number | null;
    totalViews: number | null;
  }[];
  simulated: boolean;
}

type TopVideo = Report["topVideos"][number];
type TopAccount = Report["topAccounts"][number];

const VIDEO_COLUMNS: Column<TopVideo>[] = [
  { id: "rank", header: "#", cell: (v) => v.rank },
  {
    id: "video",
    header: "Video",
    className: "cell-wrap",
    cell: (v) => (
      <>
        {shortTitle(v, 90)}
        {v.description && v.username ? <span className="muted"> @{v.username}</span> : null}
      </>
    ),
  },
  { id: "views", header: "Views", cell: (v) => formatWhole(v.views) },
];

const ACCOUNT_COLUMNS: Column<TopAccount>[] = [
  { id: "rank", header: "#", cell: (a) => a.rank },
  {
    id: "account",
    header: "Account",
    cell: (a) => (
      <>
        @{a.username} <span className="muted">({a.platform})</span>
      </>
    ),
  },
  { id: "followers", header: "Followers", cell: (a) => formatWhole(a.followers) },
  { id: "views", header: "Views", cell: (a) => formatWhole(a.totalViews) },
];

const QUERY = `query SharedReport($token: String!, $period: SharedReportPeriod) {
  sharedFolderReport(token: $token, period: $period) {
    folderName generatedAt expiresAt
    cards { totalVideos totalAccounts totalViews totalLikes totalComments totalShares avgEngagementRate }
    growth { date totalFollowers totalViews totalVideos }
    topVideos { rank username description views }
    topAccounts { rank platform username displayName followers totalViews }
    simulated
  }
}`;

type State =
  | { kind: "loading" }
  | { kind: "ready"; report: Report }
  | { kind: "gone" }
  | { kind: "limited"; retryAfter: string | null }
  | { kind: "failed"; message: string };

async function readReport(token: string, period: Period, signal: AbortSignal): Promise<State> {
  const res = await fetch("/graphql/shared", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: QUERY, variables: { token, period } }),
    credentials: "omit",
    signal,
  });
  if (res.status === 404) return { kind: "gone" };
  if (res.status === 429) return { kind: "limited", retryAfter: res.headers.get("retry-after") };
  const body = (await res.json().catch(() => null)) as { data?: { sharedFolderReport: Report }; message?: string } | null;
  if (!res.ok || !body?.data) return { kind: "failed", message: body?.message ?? `The report could not be read (${res.status}).` };
  return { kind: "ready", report: body.data.sharedFolderReport };
}

export default function SharedReportPage() {
  const { token = "" } = useParams();
  const [period, setPeriod] = useState<Period>("D30");
  const [state, setState] = useState<State>({ kind: "loading" });

  useEffect(() => {
    const meta = document.createElement("meta");
    meta.name = "robots";
    meta.content = "noindex, nofollow";
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    readReport(token, period, controller.signal).then(
      (s) => setState(s),
      (e: unknown) => {
        if (!controller.signal.aborted) setState({ kind: "failed", message: (e as Error).message });
      },
    );
    return () => controller.abort();
  }, [token, period]);

  useEffect(() => {
    document.title = state.kind === "ready" ? `${state.report.folderName}: report` : "Shared report";
  }, [state]);

  return (
    <main id="main" className="shared-report">
      {state.kind === "loading" && <p className="muted">Loading the report…</p>}
      {state.kind === "gone" && (
        <section className="panel" role="alert">
          <h1>This report link is no longer valid</h1>
          <p>It may have expired or been revoked. Ask the person who shared it for a new link.</p>
        </section>
      )}
      {state.kind === "limited" && (
        <section className="panel" role="alert">
          <h1>Too many requests</h1>
          <p>Try again {state.retryAfter ? `in ${state.retryAfter} seconds` : "in a minute"}.</p>
        </section>
      )}
      {state.kind === "failed" && (
        <section className="panel" role="alert">
          <h1>The report could not be loaded</h1>
          <p>{state.message}</p>
        </section>
      )}
      {state.kind === "ready" && <ReportView report={state.report} period={period} onPeriod={setPeriod} />}
    </main>
  );
}

function ReportView({ report, period, onPeriod }: { report: Report; period: Period; onPeriod: (p: Period) => void }) {
  const { times, series, empty } = useMemo(() => {
    const series: ChartSeries[] = [
      { label: "Followers", values: report.growth.map((p) => p.totalFollowers), colorVar: "--chart-1" },
      { label: "Views", values: report.growth.map((p) => p.totalViews), colorVar: "--chart-2", axis: "right" },
    ];
    const empty = report.growth.every((p) => !p.totalFollowers && !p.totalViews && !p.totalVideos);
    return { times: report.growth.map((p) => Date.parse(p.date + "T00:00:00Z") / 1000), series, empty };
  }, [report.growth]);
  const c = report.cards;
  const cards = [
    { label: "Videos", value: formatWhole(c.totalVideos) },
    { label: "Accounts", value: formatWhole(c.totalAccounts) },
    { label: "Views", value: formatWhole(c.totalViews) },
    { label: "Likes", value: formatWhole(c.totalLikes) },
    { label: "Comments", value: formatWhole(c.totalComments) },
    { label: "Shares", value: formatWhole(c.totalShares) },
    { label: "Avg. engagement", value: formatPercent(c.avgEngagementRate) },
  ];
  return (
    <article aria-labelledby="shared-report-title">
      <header className="shared-report-header">
        <h1 id="shared-report-title">{report.folderName}</h1>
        <p className="muted">
          Report of {formatDay(report.generatedAt)} · read-only link, valid until {formatDay(report.expiresAt)}
        </p>
        {report.simulated && (
          <p className="notice" role="note">
            Some of these numbers are simulated: they come from the service's demo data, not from the platforms.
          </p>
        )}
      </header>
      <section aria-label="Totals" className="cards shared-report-cards">
        {cards.map((card) => (
          <div className="card" key={card.label}>
            <p className="card-label">{card.label}</p>
            <p className="card-value">{card.value}</p>
          </div>
        ))}
      </section>
      <section aria-labelledby="shared-growth-heading" className="panel shared-report-growth">
        <div className="shared-report-growth-head">
          <h2 id="shared-growth-heading">Growth</h2>
          <div role="group" aria-label="Period" className="shared-report-periods">
            {PERIODS.map((p) => (
              <button
                key={p.value}
                type="button"
                aria-pressed={p.value === period}
                className={p.value === period ? "button-primary" : undefined}
                onClick={() => onPeriod(p.value)}
              >
                {p.label}
              </button>
            ))}
          </div>
        </div>
        {empty ? (
          <p className="muted">No growth to show yet: the folder's accounts have no history in this period.</p>
        ) : (
          <TimeSeriesChart title="Followers and views of the folder's accounts, by day" times={times} series={series} xUnit="day" />
        )}
      </section>
      <div className="shared-report-tops">
        <Panel title="Top videos">
          <DataTable
            label="The folder's videos with the most views"
            columns={VIDEO_COLUMNS}
            rows={report.topVideos}
            rowKey={(v) => String(v.rank)}
            empty={<EmptyState title="No video has views yet." />}
          />
        </Panel>
        <Panel title="Top accounts">
          <DataTable
            label="The folder's accounts with the most followers"
            columns={ACCOUNT_COLUMNS}
            rows={report.topAccounts}
            rowKey={(a) => String(a.rank)}
            empty={<EmptyState title="The folder has no accounts." />}
          />
        </Panel>
      </div>
    </article>
  );
}
