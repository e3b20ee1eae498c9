/**
 * Videos: track one or many URLs, and the table of tracked videos (sort, platform and tag filters,
 * search, cursor pages), updating live as scrapes land. The list's options live in the URL (?sort=views&
 * order=asc&platform=PLATFORM_A&q=cats&tag=…), so a view can be bookmarked and the back button works.
 */
import { graphql } from "react-relay";
import { useNavigation } from "react-router";
import type { VideosPageQuery } from "../../__generated__/VideosPageQuery.graphql";
import { ListFilters } from "../../components/ListFilters";
import { PageHeader } from "../../components/PageHeader";
import { useListOptions } from "../../lib/list-options";
import { rootConnection } from "../../relay/connections";
import { useRouteQuery } from "../../relay/route-query";
import { TagFilter } from "../tags/TagFilter";
import { TrackVideosForm } from "./TrackVideosForm";
import { VideosTable } from "./VideosTable";
import { videoListOptions } from "./list-options";

const query = graphql`
  query VideosPageQuery($sort: VideoSort!, $order: SortOrder!, $platform: Platform, $q: String, $tagIds: [ID!]) {
    ...VideosTable_query @arguments(sort: $sort, order: $order, platform: $platform, q: $q, tagIds: $tagIds)
    ...TagFilter_query
  }
`;

export default function VideosPage() {
  const [options, change] = useListOptions(videoListOptions);
  const pending = useNavigation().state === "loading";
  const data = useRouteQuery<VideosPageQuery>(query);
  return (
    <>
      <PageHeader title="Videos" />
      <TrackVideosForm connectionId={rootConnection("VideosTable_videos", { ...options })} />
      <section aria-labelledby="tracked-heading" className="panel">
        <h2 id="tracked-heading">Tracked videos</h2>
        <ListFilters options={options} onChange={change} placeholder="Words of the description or the username">
          <TagFilter query={data} value={options.tagIds} onChange={(tagIds) => change({ tagIds })} />
        </ListFilters>
        <VideosTable query={data} options={options} onChange={change} pending={pending} />
      </section>
    </>
  );
}
