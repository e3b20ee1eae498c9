/**
 * Overview: the plan, credits (monthly used, remaining, total), tracking slots, the growth of the
 * tracked accounts, and the workspace's events as they happen.
 */
import { Suspense } from "react";
import { graphql } from "react-relay";
import type { OverviewPageQuery } from "../../__generated__/OverviewPageQuery.graphql";
import { PageHeader } from "../../components/PageHeader";
import { Loading } from "../../components/Loading";
import { Time } from "../../components/Time";
import { formatWhole } from "../../lib/format";
import { useBalance, useLiveCredits } from "../../relay/credits";
import { useRouteQuery } from "../../relay/route-query";
import { GrowthChart } from "./GrowthChart";
import { LiveEvents } from "./LiveEvents";
import { Panel } from "../../components/Panel";

const query = graphql`
  query OverviewPageQuery {
    workspace {
      id
      plan
      limits {
        videoLimit
        videoSlotsUsed
        additionsRemaining
      }
      credits {
        ...credits_balance
      }
    }
    ...GrowthChart_query
  }
`;

export default function OverviewPage() {
  const data = useRouteQuery<OverviewPageQuery>(query);
  useLiveCredits();
  const { plan, limits } = data.workspace;
  const credits = useBalance(data.workspace.credits);
  return (
    <>
      <PageHeader title="Overview" />
      <section aria-labelledby="plan-heading" className="cards">
        <h2 id="plan-heading" className="visually-hidden">
          Plan and usage
        </h2>
        <div className="card">
          <p className="card-label">Plan</p>
          <p className="card-value">{plan.charAt(0).toUpperCase() + plan.slice(1)}</p>
          <p className="card-note">
            Credits renew <Time value={credits.cycleResetsAt} />
          </p>
        </div>
        <div className="card">
          <p className="card-label">Credits remaining</p>
          <p className="card-value">{formatWhole(credits.totalRemaining)}</p>
          <p className="card-note">
            {formatWhole(credits.monthlyUsed)} used of {formatWhole(credits.monthlyTotal)} this month,{" "}
            {formatWhole(credits.monthlyRemaining)} left
            {credits.reserved > 0 && <>; {formatWhole(credits.reserved)} held by running analyses</>}
          </p>
          <Meter label="Monthly credits used" value={credits.monthlyUsed} max={credits.monthlyTotal} />
        </div>
        <div className="card">
          <p className="card-label">Tracking slots</p>
          <p className="card-value">
            {formatWhole(limits.videoSlotsUsed)} / {formatWhole(limits.videoLimit)}
          </p>
          <p className="card-note">{formatWhole(limits.additionsRemaining)} more videos can be tracked</p>
          <Meter label="Tracking slots used" value={limits.videoSlotsUsed} max={limits.videoLimit} />
        </div>
      </section>
      <Panel title="Growth of tracked accounts">
        <Suspense fallback={<Loading what="Loading the growth chart" />}>
          <GrowthChart query={data} />
        </Suspense>
      </Panel>
      <Panel title="Live events">
        <LiveEvents />
      </Panel>
    </>
  );
}

function Meter({ label, value, max }: { label: string; value: number; max: number }) {
  return <meter aria-label={label} min={0} max={Math.max(max, 1)} value={Math.min(value, Math.max(max, 1))} />;
}
