/**
 * Choose one of the workspace's tracked videos, any of them, found by words of its description or its author's
 * username. A route spreads `VideoChoice_query`.
 */
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { VideoChoice_query$data, VideoChoice_query$key } from "../__generated__/VideoChoice_query.graphql";
import { paths } from "../lib/paths";
import { SearchedPicker, type PickerProps } from "../components/Picker";
import { shortTitle } from "../lib/format";

const fragment = graphql`
  fragment VideoChoice_query on Query
  @refetchable(queryName: "VideoChoicePaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 50 }, after: { type: "String" }, q: { type: "String" }) {
    videos(first: $first, after: $after, q: $q) @connection(key: "VideoChoice_videos") {
      totalCount
      edges {
        node {
          id
          description
          username
        }
      }
    }
  }
`;

type Video = VideoChoice_query$data["videos"]["edges"][number]["node"];

/** What the picker says when the workspace has none: where to make one. */
const NONE_YET = (
  <p className="muted">
    No video is tracked yet: track one on the <Link to={paths.videos()}>Videos</Link> page, then come back.
  </p>
);

export function VideoChoice({ query, empty = NONE_YET, ...props }: PickerProps & { query: VideoChoice_query$key }) {
  const optionOf = (v: Video) => ({ id: v.id, label: `${shortTitle(v)} (@${v.username})` });
  return (
    <SearchedPicker
      fragment={fragment}
      list={query}
      connection={(d) => d.videos}
      what="videos"
      optionOf={optionOf}
      empty={empty}
      {...props}
    />
  );
}
