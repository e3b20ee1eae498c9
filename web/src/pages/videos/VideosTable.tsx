/**
 * The tracked videos as a table (components/DataTable.tsx over a Relay connection). Sorting is the
 * server's (VideoSort), so clicking a header changes the URL and the route loads the list again;
 * "Show more" reads the next cursor page. Rows update in place when `trackedVideosChanged` delivers
 * a video (Relay merges records by id); an added or removed video refetches the list.
 */
import { useCallback, useMemo, useState, useTransition } from "react";
import { graphql, readInlineData } from "react-relay";
import type { VideosTable_query$key } from "../../__generated__/VideosTable_query.graphql";
import type { VideosTablePaginationQuery } from "../../__generated__/VideosTablePaginationQuery.graphql";
import type { VideosTableRow_video$data, VideosTableRow_video$key } from "../../__generated__/VideosTableRow_video.graphql";
import type { VideosTableChangesSubscription } from "../../__generated__/VideosTableChangesSubscription.graphql";
import type { VideoSort } from "../../__generated__/VideosPageQuery.graphql";
import { StatusBadge } from "../../components/Badge";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { VideoCell, videoMetricColumns } from "../../components/VideoCell";
import { formatDelta, formatWhole, platformName, videoTitle } from "../../lib/format";
import type { ColumnChoice } from "../../lib/columns";
import { Link } from "react-router";
import { paths } from "../../lib/paths";
import { usePagedConnection } from "../../relay/paged";
import { useLiveList } from "../../relay/live-list";
import { TagChips } from "../tags/TagChips";
import { BulkActions } from "./BulkActions";
import type { VideoListOptions } from "./list-options";

const fragment = graphql`
  fragment VideosTable_query on Query
  @refetchable(queryName: "VideosTablePaginationQuery")
  @argumentDefinitions(
    sort: { type: "VideoSort!" }
    order: { type: "SortOrder!" }
    platform: { type: "Platform" }
    q: { type: "String" }
    tagIds: { type: "[ID!]" }
    first: { type: "Int", defaultValue: 50 }
    after: { type: "String" }
  ) {
    videos(sort: $sort, order: $order, platform: $platform, q: $q, tagIds: $tagIds, first: $first, after: $after) @connection(key: "VideosTable_videos") {
      __id
      totalCount
      edges {
        node {
          ...VideosTableRow_video
        }
      }
    }
  }
`;

/** What a row shows; the live subscription asks for the same fields, so an update fills every cell. */
const rowFragment = graphql`
  fragment VideosTableRow_video on Video @inline {
    id
    uuid
    thumbnailUrl
    type
    description
    username
    displayName
    account {
      uuid
      username
      displayName
      tracking {
        trackedAt
      }
    }
    viewCount
    likeCount
    engagementRate
    views24h
    outlierScore
    postedAt
    scrapeStatus
    scrapeError
    tags {
      id
      name
      color
    }
  }
`;

const changes = graphql`
  subscription VideosTableChangesSubscription {
    trackedVideosChanged {
      change
      videoId
      video {
        ...VideosTableRow_video
      }
    }
  }
`;

type Row = VideosTableRow_video$data;
const videoChangeKind = (p: VideosTableChangesSubscription["response"]) => p.trackedVideosChanged.change;

const metrics = videoMetricColumns<Row, VideoSort>({ views: "VIEWS", engagement: "ENGAGEMENT", posted: "POSTED_AT" });

/**
 * The columns a person may show or hide (lib/columns.ts), in the table's order; the ids are the
 * domain's (src/domain/views/inputs.ts VIDEO_LIST_COLUMNS), so saved views carry them.
 */
export const VIDEO_COLUMNS: readonly ColumnChoice[] = [
  { id: "platform", label: "Platform" },
  { id: "video", label: "Video" },
  { id: "creator", label: "Creator" },
  { id: "views", label: "Views" },
  { id: "likes", label: "Likes" },
  { id: "engagement", label: "Engagement" },
  { id: "views24h", label: "Views 24 h" },
  { id: "outlier", label: "Outlier score" },
  { id: "posted", label: "Posted" },
  { id: "status", label: "Status" },
];

/** The video's creator: display name and handle, linking to the account's page when the workspace tracks it. */
function Creator({ video: v }: { video: Row }) {
  const handle = v.account?.username || v.username;
  const name = v.account?.displayName || v.displayName;
  if (!handle) return <span className="muted">—</span>;
  const text = (
    <>
      {name && <span>{name} </span>}
      <span className="muted">@{handle}</span>
    </>
  );
  return v.account?.tracking ? <Link to={paths.account(v.account.uuid)}>{text}</Link> : <span>{text}</span>;
}

