/**
 * The folder's videos (those added directly and those of its accounts), sorted on the server
 * (FolderVideoSort: the page's query variables, see FolderPage.tsx), "Show more" for the next cursor page, and "Remove"
 * for a video added directly (one that came with an account leaves with the account).
 */
import { useState } from "react";
import { graphql, usePaginationFragment } from "react-relay";
import { Link } from "react-router";
import type { FolderVideos_folder$key } from "../../__generated__/FolderVideos_folder.graphql";
import type { FolderVideoSort, SortOrder } from "../../__generated__/FolderVideosPaginationQuery.graphql";
import type { FolderVideosRemoveMutation } from "../../__generated__/FolderVideosRemoveMutation.graphql";
import { paths } from "../../app/paths";
import { EmptyState } from "../../components/EmptyState";
import { ShowMore } from "../../components/ShowMore";
import { ErrorMessage } from "../../components/ErrorMessage";
import { Time } from "../../components/Time";
import { formatCount, formatPercent, formatWhole, platformName } from "../../lib/format";
import { useMutationAsync } from "../../relay/mutations";

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

const SORTS: { value: FolderVideoSort; label: string }[] = [
  { value: "UPLOADED", label: "Posted" },
  { value: "VIEWS", label: "Views" },
  { value: "LIKES", label: "Likes" },
  { value: "COMMENTS", label: "Comments" },
  { value: "SHARES", label: "Shares" },
  { value: "ENGAGEMENT_RATE", label: "Engagement" },
];

interface Order {
  sort: FolderVideoSort;
  order: SortOrder;
}

export function FolderVideos({ folder, order: { sort, order }, onSort, onChanged }: { folder: FolderVideos_folder$key; order: Order; onSort: (o: Order) => void; onChanged: () => void }) {
  const { data, hasNext, loadNext, isLoadingNext } = usePaginationFragment(fragment, folder);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [remove, removing] = useMutationAsync<FolderVideosRemoveMutation>(removeMutation);
  const videos = data.videos.edges.map((e) => e.node);

  const change = (s: FolderVideoSort, o: SortOrder) => onSort({ sort: s, order: o });

  async function doRemove(videoId: string, label: string) {
    setError(null);
    setNotice(null);
    try {
      const removed = (await remove({ folderId: data.id, videoIds: [videoId] })).removeVideosFromFolder;
      setNotice(removed > 0 ? `Removed “${label}” from the folder.` : `“${label}” is in the folder through its account: remove the account to take it out.`);
      onChanged();
    } catch (e) {
      setError(e);
    }
  }

  if (data.videos.totalCount === 0) {
    return <EmptyState title="No videos in this folder.">Add a tracked video or account with the form above, or select videos on the <Link to={paths.videos()}>Videos</Link> page and press Add to folder.</EmptyState>;
  }
  return (
    <div>
      <div className="filters">
        <label>
          Sort by
          <select value={sort} onChange={(e) => change(e.target.value as FolderVideoSort, order)}>
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Order
          <select value={order} onChange={(e) => change(sort, e.target.value as SortOrder)}>
            <option value="DESC">Highest or newest first</option>
            <option value="ASC">Lowest or oldest first</option>
          </select>
        </label>
      </div>
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      {error !== null && <ErrorMessage error={error} title="Could not remove the video" />}
      <div className="table-scroll">
        <table className="data-table">
          <caption className="visually-hidden">The folder's videos</caption>
          <thead>
            <tr>
              <th scope="col">Description</th>
              <th scope="col">Platform</th>
              <th scope="col">Views</th>
              <th scope="col">Likes</th>
              <th scope="col">Engagement</th>
              <th scope="col">Posted</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {videos.map((v) => {
              const label = v.description || `Video by @${v.username}`;
              return (
                <tr key={v.id}>
                  <td className="cell-description">
                    <Link className="description" to={paths.video(v.uuid)}>
                      {label}
                    </Link>
                  </td>
                  <td>{platformName(v.type)}</td>
                  <td title={formatWhole(v.viewCount)}>{formatCount(v.viewCount)}</td>
                  <td>{formatCount(v.likeCount)}</td>
                  <td>{formatPercent(v.engagementRate)}</td>
                  <td>
                    <Time value={v.postedAt} />
                  </td>
                  <td>
                    <button type="button" className="button-link" aria-label={`Remove ${label} from the folder`} disabled={removing} onClick={() => void doRemove(v.id, label)}>
                      Remove
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ShowMore shown={videos.length} total={data.videos.totalCount} hasNext={hasNext} isLoadingNext={isLoadingNext} onMore={() => loadNext(20)} />
    </div>
  );
}
