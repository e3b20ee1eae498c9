/**
 * One campaign: spend against budget, views and earnings per creator over time, the per-creator
 * table (views earned, payout, cap reached, under which rule), the top videos with their evidence
 * (the two history points used: times, views, scraped or simulated), the qualifying videos that lack
 * a recent scrape, and the owner's tools (./CampaignManage.tsx: members, videos by hand, rule and
 * budget, Close). Live: the page is read again after each action and when a workspace event about
 * this campaign arrives (`campaign.closed`, `campaign.budget_reached`); there is no polling.
 */
import { useCallback, useMemo } from "react";
import { graphql, useSubscription } from "react-relay";
import { Link, useRevalidator } from "react-router";
import type { GraphQLSubscriptionConfig } from "relay-runtime";
import type { CampaignPageQuery, CampaignPageQuery$data } from "../../__generated__/CampaignPageQuery.graphql";
import type { CampaignPageEventsSubscription } from "../../__generated__/CampaignPageEventsSubscription.graphql";
import { paths } from "../../lib/paths";
import { Badge } from "../../components/Badge";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { Time } from "../../components/Time";
import { TimeSeriesChart, type ChartSeries } from "../../components/TimeSeriesChart";
import { formatExact, formatWhole, shortTitle } from "../../lib/format";
import { useRouteQuery } from "../../relay/route-query";
import { ExportButton } from "../../components/ExportButton";
import { CampaignManage } from "./CampaignManage";
import { formatMoney, minorDigits } from "./money";
import { campaignRules, ruleInWords } from "./RuleFields";
import { CampaignStatusBadge, Period, SpendBar } from "./parts";

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
      startsAt
      endsAt
      timeZone
      status
      closedAt
      currency
      budgetMinor
      hashtag
      tag {
        id
        name
      }
      ...RuleFields_campaign
      totals {
        payout
        budgetMinor
        budgetUsedPercent
        remainingMinor
        currency
        frozen
        videos
        viewsEarned
      }
      creators {
        creator {
          id
          uuid
          name
        }
        account {
          id
          uuid
          username
        }
        payeeName
        videos
        viewsEarned
        amountBeforeCreatorCap
        creatorCapCut
        payout
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
      videos(first: 20) {
        totalCount
        edges {
          node {
            videoId
            url
            username
            payeeName
            postedAt
            viewsEarned
            cpmAmount
            feeAmount
            perVideoCapCut
            creatorCapCut
            payout
            video {
              id
              uuid
              description
              username
            }
            start {
              at
              views
              source
              simulated
            }
            end {
              at
              views
              source
              simulated
            }
          }
        }
      }
      staleVideos {
        videoId
        url
        username
        payeeName
        postedAt
        lastScrapedAt
        video {
          id
          uuid
          description
          username
        }
      }
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

type Campaign = CampaignPageQuery$data["campaign"];
type PayeeRow = Campaign["creators"][number];
type VideoRow = Campaign["videos"]["edges"][number]["node"];
type StaleRow = Campaign["staleVideos"][number];
type Evidence = VideoRow["start"];

const COLORS = ["--chart-1", "--chart-2", "--chart-3", "--chart-4", "--chart-5", "--chart-6"];
/** The per-creator charts draw this many payees (the highest paid); the table lists them all. */
const CHART_PAYEES = COLORS.length;

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
      <section aria-labelledby="summary-heading" className="cards">
        <h2 id="summary-heading" className="visually-hidden">
          Summary
        </h2>
        <div className="card" data-testid="campaign-owed">
          <p className="card-label">Owed{c.totals.frozen ? " (frozen)" : " so far"}</p>
          <p className="card-value">{formatMoney(c.totals.payout, c.currency)}</p>
        </div>
        <div className="card" data-testid="campaign-spend">
          <p className="card-label">Spend against budget</p>
          <SpendBar {...c.totals} />
        </div>
        <div className="card">
          <p className="card-label">Views earned</p>
          <p className="card-value">{formatWhole(c.totals.viewsEarned)}</p>
        </div>
        <div className="card">
          <p className="card-label">Qualifying videos</p>
          <p className="card-value">{formatWhole(c.totals.videos)}</p>
        </div>
      </section>
      <section aria-labelledby="about-heading" className="panel">
        <h2 id="about-heading">The campaign</h2>
        <dl className="campaign-facts">
          <dt>Period</dt>
          <dd>
            <Period startsAt={c.startsAt} endsAt={c.endsAt} timeZone={c.timeZone} />
          </dd>
          <dt>Which videos count</dt>
          <dd>
            Posted within the period by its creators and accounts
            {c.hashtag ? `, with the hashtag #${c.hashtag.replace(/^#/, "")}` : ""}
            {c.tag ? `, tagged “${c.tag.name}”` : ""}, plus those added by hand, minus those excluded by hand.
          </dd>
          <dt>Payout rule</dt>
          <dd>
            {ruleInWords(campaignRules(c).rule, c.currency)}. Each video's payout is rounded half-up to whole minor units; totals are the
            sums of the rows.
          </dd>
        </dl>
      </section>
      <SpendCharts campaign={c} />
      <PayeeTable campaign={c} />
      <TopVideos campaign={c} />
      {!closed && <StaleVideos rows={c.staleVideos} />}
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

const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

function SpendCharts({ campaign: c }: { campaign: Campaign }) {
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
    <section aria-labelledby="over-time-heading" className="panel">
      <h2 id="over-time-heading">Over time</h2>
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
    </section>
  );
}

