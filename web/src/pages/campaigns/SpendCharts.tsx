/**
 * A campaign over time: spend and views earned at the end of each local day of its period, then earnings and
 * views earned per creator (the highest paid; the payee table lists them all).
 */
import { useMemo } from "react";
import { graphql, useFragment } from "react-relay";
import type { SpendCharts_campaign$key } from "../../__generated__/SpendCharts_campaign.graphql";
import { TimeSeriesChart, type ChartSeries } from "../../components/TimeSeriesChart";
import { minorDigits } from "./money";
import { Panel } from "../../components/Panel";

const fragment = graphql`
  fragment SpendCharts_campaign on Campaign {
    currency
    timeZone
    creators {
      creator {
        uuid
      }
      account {
        uuid
      }
      payeeName
    }
    spendOverTime {
      at
      payout
      viewsEarned
    }
    spendByCreator {
      at
      creatorId
      accountId
      payout
      viewsEarned
    }
  }
`;

const COLORS = ["--chart-1", "--chart-2", "--chart-3", "--chart-4", "--chart-5", "--chart-6"];
/** The per-creator charts draw this many payees (the highest paid); the table lists them all. */
const CHART_PAYEES = COLORS.length;

const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

export function SpendCharts({ campaign }: { campaign: SpendCharts_campaign$key }) {
  const c = useFragment(fragment, campaign);
  const scale = 10 ** minorDigits(c.currency);
  const total = useMemo(() => {
    const times = c.spendOverTime.map((p) => seconds(p.at));
    const series: ChartSeries[] = [
      { label: `Spend (${c.currency})`, values: c.spendOverTime.map((p) => p.payout / scale), colorVar: "--chart-1" },
      { label: "Views earned", values: c.spendOverTime.map((p) => p.viewsEarned), colorVar: "--chart-2", axis: "right" },
    ];
    return { times, series };
  }, [c.spendOverTime, c.currency, scale]);

  const perPayee = useMemo(() => {
    const payees = c.creators.slice(0, CHART_PAYEES);
    const keyOf = (p: { creatorId?: string | null; accountId?: string | null }) => (p.creatorId ? `c:${p.creatorId}` : `a:${p.accountId}`);
    const times = [...new Set(c.spendByCreator.map((p) => seconds(p.at)))].sort((a, b) => a - b);
    const index = new Map(times.map((t, i) => [t, i]));
    const build = (field: "payout" | "viewsEarned", div: number) =>
      payees.map((payee, i): ChartSeries => {
        const key = payee.creator ? `c:${payee.creator.uuid}` : `a:${payee.account?.uuid}`;
        const values: (number | null)[] = times.map(() => null);
        for (const p of c.spendByCreator) if (keyOf(p) === key) values[index.get(seconds(p.at))!] = p[field] / div;
        return { label: payee.payeeName, values, colorVar: COLORS[i]! };
      });
    return { times, earnings: build("payout", scale), views: build("viewsEarned", 1) };
  }, [c.creators, c.spendByCreator, scale]);

  if (c.spendOverTime.length === 0) return null;
  return (
    <Panel title="Over time">
      <p className="muted">At the end of each local day of the period ({c.timeZone}).</p>
      <TimeSeriesChart title={`Spend (${c.currency}) and views earned over time`} times={total.times} series={total.series} xUnit="day" />
      {perPayee.times.length > 0 && perPayee.earnings.length > 0 && (
        <>
          <h3>Earnings per creator ({c.currency})</h3>
          <TimeSeriesChart
            title={`Earnings per creator (${c.currency}) over time`}
            times={perPayee.times}
            series={perPayee.earnings}
            xUnit="day"
          />
          <h3>Views earned per creator</h3>
          <TimeSeriesChart title="Views earned per creator over time" times={perPayee.times} series={perPayee.views} xUnit="day" />
          {c.creators.length > CHART_PAYEES && (
            <p className="muted">The charts draw the {CHART_PAYEES} highest-paid; the table below lists every creator.</p>
          )}
        </>
      )}
    </Panel>
  );
}
