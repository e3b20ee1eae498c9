/**
 * One campaign: spend against budget, views and earnings per creator over time, the per-creator
 * table (views earned, payout, cap reached, under which rule), the top videos with their evidence
 * (the two history points used: times, views, scraped or simulated), the qualifying videos that lack
 * a recent scrape, and the owner's tools (./CampaignManage.tsx: members, videos by hand, rule and
 * budget, Close); each section reads its own fragment (./CampaignSummary.tsx, ./SpendCharts.tsx, ./PayeeTable.tsx,
 * ./CampaignVideos.tsx). Live: the page is read again after each action and when a workspace event about
 * this campaign arrives (`campaign.closed`, `campaign.budget_reached`); there is no polling.
 */
import { useCallback, useMemo } from "react";
import { graphql, useSubscription } from "react-relay";
import { Link, useRevalidator } from "react-router";
import type { GraphQLSubscriptionConfig } from "relay-runtime";
import type { CampaignPageQuery } from "../../__generated__/CampaignPageQuery.graphql";
import type { CampaignPageEventsSubscription } from "../../__generated__/CampaignPageEventsSubscription.graphql";
import { paths } from "../../lib/paths";
import { PageHeader } from "../../components/PageHeader";
import { formatExact } from "../../lib/format";
import { useRouteQuery } from "../../relay/route-query";
import { CampaignManage } from "./CampaignManage";
import { CampaignSummary } from "./CampaignSummary";
import { StaleVideos, TopVideos } from "./CampaignVideos";
import { CampaignStatusBadge } from "./parts";
import { PayeeTable } from "./PayeeTable";
import { SpendCharts } from "./SpendCharts";

const query = graphql`
  query CampaignPageQuery($id: ID!) {
    viewer {
      currentWorkspace {
        role
      }
    }
    campaign(id: $id) {
      id
      uuid
      name
      status
      closedAt
      ...CampaignSummary_campaign
      ...SpendCharts_campaign
      ...PayeeTable_campaign
      ...CampaignVideos_top
      ...CampaignVideos_stale
      ...CampaignManage_campaign
    }
  }
`;

const events = graphql`
  subscription CampaignPageEventsSubscription {
    workspaceEvents {
      id
      type
      data
    }
  }
`;

export default function CampaignPage() {
  const data = useRouteQuery<CampaignPageQuery>(query);
  const c = data.campaign;
  const isOwner = data.viewer?.currentWorkspace?.role === "OWNER";
  const { revalidate } = useRevalidator();
  const reload = useCallback(() => void revalidate(), [revalidate]);
  useCampaignEvents(c.uuid, reload);
  const closed = c.status === "CLOSED";

  return (
    <>
      <nav aria-label="Breadcrumbs" className="crumbs">
        <Link to={paths.campaigns()}>Campaigns</Link> / <span aria-current="page">{c.name}</span>
      </nav>
      <PageHeader title={c.name}>
        <CampaignStatusBadge status={c.status} />
      </PageHeader>
      {closed && (
        <p className="notice" role="note">
          Closed {c.closedAt ? formatExact(c.closedAt) : ""}: these figures are frozen. Later scrapes do not change them, and the campaign
          can no longer be edited.
        </p>
      )}
      <CampaignSummary campaign={c} />
      <SpendCharts campaign={c} />
      <PayeeTable campaign={c} />
      <TopVideos campaign={c} />
      {!closed && <StaleVideos campaign={c} />}
      <CampaignManage campaign={c} isOwner={isOwner} onChanged={reload} />
    </>
  );
}

/** Re-reads the page when the workspace's event stream says something about this campaign. */
function useCampaignEvents(uuid: string, reload: () => void) {
  const config = useMemo<GraphQLSubscriptionConfig<CampaignPageEventsSubscription>>(
    () => ({
      subscription: events,
      variables: {},
      onNext: (payload) => {
        const e = payload?.workspaceEvents;
        const data = e?.data as { campaignId?: unknown } | undefined;
        if (e && (e.type === "CAMPAIGN_CLOSED" || e.type === "CAMPAIGN_BUDGET_REACHED") && data?.campaignId === uuid) reload();
      },
    }),
    [uuid, reload],
  );
  useSubscription(config);
}