function PayeeTable({ campaign: c }: { campaign: Campaign }) {
  const { ownRule } = campaignRules(c);
  const columns: Column<PayeeRow>[] = [
    {
      id: "payee",
      header: "Creator",
      className: "cell-wrap",
      cell: (r) =>
        r.creator ? r.creator.name : r.account ? <Link to={paths.account(r.account.uuid)}>@{r.account.username}</Link> : r.payeeName,
    },
    { id: "videos", header: "Videos", cell: (r) => formatWhole(r.videos) },
    { id: "views", header: "Views earned", cell: (r) => formatWhole(r.viewsEarned) },
    { id: "payout", header: "Payout", cell: (r) => formatMoney(r.payout, c.currency) },
    {
      id: "cap",
      header: "Cap reached",
      cell: (r) =>
        r.creatorCapCut > 0 ? (
          <span>
            Yes: {formatMoney(r.creatorCapCut, c.currency)} over the cap (would be {formatMoney(r.amountBeforeCreatorCap, c.currency)})
          </span>
        ) : (
          "No"
        ),
    },
    {
      id: "rule",
      header: "Rule",
      className: "cell-wrap",
      cell: (r) => {
        const own = ownRule(r.creator?.id);
        return own ? `Own rule: ${ruleInWords(own, c.currency)}` : `Campaign's rule`;
      },
    },
  ];
  return (
    <section aria-labelledby="payees-heading" className="panel">
      <h2 id="payees-heading">What each creator earned</h2>
      <ExportButton kind="CAMPAIGN_PAYOUTS" what="the payouts, one row per video with its evidence" filter={{ campaignId: c.id }} />
      <DataTable
        label={`Creators' earnings, ${formatWhole(c.creators.length)} in all, highest payout first`}
        columns={columns}
        rows={c.creators}
        rowKey={(r) => r.creator?.id ?? r.account?.id ?? r.payeeName}
        rowProps={(r) => ({ "data-payee": r.payeeName })}
        empty={
          <EmptyState title="No creator has earned anything yet.">
            Add creators or accounts below; their videos posted in the period count once they are scraped.
          </EmptyState>
        }
      />
      {c.creators.length > 0 && (
        <p data-testid="payees-total">
          Total: {formatWhole(c.totals.viewsEarned)} views earned, {formatMoney(c.totals.payout, c.currency)} owed (the sum of the rows).
        </p>
      )}
    </section>
  );
}

/** One history point used: when, how many views, and where it came from (simulated is said on screen). */
function EvidencePoint({ point, what }: { point: Evidence; what: string }) {
  if (!point) return <span className="muted">no {what} point yet</span>;
  return (
    <span>
      {formatWhole(point.views)} views {point.source === "posting" ? "at posting" : <>on {point.at ? formatExact(point.at) : "—"}</>}{" "}
      {point.simulated ? <Badge tone="warning">simulated</Badge> : point.source === "posting" ? null : <Badge tone="info">scraped</Badge>}
    </span>
  );
}

