/**
 * The account's videos the workspace tracks, newest posted first, with "Show more" (a Relay
 * connection). Each links to its video page.
 */
import { graphql } from "react-relay";
import type { AccountVideos_account$data, AccountVideos_account$key } from "../../__generated__/AccountVideos_account.graphql";
import type { AccountVideosPaginationQuery } from "../../__generated__/AccountVideosPaginationQuery.graphql";
import { StatusBadge } from "../../components/Badge";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { VideoCell, videoMetricColumns } from "../../components/VideoCell";
import { usePagedConnection } from "../../relay/paged";

const fragment = graphql`
  fragment AccountVideos_account on Account
  @refetchable(queryName: "AccountVideosPaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 20 }, after: { type: "String" }) {
    videos(first: $first, after: $after) @connection(key: "AccountVideos_videos") {
      totalCount
      edges {
        node {
          id
          uuid
          thumbnailUrl
          description
          viewCount
          likeCount
          engagementRate
          postedAt
          scrapeStatus
          scrapeError
        }
      }
    }
  }
`;

type Row = AccountVideos_account$data["videos"]["edges"][number]["node"];

const metrics = videoMetricColumns<Row>();
const COLUMNS: Column<Row>[] = [
  { id: "description", header: "Video", cell: (v) => <VideoCell video={v} /> },
  metrics.views,
  metrics.likes,
  metrics.engagement,
  metrics.posted,
  { id: "status", header: "Status", cell: (v) => <StatusBadge status={v.scrapeStatus} title={v.scrapeError ?? undefined} /> },
];

export function AccountVideos({ account }: { account: AccountVideos_account$key }) {
  const { rows, paging } = usePagedConnection<AccountVideosPaginationQuery, AccountVideos_account$key, Row>(
    fragment,
    account,
    (d) => d.videos,
    "videos",
  );
  return (
    <DataTable
      label="The account's tracked videos, newest posted first"
      columns={COLUMNS}
      rows={rows}
      empty={
        <EmptyState title="No videos of this account are tracked yet.">
          They are tracked when the account is scraped (up to its video limit, within your free tracking slots); press Refresh now to scrape
          it again.
        </EmptyState>
      }
      paging={paging}
    />
  );
}
