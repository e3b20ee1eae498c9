/**
 * The tracked videos as a table (TanStack Table over a Relay connection). Sorting is the server's
 * (VideoSort), so clicking a header changes the URL and the query; "Show more" reads the next
 * cursor page. Rows update in place when `trackedVideosChanged` delivers a video (Relay merges
 * records by id); an added or removed video refetches the list.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useTransition, type HTMLAttributes } from "react";
import { graphql, readInlineData, usePaginationFragment, useSubscription } from "react-relay";
import { Link } from "react-router";
import { createColumnHelper, getCoreRowModel, useReactTable, type RowSelectionState } from "@tanstack/react-table";
import type { GraphQLSubscriptionConfig } from "relay-runtime";
import type { VideosTable_query$key } from "../../__generated__/VideosTable_query.graphql";
import type { VideosTableRow_video$data, VideosTableRow_video$key } from "../../__generated__/VideosTableRow_video.graphql";
import type { VideosTableChangesSubscription } from "../../__generated__/VideosTableChangesSubscription.graphql";
import type { VideoSort } from "../../__generated__/VideosPageQuery.graphql";
import { paths } from "../../app/paths";
import { StatusBadge } from "../../components/Badge";
import { EmptyState } from "../../components/EmptyState";
import { ShowMore } from "../../components/ShowMore";
import { SortedTable } from "../../components/SortedTable";
import { Time } from "../../components/Time";
import { formatCount, formatDelta, formatPercent, formatWhole, platformName } from "../../lib/format";
import { BulkActions } from "./BulkActions";
import type { ListOptions } from "./list-options";

const fragment = graphql`
  fragment VideosTable_query on Query
  @refetchable(queryName: "VideosTablePaginationQuery")
  @argumentDefinitions(
    sort: { type: "VideoSort!" }
    order: { type: "SortOrder!" }
    platform: { type: "Platform" }
    q: { type: "String" }
    first: { type: "Int!" }
    after: { type: "String" }
  ) {
    videos(sort: $sort, order: $order, platform: $platform, q: $q, first: $first, after: $after) @connection(key: "VideosTable_videos") {
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
    viewCount
    likeCount
    engagementRate
    views24h
    outlierScore
    postedAt
    scrapeStatus
    scrapeError
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
const column = createColumnHelper<Row>();

/** Which columns sort on the server, and by which key. */
const SORT_OF: Record<string, VideoSort> = { views: "VIEWS", engagement: "ENGAGEMENT", views24h: "VIEWS_24H", outlier: "OUTLIER", posted: "POSTED_AT" };

const columns = [
  column.display({
    id: "select",
    header: ({ table }) => (
      <input type="checkbox" aria-label="Select all videos on this page" checked={table.getIsAllRowsSelected()} onChange={table.getToggleAllRowsSelectedHandler()} />
    ),
    cell: ({ row }) => (
      <input type="checkbox" aria-label={`Select ${row.original.description || row.original.uuid}`} checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />
    ),
  }),
  column.accessor("thumbnailUrl", {
    id: "thumbnail",
    header: () => <span className="visually-hidden">Thumbnail</span>,
    cell: (c) => (c.getValue() ? <img className="thumb" src={c.getValue()} alt="" loading="lazy" referrerPolicy="no-referrer" /> : <span className="thumb thumb-empty" />),
  }),
  column.accessor("type", { id: "platform", header: "Platform", cell: (c) => platformName(c.getValue()) }),
  column.accessor("description", {
    header: "Description",
    cell: (c) => (
      <Link className="description" to={paths.video(c.row.original.uuid)}>
        {c.getValue() || `Video by @${c.row.original.username || "unknown"}`}
      </Link>
    ),
  }),
  column.accessor("viewCount", { id: "views", header: "Views", cell: (c) => <span title={formatWhole(c.getValue())}>{formatCount(c.getValue())}</span> }),
  column.accessor("likeCount", { id: "likes", header: "Likes", cell: (c) => formatCount(c.getValue()) }),
  column.accessor("engagementRate", { id: "engagement", header: "Engagement", cell: (c) => formatPercent(c.getValue()) }),
  column.accessor("views24h", { id: "views24h", header: "Views 24 h", cell: (c) => formatDelta(c.getValue()) }),
  column.accessor("outlierScore", { id: "outlier", header: "Outlier score", cell: (c) => (c.getValue() == null ? "—" : `${c.getValue()!.toFixed(1)}×`) }),
  column.accessor("postedAt", { id: "posted", header: "Posted", cell: (c) => <Time value={c.getValue()} /> }),
  column.accessor("scrapeStatus", { id: "status", header: "Status", cell: (c) => <StatusBadge status={c.getValue()} title={c.row.original.scrapeError ?? undefined} /> }),
];

interface Props {
  query: VideosTable_query$key;
  options: ListOptions;
  onChange: (o: Partial<ListOptions>) => void;
  pending: boolean;
}

export function VideosTable({ query, options, onChange, pending }: Props) {
  const { data, hasNext, loadNext, isLoadingNext, refetch } = usePaginationFragment(fragment, query);
  const rows = useMemo(() => data.videos.edges.map((e) => readInlineData<VideosTableRow_video$key>(rowFragment, e.node)), [data.videos.edges]);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [, startRefetch] = useTransition();

  const reload = useCallback(
    () =>
      startRefetch(() => {
        refetch({}, { fetchPolicy: "network-only" });
      }),
    [refetch],
  );
  useLiveRows(reload);

  const table = useReactTable({
    data: rows,
    columns,
    getRowId: (row) => row.id,
    getCoreRowModel: getCoreRowModel(),
    state: { rowSelection: selection },
    onRowSelectionChange: setSelection,
    enableRowSelection: true,
  });
  const selected = rows.filter((r) => selection[r.id]);

  if (data.videos.totalCount === 0) {
    return options.q || options.platform ? (
      <EmptyState title="No video matches these filters.">Clear the search or choose another platform.</EmptyState>
    ) : (
      <EmptyState title="No videos tracked yet.">Paste a video link in the form above and press Track: its views and likes appear here within seconds.</EmptyState>
    );
  }

  return (
    <div aria-busy={pending}>
      <BulkActions selected={selected} onDone={() => (setSelection({}), reload())} />
      <SortedTable
        table={table}
        caption={`Tracked videos, ${formatWhole(data.videos.totalCount)} in all${options.sort !== "TRACKED_AT" ? `, sorted by ${options.sort.toLowerCase().replace("_", " ")}` : ""}`}
        sortOf={SORT_OF}
        sort={options.sort}
        order={options.order}
        onSort={onChange}
        rowProps={(row) => ({ "data-video-id": row.original.uuid, "aria-selected": row.getIsSelected() }) as HTMLAttributes<HTMLTableRowElement>}
      />
      <ShowMore shown={rows.length} total={data.videos.totalCount} hasNext={hasNext} isLoadingNext={isLoadingNext} onMore={() => loadNext(50)} />
    </div>
  );
}

/**
 * Live rows: an UPDATED video is merged into the store by id (its row re-renders by itself);
 * ADDED and REMOVED change which rows the list holds, so the list is read again (at most every
 * 500 ms while changes keep coming).
 */
function useLiveRows(reload: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const config = useMemo<GraphQLSubscriptionConfig<VideosTableChangesSubscription>>(
    () => ({
      subscription: changes,
      variables: {},
      onNext: (payload) => {
        if (!payload || payload.trackedVideosChanged.change === "UPDATED" || timer.current) return;
        timer.current = setTimeout(() => {
          timer.current = null;
          reload();
        }, 500);
      },
    }),
    [reload],
  );
  useSubscription(config);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
}
