/**
 * A campaign's videos: the top videos with their evidence (the two history points used: times, views, scraped
 * or simulated) and the qualifying videos that lack a recent scrape. Both lists name a video and its creator
 * with the same two columns.
 */
import { graphql, useFragment } from "react-relay";
import { Link } from "react-router";
import type { CampaignVideos_stale$key } from "../../__generated__/CampaignVideos_stale.graphql";
import type { CampaignVideos_top$data, CampaignVideos_top$key } from "../../__generated__/CampaignVideos_top.graphql";
import { Badge } from "../../components/Badge";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Time } from "../../components/Time";
import { formatExact, formatWhole, shortTitle } from "../../lib/format";
import { paths } from "../../lib/paths";
import { formatMoney } from "./money";
import { Panel } from "../../components/Panel";

const topFragment = graphql`
  fragment CampaignVideos_top on Campaign {
    currency
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
  }
`;

const staleFragment = graphql`
  fragment CampaignVideos_stale on Campaign {
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
  }
`;

type VideoRow = CampaignVideos_top$data["videos"]["edges"][number]["node"];
type Evidence = VideoRow["start"];

/** What both lists know of a row: the video (when tracked), else its URL, and who is paid for it. */
interface CampaignVideo {
  readonly video?: { readonly uuid: string; readonly description?: string | null; readonly username?: string | null } | null;
  readonly url: string;
  readonly username: string;
  readonly payeeName: string;
}

/** The video (its page when tracked, else its URL) and the creator paid for it: the first columns of both lists. */
const VIDEO_COLUMNS: Column<CampaignVideo>[] = [
  {
    id: "video",
    header: "Video",
    className: "cell-wrap",
    cell: (v) => (
      <>
        {v.video ? (
          <Link to={paths.video(v.video.uuid)}>{shortTitle(v.video)}</Link>
        ) : (
          <a href={v.url} rel="noreferrer noopener" target="_blank">
            {v.url}
          </a>
        )}{" "}
        <span className="muted">@{v.username}</span>
      </>
    ),
  },
  { id: "payee", header: "Creator", className: "cell-wrap", cell: (v) => v.payeeName },
];

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

export function TopVideos({ campaign }: { campaign: CampaignVideos_top$key }) {
  const c = useFragment(topFragment, campaign);
  const rows = c.videos.edges.map((e) => e.node);
  const columns: Column<VideoRow>[] = [
    ...VIDEO_COLUMNS,
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
    <Panel title="Top videos">
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
    </Panel>
  );
}

export function StaleVideos({ campaign }: { campaign: CampaignVideos_stale$key }) {
  const rows = useFragment(staleFragment, campaign).staleVideos;
  return (
    <Panel title="Qualifying videos without a recent scrape">
      <p className="muted">Not scraped in the last 24 hours: their views earned may be behind. Refresh them from their page.</p>
      <DataTable
        label={`Qualifying videos without a scrape in the last 24 hours, ${formatWhole(rows.length)}`}
        columns={[
          ...VIDEO_COLUMNS,
          { id: "scraped", header: "Last scraped", cell: (v) => <Time value={v.lastScrapedAt} fallback="never" /> },
        ]}
        rows={rows}
        rowKey={(v) => v.videoId}
        empty={<p className="muted">Every qualifying video was scraped in the last 24 hours.</p>}
      />
    </Panel>
  );
}