/** The columns shown, in the table's order; `select` (the row's checkbox; the selection is the set of row ids) is always there. */
function columnsFor(shown: readonly string[], selected: ReadonlySet<string>, toggle: (id: string) => void): Column<Row, VideoSort>[] {
  const all: Column<Row, VideoSort>[] = [
    { id: "platform", header: "Platform", cell: (v) => platformName(v.type) },
    {
      id: "video",
      header: "Video",
      className: "cell-description",
      cell: (v) => (
        <>
          <VideoCell video={v} />
          <TagChips tags={v.tags} />
        </>
      ),
    },
    { id: "creator", header: "Creator", cell: (v) => <Creator video={v} /> },
    metrics.views,
    metrics.likes,
    metrics.engagement,
    { id: "views24h", header: "Views 24 h", sort: "VIEWS_24H", cell: (v) => formatDelta(v.views24h) },
    {
      id: "outlier",
      header: "Outlier score",
      sort: "OUTLIER",
      cell: (v) => (v.outlierScore == null ? "—" : `${v.outlierScore.toFixed(1)}×`),
    },
    metrics.posted,
    { id: "status", header: "Status", cell: (v) => <StatusBadge status={v.scrapeStatus} title={v.scrapeError ?? undefined} /> },
  ];
  const select: Column<Row, VideoSort> = {
    id: "select",
    header: "Select",
    hidden: true,
    cell: (v) => (
      <input type="checkbox" aria-label={`Select ${videoTitle(v)}`} checked={selected.has(v.id)} onChange={() => toggle(v.id)} />
    ),
  };
  return [select, ...all.filter((c) => shown.includes(c.id))];
}

interface Props {
  query: VideosTable_query$key;
  /** The column ids shown (lib/columns.ts). */
  columns: readonly string[];
  options: VideoListOptions;
  onChange: (o: Partial<VideoListOptions>) => void;
  pending: boolean;
}

export function VideosTable({ query, columns: shown, options, onChange, pending }: Props) {
  const {
    data,
    rows: nodes,
    paging,
    refetch,
  } = usePagedConnection<VideosTablePaginationQuery, VideosTable_query$key, VideosTableRow_video$key>(
    fragment,
    query,
    (d) => d.videos,
    "videos",
  );
  const rows = useMemo(() => nodes.map((node) => readInlineData<VideosTableRow_video$key>(rowFragment, node)), [nodes]);
  const [selection, setSelection] = useState<ReadonlySet<string>>(new Set());
  const [, startRefetch] = useTransition();

  const reload = useCallback(
    () =>
      startRefetch(() => {
        refetch({}, { fetchPolicy: "network-only" });
      }),
    [refetch],
  );
  useLiveList<VideosTableChangesSubscription>(changes, videoChangeKind, reload);

  const toggle = useCallback(
    (id: string) => setSelection((s) => (s.has(id) ? new Set([...s].filter((x) => x !== id)) : new Set([...s, id]))),
    [],
  );
  const columns = useMemo(() => columnsFor(shown, selection, toggle), [shown, selection, toggle]);
  const selected = rows.filter((r) => selection.has(r.id));
  const allSelected = rows.length > 0 && selected.length === rows.length;

  const empty =
    options.q || options.platform || options.tagIds ? (
      <EmptyState title="No video matches these filters.">Clear the search or choose another platform or tag.</EmptyState>
    ) : (
      <EmptyState title="No videos tracked yet.">
        Paste a video link in the form above and press Track: its views and likes appear here within seconds.
      </EmptyState>
    );

  return (
    <div>
      {rows.length > 0 && (
        <label className="select-all checkbox">
          <input
            type="checkbox"
            checked={allSelected}
            onChange={() => setSelection(allSelected ? new Set() : new Set(rows.map((r) => r.id)))}
          />{" "}
          Select all videos on this page
        </label>
      )}
      <BulkActions selected={selected} connectionId={data.videos.__id} onDone={() => setSelection(new Set())} />
      <DataTable
        label={`Tracked videos, ${formatWhole(paging.total)} in all${options.sort !== "TRACKED_AT" ? `, sorted by ${options.sort.toLowerCase().replace("_", " ")}` : ""}`}
        columns={columns}
        rows={rows}
        rowProps={(v) => ({ "data-video-id": v.uuid, "aria-selected": selection.has(v.id) })}
        empty={empty}
        sorting={{ sort: options.sort, order: options.order, onSort: onChange }}
        paging={paging}
        busy={pending}
      />
    </div>
  );
}
