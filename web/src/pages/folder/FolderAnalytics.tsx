/** The folder's analytics as cards (totals over its videos, average engagement) and its top videos. */
import { graphql, useFragment } from "react-relay";
import { Link } from "react-router";
import type { FolderAnalytics_folder$key } from "../../__generated__/FolderAnalytics_folder.graphql";
import { paths } from "../../lib/paths";
import { EmptyState } from "../../components/EmptyState";
import { formatCount, formatPercent, formatWhole, videoTitle } from "../../lib/format";
import { Panel } from "../../components/Panel";

const fragment = graphql`
  fragment FolderAnalytics_folder on Folder @argumentDefinitions(includeDescendants: { type: "Boolean", defaultValue: false }) {
    analytics(includeDescendants: $includeDescendants) {
      totalViews
      totalLikes
      totalComments
      totalShares
      avgEngagementRate
      totalVideos
      totalAccounts
      topVideos {
        uuid
        description
        username
        viewCount
      }
    }
  }
`;

export function FolderAnalytics({ folder }: { folder: FolderAnalytics_folder$key }) {
  const { analytics: a } = useFragment(fragment, folder);
  const cards: [string, string, string?][] = [
    ["Views", formatCount(a.totalViews), formatWhole(a.totalViews)],
    ["Likes", formatCount(a.totalLikes), formatWhole(a.totalLikes)],
    ["Comments", formatCount(a.totalComments), formatWhole(a.totalComments)],
    ["Shares", formatCount(a.totalShares), formatWhole(a.totalShares)],
    ["Average engagement", formatPercent(a.avgEngagementRate)],
    ["Videos", formatWhole(a.totalVideos)],
    ["Accounts", formatWhole(a.totalAccounts)],
  ];
  return (
    <>
      <section aria-labelledby="folder-analytics-heading" className="cards">
        <h2 id="folder-analytics-heading" className="visually-hidden">
          Analytics
        </h2>
        {cards.map(([label, value, exact]) => (
          <div className="card" key={label}>
            <p className="card-label">{label}</p>
            <p className="card-value" title={exact}>
              {value}
            </p>
          </div>
        ))}
      </section>
      <Panel title="Top videos">
        {a.topVideos.length === 0 ? (
          <EmptyState title="No videos in this folder yet.">Add tracked videos or accounts below: the most viewed appear here.</EmptyState>
        ) : (
          <ol className="top-videos">
            {a.topVideos.map((v) => (
              <li key={v.uuid}>
                <Link to={paths.video(v.uuid)}>{videoTitle(v)}</Link> <span className="muted">@{v.username}</span>{" "}
                <span title={formatWhole(v.viewCount)}>{formatCount(v.viewCount)} views</span>
              </li>
            ))}
          </ol>
        )}
      </Panel>
    </>
  );
}
