/**
 * A metric history chart with its Hour/Day switch, for a video (views and likes) or an account
 * (followers and total views). It declares the one history fragment the pages spread
 * (`...HistoryChart_subject` on their video or account): a branch per type, so the page's query asks
 * only its own branch's points (the cost rule leaves out the branch that cannot apply: see
 * src/http/graphql/cost.ts). A new scrape (lastScrapedAt changes, by the page's subscription) reads
 * the history again; switching the interval refetches only it.
 */
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import { graphql, useRefetchableFragment } from "react-relay";
import type { HistoryChartRefetchQuery } from "../__generated__/HistoryChartRefetchQuery.graphql";
import type { HistoryChart_subject$data, HistoryChart_subject$key } from "../__generated__/HistoryChart_subject.graphql";
import { EmptyState } from "./EmptyState";
import { TimeSeriesChart, type ChartSeries } from "./TimeSeriesChart";

export type Interval = "HOUR" | "DAY";

const INTERVALS: { value: Interval; label: string }[] = [
  { value: "HOUR", label: "Hour" },
  { value: "DAY", label: "Day" },
];

const fragment = graphql`
  fragment HistoryChart_subject on Node
  @refetchable(queryName: "HistoryChartRefetchQuery")
  @argumentDefinitions(interval: { type: "HistoryInterval", defaultValue: DAY }) {
    __typename
    ... on Video {
      lastScrapedAt
      videoHistory: history(interval: $interval, last: 100) {
        pageInfo { hasPreviousPage }
        edges { node { capturedAt viewCount likeCount } }
      }
    }
    ... on Account {
      lastScrapedAt
      accountHistory: history(interval: $interval, last: 100) {
        pageInfo { hasPreviousPage }
        edges { node { capturedAt followerCount totalViews } }
      }
    }
  }
`;

type Point = { capturedAt: string } & Partial<Record<"viewCount" | "likeCount" | "followerCount" | "totalViews", number | null>>;
interface Chart {
  what: string;
  item: string;
  history: (
    data: HistoryChart_subject$data,
  ) => { pageInfo: { hasPreviousPage: boolean }; edges: readonly { node: Point }[] } | null | undefined;
  lines: (Omit<ChartSeries, "values"> & { key: Exclude<keyof Point, "capturedAt"> })[];
}

type Metric = [label: string, key: Chart["lines"][number]["key"]];

/** A chart of two metrics: the first on the left axis, the second, of another scale, on the right. */
function twoMetrics(what: string, item: string, history: Chart["history"], [left, right]: [Metric, Metric]): Chart {
  return {
    what,
    item,
    history,
    lines: [
      { label: left[0], key: left[1], colorVar: "--chart-1" },
      { label: right[0], key: right[1], colorVar: "--chart-2", axis: "right" },
    ],
  };
}

/** What is drawn for each type: its history and its lines. */
const CHARTS: Record<"Video" | "Account", Chart> = {
  Video: twoMetrics("Views and likes", "video", (d) => d.videoHistory, [
    ["Views", "viewCount"],
    ["Likes", "likeCount"],
  ]),
  Account: twoMetrics("Followers and total views", "account", (d) => d.accountHistory, [
    ["Followers", "followerCount"],
    ["Total views", "totalViews"],
  ]),
};

export function HistoryChart({ subject }: { subject: HistoryChart_subject$key }) {
  const [data, refetch] = useRefetchableFragment<HistoryChartRefetchQuery, HistoryChart_subject$key>(fragment, subject);
  const { what, item, history, lines } = CHARTS[data.__typename === "Account" ? "Account" : "Video"];
  const [interval, setInterval] = useState<Interval>("DAY");
  const [pending, startTransition] = useTransition();

  const points = history(data);
  const chart = useMemo(() => {
    const nodes = (points?.edges ?? []).map((e) => e.node);
    return {
      times: nodes.map((p) => Date.parse(p.capturedAt) / 1000),
      series: lines.map(({ key, ...line }): ChartSeries => ({ ...line, values: nodes.map((p) => p[key]) })),
    };
  }, [points, lines]);

  const seen = useRef(data.lastScrapedAt);
  useEffect(() => {
    if (data.lastScrapedAt === seen.current) return;
    seen.current = data.lastScrapedAt;
    startTransition(() => void refetch({ interval }, { fetchPolicy: "network-only" }));
  }, [data.lastScrapedAt, interval, refetch]);

  return (
    <div aria-busy={pending}>
      <div className="segmented" role="group" aria-label="Interval">
        {INTERVALS.map((i) => (
          <button
            key={i.value}
            type="button"
            aria-pressed={interval === i.value}
            onClick={() => {
              setInterval(i.value);
              startTransition(() => void refetch({ interval: i.value }, { fetchPolicy: "store-or-network" }));
            }}
          >
            {i.label}
          </button>
        ))}
      </div>
      {chart.times.length === 0 ? (
        <EmptyState title="No history yet.">
          The first point is stored when the {item} is first scraped, usually within a few seconds of tracking it.
        </EmptyState>
      ) : (
        <TimeSeriesChart
          title={`${what}, ${interval === "DAY" ? "by day" : "at every scrape"}`}
          times={chart.times}
          series={chart.series}
          xUnit={interval === "DAY" ? "day" : "time"}
        />
      )}
      {points?.pageInfo.hasPreviousPage && <p className="muted">Showing the latest 100 points of the last 30 days.</p>}
    </div>
  );
}
