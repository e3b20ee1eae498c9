/**
 * Videos: track one or many URLs, and the table of tracked videos (sort, platform and tag filters,
 * search, columns, cursor pages), updating live as scrapes land. The list's options live in the URL
 * (?sort=views&order=asc&platform=PLATFORM_A&q=cats&tag=…&columns=video,creator,views), so a view can be
 * bookmarked and the back button works; a saved view (components/SavedViews.tsx) writes the same URL.
 */
import { graphql } from "react-relay";
import { useNavigation, useSearchParams } from "react-router";
import type { VideosPageQuery, VideoSort } from "../../__generated__/VideosPageQuery.graphql";
import { ColumnChooser } from "../../components/ColumnChooser";
import { ListFilters } from "../../components/ListFilters";
import { PageHeader } from "../../components/PageHeader";
import { SavedViews, type SavedViewData } from "../../components/SavedViews";
import { rememberColumns, useColumns } from "../../lib/columns";
import { useListOptions } from "../../lib/list-options";
import { rootConnection } from "../../relay/connections";
import { useRouteQuery } from "../../relay/route-query";
import { TagFilter } from "../tags/TagFilter";
import { TrackVideosForm } from "./TrackVideosForm";
import { VIDEO_COLUMNS, VideosTable } from "./VideosTable";
import { videoListOptions } from "./list-options";
import { ExportButton } from "../../components/ExportButton";

const query = graphql`
  query VideosPageQuery($sort: VideoSort!, $order: SortOrder!, $platform: Platform, $q: String, $tagIds: [ID!]) {
    ...VideosTable_query @arguments(sort: $sort, order: $order, platform: $platform, q: $q, tagIds: $tagIds)
    ...SavedViews_query @arguments(list: VIDEOS)
    ...TagFilter_query
  }
`;

export default function VideosPage() {
  const [options, change] = useListOptions(videoListOptions);
  const [columns, setColumns] = useColumns("videos", VIDEO_COLUMNS);
  const [, setParams] = useSearchParams();
  const pending = useNavigation().state === "loading";
  const data = useRouteQuery<VideosPageQuery>(query);

  function apply(view: SavedViewData) {
    const params = videoListOptions.write({
      sort: view.sort.toUpperCase() as VideoSort,
      order: view.order,
      platform: view.platform ?? null,
      q: view.q ?? null,
      tagIds: view.tags.length > 0 ? [...view.tags] : null,
    });
    params.set("columns", view.columns.join(","));
    rememberColumns("videos", view.columns);
    setParams(params, { replace: true });
  }

  return (
    <>
      <PageHeader title="Videos" />
      <TrackVideosForm connectionId={rootConnection("VideosTable_videos", { ...options })} />
      <section aria-labelledby="tracked-heading" className="panel">
        <h2 id="tracked-heading">Tracked videos</h2>
        <SavedViews
          query={data}
          list="VIDEOS"
          current={{
            platform: options.platform,
            q: options.q,
            sort: options.sort.toLowerCase(),
            order: options.order,
            columns: [...columns],
            tags: [...(options.tagIds ?? [])],
          }}
          onApply={apply}
        />
        <div className="row list-tools">
          <ListFilters options={options} onChange={change} placeholder="Words of the description or the username">
            <TagFilter query={data} value={options.tagIds} onChange={(tagIds) => change({ tagIds })} />
          </ListFilters>
          <ColumnChooser columns={VIDEO_COLUMNS} shown={columns} onChange={setColumns} />
          <ExportButton
            kind="VIDEOS"
            what="videos"
            filter={{ platform: options.platform, q: options.q, sort: options.sort, order: options.order, tagIds: options.tagIds }}
          />
        </div>
        <VideosTable query={data} columns={columns} options={options} onChange={change} pending={pending} />
      </section>
    </>
  );
}
