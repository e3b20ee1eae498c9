/**
 * The video's heading, badges and numbers. `videoUpdated` delivers this same fragment after every
 * scrape, so the numbers change in place.
 */
import { useMemo } from "react";
import { graphql, useFragment, useSubscription } from "react-relay";
import type { GraphQLSubscriptionConfig } from "relay-runtime";
import type { VideoSummary_video$key } from "../../__generated__/VideoSummary_video.graphql";
import type { VideoSummaryUpdatesSubscription } from "../../__generated__/VideoSummaryUpdatesSubscription.graphql";
import { Badge, StatusBadge } from "../../components/Badge";
import { PageHeader } from "../../components/PageHeader";
import { ScrapeFailure, ScrapeTimes, Stats } from "../../components/ScrapeFacts";
import { Time } from "../../components/Time";
import { formatCount, formatDelta, formatPercent, formatWhole, platformName, shortTitle } from "../../lib/format";
import { RefreshButton } from "./RefreshButton";

const fragment = graphql`
  fragment VideoSummary_video on Video {
    id
    url
    description
    username
    type
    dataSource
    scrapeStatus
    scrapeError
    postedAt
    lastScrapedAt
    nextRefreshAt
    viewCount
    likeCount
    commentCount
    shareCount
    bookmarkCount
    engagementRate
    views24h
    outlierScore
  }
`;

const updates = graphql`
  subscription VideoSummaryUpdatesSubscription($videoId: ID!) {
    videoUpdated(videoId: $videoId) {
      ...VideoSummary_video
    }
  }
`;

export function VideoSummary({ video }: { video: VideoSummary_video$key }) {
  const v = useFragment(fragment, video);
  const config = useMemo<GraphQLSubscriptionConfig<VideoSummaryUpdatesSubscription>>(
    () => ({ subscription: updates, variables: { videoId: v.id } }),
    [v.id],
  );
  useSubscription(config);

  const title = shortTitle(v);
  const stats: [string, string, string?][] = [
    ["Views", formatCount(v.viewCount), formatWhole(v.viewCount)],
    ["Likes", formatCount(v.likeCount), formatWhole(v.likeCount)],
    ["Comments", formatCount(v.commentCount), formatWhole(v.commentCount)],
    ["Shares", formatCount(v.shareCount), formatWhole(v.shareCount)],
    ["Saves", formatCount(v.bookmarkCount), formatWhole(v.bookmarkCount)],
    ["Engagement", formatPercent(v.engagementRate)],
    ["Views 24 h", formatDelta(v.views24h)],
    ["Outlier score", v.outlierScore == null ? "—" : `${v.outlierScore.toFixed(1)}×`],
  ];
  return (
    <>
      <PageHeader title={title}>
        <RefreshButton videoId={v.id} />
      </PageHeader>
      <div className="row meta">
        <StatusBadge status={v.scrapeStatus} title={v.scrapeError ?? undefined} />
        {v.dataSource === "simulated" && (
          <Badge tone="warning" title="These numbers come from the simulated provider, not from the platform.">
            Simulated data
          </Badge>
        )}
        <span>{platformName(v.type)}</span>
        {v.username && <span>@{v.username}</span>}
        <span>
          Posted <Time value={v.postedAt} fallback="(date unknown)" />
        </span>
        <ScrapeTimes lastScrapedAt={v.lastScrapedAt} nextRefreshAt={v.nextRefreshAt} url={v.url} />
      </div>
      <ScrapeFailure status={v.scrapeStatus} error={v.scrapeError} />
      <Stats stats={stats} />
    </>
  );
}
