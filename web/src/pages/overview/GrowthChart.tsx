/**
 * Daily totals of the tracked accounts (followers, views, videos) over 7, 30, 90 days or all time.
 * A refetchable fragment: choosing a period refetches only this fragment.
 */
import { useMemo, useState, useTransition } from "react";
import { graphql, useRefetchableFragment } from "react-relay";
import type { GrowthChart_query$key } from "../../__generated__/GrowthChart_query.graphql";
import type { GrowthChartRefetchQuery, GrowthPeriod } from "../../__generated__/GrowthChartRefetchQuery.graphql";
import { EmptyState } from "../../components/EmptyState";
import { TimeSeriesChart, type ChartSeries } from "../../components/TimeSeriesChart";
import { paths } from "../../lib/paths";
import { Link } from "react-router";

const fragment = graphql`
  fragment GrowthChart_query on Query
  @refetchable(queryName: "GrowthChartRefetchQuery")
  @argumentDefinitions(period: { type: "GrowthPeriod", defaultValue: LAST_30_DAYS }) {
    growth(period: $period, first: 100) {
      pageInfo {
        hasNextPage
      }
      edges {
        node {
          date
          totalFollowers
          totalViews
          totalVideos
        }
      }
    }
  }
`;

const PERIODS: { value: GrowthPeriod; label: string }[] = [
  { value: "LAST_7_DAYS", label: "7 days" },
  { value: "LAST_30_DAYS", label: "30 days" },
  { value: "LAST_90_DAYS", label: "90 days" },
  { value: "ALL", label: "All" },
];

export function GrowthChart({ query }: { query: GrowthChart_query$key }) {
  const [data, refetch] = useRefetchableFragment<GrowthChartRefetchQuery, GrowthChart_query$key>(fragment, query);
  const [pending, startTransition] = useTransition();
  const [period, setPeriod] = useState<GrowthPeriod>("LAST_30_DAYS");
  const { times, series, empty } = useMemo(() => {
    const points = [...data.growth.edges].reverse().map((e) => e.node); // newest first → oldest first
    // Without tracked accounts every day's totals are 0: nothing to chart.
    const empty = points.every((p) => !p.totalFollowers && !p.totalViews && !p.totalVideos);
    const series: ChartSeries[] = [
      { label: "Followers", values: points.map((p) => p.totalFollowers), colorVar: "--chart-1" },
      { label: "Views", values: points.map((p) => p.totalViews), colorVar: "--chart-2", axis: "right" },
    ];
    return { times: points.map((p) => Date.parse(p.date + "T00:00:00Z") / 1000), series, empty };
  }, [data.growth.edges]);

  return (
    <div aria-busy={pending}>
      <PeriodPicker
        selected={period}
        onSelect={(p) => {
          setPeriod(p);
          startTransition(() => {
            refetch({ period: p }, { fetchPolicy: "store-or-network" });
          });
        }}
      />
      {empty ? (
        <EmptyState title="No growth to show yet.">
          Growth is measured on tracked accounts. Track an account on the <Link to={paths.accounts()}>Accounts</Link> page; its first point
          appears after its first scrape.
        </EmptyState>
      ) : (
        <TimeSeriesChart title="Followers and views of tracked accounts, by day" times={times} series={series} xUnit="day" />
      )}
      {data.growth.pageInfo.hasNextPage && <p className="muted">Showing the latest 100 days.</p>}
    </div>
  );
}

function PeriodPicker({ selected, onSelect }: { selected: GrowthPeriod; onSelect: (p: GrowthPeriod) => void }) {
  return (
    <div className="segmented" role="group" aria-label="Period">
      {PERIODS.map((p) => (
        <button key={p.value} type="button" aria-pressed={selected === p.value} onClick={() => onSelect(p.value)}>
          {p.label}
        </button>
      ))}
    </div>
  );
}
