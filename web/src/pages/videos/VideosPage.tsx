/**
 * Videos: track one or many URLs, and the table of tracked videos (sort, platform and tag filters,
 * search, columns, cursor pages), updating live as scrapes land. The list's options live in the URL
 * (?sort=views&order=asc&platform=PLATFORM_A&q=cats&tag=…&columns=video,creator,views), so a view can be
 * bookmarked and the back button works; a saved view (components/SavedViews.tsx) writes the same URL.
 */
import { graphql } from "react-relay";
import { useNavigation } from "react-router";
import type { VideosPageQuery } from "../../__generated__/VideosPageQuery.graphql";
import { PageHeader } from "../../components/PageHeader";
import { TrackedListPanel } from "../../components/SavedViews";
import { useListOptions } from "../../lib/list-options";
import { rootConnection } from "../../relay/connections";
import { useRouteQuery } from "../../relay/route-query";
import { TagFilter } from "../tags/TagFilter";
import { TrackVideosForm } from "./TrackVideosForm";
import { VIDEO_COLUMNS, VideosTable } from "./VideosTable";
import { videoListOptions } from "./list-options";

const query = graphql`
  query VideosPageQuery($sort: VideoSort!, $order: SortOrder!, $platform: Platform, $q: String, $tagIds: [ID!]) {
    ...VideosTable_query @arguments(sort: $sort, order: $order, platform: $platform, q: $q, tagIds: $tagIds)
    ...SavedViews_query @arguments(list: VIDEOS)
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
      <TrackedListPanel
        title="Tracked videos"
        query={data}
        list="VIDEOS"
        codec={videoListOptions}
        options={options}
        onChange={change}
        columns={VIDEO_COLUMNS}
        placeholder="Words of the description or the username"
        filter={<TagFilter value={options.tagIds} onChange={(tagIds) => change({ tagIds })} />}
      >
        {(shown) => <VideosTable query={data} columns={shown} options={options} onChange={change} pending={pending} />}
      </TrackedListPanel>
    </>
  );
}
