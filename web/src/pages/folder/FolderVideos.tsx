/**
 * The folder's videos (those added directly and those of its accounts), sorted on the server
 * (FolderVideoSort, in the URL: ./list-options.ts), "Show more" for the next cursor page, and
 * "Remove" for a video added directly (one that came with an account leaves with the account).
 */
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { FolderVideos_folder$data, FolderVideos_folder$key } from "../../__generated__/FolderVideos_folder.graphql";
import type { FolderVideoSort, FolderVideosPaginationQuery } from "../../__generated__/FolderVideosPaginationQuery.graphql";
import type { SortOrder } from "../../lib/list-options";
import type { FolderVideosRemoveMutation } from "../../__generated__/FolderVideosRemoveMutation.graphql";
import { paths } from "../../lib/paths";
import { actionsColumn, DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { Select } from "../../components/Select";
import { VideoCell, videoMetricColumns } from "../../components/VideoCell";
import { platformName, videoTitle } from "../../lib/format";
import { useListOptions } from "../../lib/list-options";
import { useAction } from "../../relay/action";
import { usePagedConnection } from "../../relay/paged";
import { folderVideoOptions } from "./list-options";

const fragment = graphql`
  fragment FolderVideos_folder on Folder
  @refetchable(queryName: "FolderVideosPaginationQuery")
  @argumentDefinitions(
    first: { type: "Int", defaultValue: 20 }
    after: { type: "String" }
    sort: { type: "FolderVideoSort", defaultValue: UPLOADED }
    order: { type: "SortOrder", defaultValue: DESC }
  ) {
    id
    videos(first: $first, after: $after, sort: $sort, order: $order) @connection(key: "FolderVideos_videos") {
      totalCount
      edges {
        node {
          id
          uuid
          type
          description
          username
          viewCount
          likeCount
          engagementRate
          postedAt
        }
      }
    }
  }
`;

const removeMutation = graphql`
  mutation FolderVideosRemoveMutation($folderId: ID!, $videoIds: [ID!]!) {
    removeVideosFromFolder(folderId: $folderId, videoIds: $videoIds)
  }
`;

const ORDERS: { value: SortOrder; label: string }[] = [
  { value: "DESC", label: "Highest or newest first" },
  { value: "ASC", label: "Lowest or oldest first" },
];
const SORTS: { value: FolderVideoSort; label: string }[] = [
  { value: "UPLOADED", label: "Posted" },
  { value: "VIEWS", label: "Views" },
  { value: "LIKES", label: "Likes" },
  { value: "COMMENTS", label: "Comments" },
  { value: "SHARES", label: "Shares" },
  { value: "ENGAGEMENT_RATE", label: "Engagement" },
];

type Row = FolderVideos_folder$data["videos"]["edges"][number]["node"];

const metrics = videoMetricColumns<Row, FolderVideoSort>({
  views: "VIEWS",
  likes: "LIKES",
  engagement: "ENGAGEMENT_RATE",
  posted: "UPLOADED",
});

export function FolderVideos({ folder, onChanged }: { folder: FolderVideos_folder$key; onChanged: () => void }) {
  const { data, rows, paging } = usePagedConnection<FolderVideosPaginationQuery, FolderVideos_folder$key, Row>(
    fragment,
    folder,
    (d) => d.videos,
    "videos",
  );
  const [{ sort, order }, change] = useListOptions(folderVideoOptions);
  const remove = useAction<FolderVideosRemoveMutation>(removeMutation);

  async function doRemove(v: Row) {
    const label = videoTitle(v);
    const done = await remove.run(
      { folderId: data.id, videoIds: [v.id] },
      {
        done: (r) =>
          r.removeVideosFromFolder > 0
            ? `Removed “${label}” from the folder.`
            : `“${label}” is in the folder through its account: remove the account to take it out.`,
        failed: "Could not remove the video",
      },
    );
    if (done) onChanged();
  }

  const columns: Column<Row, FolderVideoSort>[] = [
    { id: "description", header: "Video", cell: (v) => <VideoCell video={v} /> },
    { id: "platform", header: "Platform", cell: (v) => platformName(v.type) },
    metrics.views,
    metrics.likes,
    metrics.engagement,
    metrics.posted,
    actionsColumn((v) => (
      <button
        type="button"
        className="button-link"
        aria-label={`Remove ${videoTitle(v)} from the folder`}
        disabled={remove.pending}
        onClick={() => void doRemove(v)}
      >
        Remove
      </button>
    )),
  ];

  return (
    <div>
      {rows.length > 0 && (
        <div className="filters">
          <Select label="Sort by" value={sort} options={SORTS} onChange={(sort) => change({ sort })} />
          <Select label="Order" value={order} options={ORDERS} onChange={(order) => change({ order })} />
        </div>
      )}
      <Outcome outcome={remove.outcome} />
      <DataTable
        label="The folder's videos"
        columns={columns}
        rows={rows}
        empty={
          <EmptyState title="No videos in this folder.">
            Add a tracked video or account with the form above, or select videos on the <Link to={paths.videos()}>Videos</Link> page and
            press Add to folder.
          </EmptyState>
        }
        sorting={{ sort, order, onSort: change }}
        paging={paging}
      />
    </div>
  );
}