const videoLink = (v: {
  video?: { uuid: string; description?: string | null; username?: string | null } | null;
  url: string;
  username: string;
}) =>
  v.video ? (
    <Link to={paths.video(v.video.uuid)}>{shortTitle(v.video)}</Link>
  ) : (
    <a href={v.url} rel="noreferrer noopener" target="_blank">
      {v.url}
    </a>
  );

function TopVideos({ campaign: c }: { campaign: Campaign }) {
  const rows = c.videos.edges.map((e) => e.node);
  const columns: Column<VideoRow>[] = [
    {
      id: "video",
      header: "Video",
      className: "cell-wrap",
      cell: (v) => (
        <>
          {videoLink(v)} <span className="muted">@{v.username}</span>
        </>
      ),
    },
    { id: "payee", header: "Creator", className: "cell-wrap", cell: (v) => v.payeeName },
    { id: "views", header: "Views earned", cell: (v) => formatWhole(v.viewsEarned) },
    {
      id: "evidence",
      header: "Evidence (from → to)",
      className: "cell-wrap",
      cell: (v) => (
        <span>
          <EvidencePoint point={v.start} what="start" /> → <EvidencePoint point={v.end} what="end" />
        </span>
      ),
    },
    {
      id: "payout",
      header: "Payout",
      className: "cell-wrap",
      cell: (v) => (
        <span>
          {formatMoney(v.payout, c.currency)}
          {(v.perVideoCapCut > 0 || v.creatorCapCut > 0 || v.feeAmount > 0) && (
            <span className="muted">
              {" "}
              (
              {[
                `views part ${formatMoney(v.cpmAmount, c.currency)}`,
                v.feeAmount > 0 ? `fee ${formatMoney(v.feeAmount, c.currency)}` : null,
                v.perVideoCapCut > 0 ? `per-video cap took ${formatMoney(v.perVideoCapCut, c.currency)}` : null,
                v.creatorCapCut > 0 ? `per-creator cap took ${formatMoney(v.creatorCapCut, c.currency)}` : null,
              ]
                .filter(Boolean)
                .join(", ")}
              )
            </span>
          )}
        </span>
      ),
    },
  ];
  return (
    <section aria-labelledby="top-videos-heading" className="panel">
      <h2 id="top-videos-heading">Top videos</h2>
      <p className="muted">
        Views earned = views at the end point (the window's end, or the last scrape inside it) minus views at the start point (the window's
        start, or 0 at posting).
        {c.videos.totalCount > rows.length
          ? ` The ${formatWhole(rows.length)} highest-paid of ${formatWhole(c.videos.totalCount)} qualifying videos.`
          : ""}
      </p>
      <DataTable
        label={`Top videos, ${formatWhole(rows.length)} of ${formatWhole(c.videos.totalCount)}, highest payout first`}
        columns={columns}
        rows={rows}
        rowKey={(v) => v.videoId}
        empty={
          <EmptyState title="No qualifying video yet.">
            Videos count once they are posted in the period by the campaign's creators or accounts, or added by hand.
          </EmptyState>
        }
      />
    </section>
  );
}

function StaleVideos({ rows }: { rows: Campaign["staleVideos"] }) {
  const columns: Column<StaleRow>[] = [
    {
      id: "video",
      header: "Video",
      className: "cell-wrap",
      cell: (v) => (
        <>
          {videoLink(v)} <span className="muted">@{v.username}</span>
        </>
      ),
    },
    { id: "payee", header: "Creator", className: "cell-wrap", cell: (v) => v.payeeName },
    { id: "scraped", header: "Last scraped", cell: (v) => <Time value={v.lastScrapedAt} fallback="never" /> },
  ];
  return (
    <section aria-labelledby="stale-heading" className="panel">
      <h2 id="stale-heading">Qualifying videos without a recent scrape</h2>
      <p className="muted">Not scraped in the last 24 hours: their views earned may be behind. Refresh them from their page.</p>
      <DataTable
        label={`Qualifying videos without a scrape in the last 24 hours, ${formatWhole(rows.length)}`}
        columns={columns}
        rows={rows}
        rowKey={(v) => v.videoId}
        empty={<p className="muted">Every qualifying video was scraped in the last 24 hours.</p>}
      />
    </section>
  );
}
