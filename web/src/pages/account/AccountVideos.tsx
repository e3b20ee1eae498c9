/**
 * The account's videos the workspace tracks, newest posted first, with "Show more" (a Relay
 * connection). Each links to its video page.
 */
import { graphql, usePaginationFragment } from "react-relay";
import { Link } from "react-router";
import type { AccountVideos_account$key } from "../../__generated__/AccountVideos_account.graphql";
import { paths } from "../../app/paths";
import { StatusBadge } from "../../components/Badge";
import { EmptyState } from "../../components/EmptyState";
import { ShowMore } from "../../components/ShowMore";
import { Time } from "../../components/Time";
import { formatCount, formatPercent, formatWhole } from "../../lib/format";

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

export function AccountVideos({ account }: { account: AccountVideos_account$key }) {
  const { data, hasNext, loadNext, isLoadingNext } = usePaginationFragment(fragment, account);
  const videos = data.videos.edges.map((e) => e.node);
  if (data.videos.totalCount === 0) {
    return <EmptyState title="No videos of this account are tracked yet.">They are tracked when the account is scraped (up to its video limit, within your free tracking slots); press Refresh now to scrape it again.</EmptyState>;
  }
  return (
    <>
      <div className="table-scroll">
        <table className="data-table">
          <caption className="visually-hidden">The account's tracked videos, newest posted first</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Thumbnail</span>
              </th>
              <th scope="col">Description</th>
              <th scope="col">Views</th>
              <th scope="col">Likes</th>
              <th scope="col">Engagement</th>
              <th scope="col">Posted</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {videos.map((v) => (
              <tr key={v.id}>
                <td>{v.thumbnailUrl ? <img className="thumb" src={v.thumbnailUrl} alt="" loading="lazy" referrerPolicy="no-referrer" /> : <span className="thumb thumb-empty" />}</td>
                <td className="cell-description">
                  <Link className="description" to={paths.video(v.uuid)}>
                    {v.description || "Untitled video"}
                  </Link>
                </td>
                <td title={formatWhole(v.viewCount)}>{formatCount(v.viewCount)}</td>
                <td>{formatCount(v.likeCount)}</td>
                <td>{formatPercent(v.engagementRate)}</td>
                <td>
                  <Time value={v.postedAt} />
                </td>
                <td>
                  <StatusBadge status={v.scrapeStatus} title={v.scrapeError ?? undefined} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ShowMore shown={videos.length} total={data.videos.totalCount} hasNext={hasNext} isLoadingNext={isLoadingNext} onMore={() => loadNext(20)} />
    </>
  );
}
