/** The account's heading, badges and numbers; its actions go in the header (children). */
import type { ReactNode } from "react";
import { graphql, useFragment } from "react-relay";
import type { AccountSummary_account$key } from "../../__generated__/AccountSummary_account.graphql";
import { Badge, StatusBadge } from "../../components/Badge";
import { PageHeader } from "../../components/PageHeader";
import { ScrapeFailure, ScrapeTimes, Stats } from "../../components/ScrapeFacts";
import { Time } from "../../components/Time";
import { formatCount, formatWhole, platformName } from "../../lib/format";

const fragment = graphql`
  fragment AccountSummary_account on Account {
    username
    displayName
    avatarUrl
    url
    type
    dataSource
    followerCount
    totalViews
    videoCount
    scrapeStatus
    scrapeError
    lastScrapedAt
    nextRefreshAt
    tracking {
      videoLimit
      trackedAt
    }
  }
`;

export function AccountSummary({ account, children }: { account: AccountSummary_account$key; children?: ReactNode }) {
  const a = useFragment(fragment, account);
  const stats: [string, string, string?][] = [
    ["Followers", formatCount(a.followerCount), formatWhole(a.followerCount)],
    ["Total views", formatCount(a.totalViews), formatWhole(a.totalViews)],
    ["Videos on the platform", formatCount(a.videoCount), formatWhole(a.videoCount)],
    ["Video limit", formatWhole(a.tracking?.videoLimit)],
  ];
  return (
    <>
      <PageHeader title={a.displayName || `@${a.username}`}>{children}</PageHeader>
      <div className="row meta">
        {a.avatarUrl && <img className="thumb avatar" src={a.avatarUrl} alt="" referrerPolicy="no-referrer" />}
        <StatusBadge status={a.scrapeStatus} title={a.scrapeError ?? undefined} />
        {a.dataSource === "simulated" && (
          <Badge tone="warning" title="These numbers come from the simulated provider, not from the platform.">
            Simulated data
          </Badge>
        )}
        <span>{platformName(a.type)}</span>
        <span>@{a.username}</span>
        <span>
          Tracked <Time value={a.tracking?.trackedAt} />
        </span>
        <ScrapeTimes lastScrapedAt={a.lastScrapedAt} nextRefreshAt={a.nextRefreshAt} url={a.url} />
      </div>
      <ScrapeFailure status={a.scrapeStatus} error={a.scrapeError} />
      <Stats stats={stats} />
    </>
  );
}
