/** The videos list's options in the URL (lib/list-options.ts); the route's loader reads the same. */
import type { VideoSort } from "../../__generated__/VideosPageQuery.graphql";
import { listOptionsCodec, type ListOptionsOf } from "../../lib/list-options";

export const videoListOptions = listOptionsCodec<VideoSort>(["TRACKED_AT", "POSTED_AT", "VIEWS", "ENGAGEMENT", "VIEWS_24H", "OUTLIER"]);
export type VideoListOptions = ListOptionsOf<VideoSort>;
