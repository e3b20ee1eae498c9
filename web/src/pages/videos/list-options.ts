/** The videos list's options in the URL (lib/list-options.ts). */
import type { VideoSort } from "../../__generated__/VideosPageQuery.graphql";
import { listOptionsCodec, type ListOptionsOf } from "../../lib/list-options";

export const PAGE_SIZE = 50;
const codec = listOptionsCodec<VideoSort>(["TRACKED_AT", "POSTED_AT", "VIEWS", "ENGAGEMENT", "VIEWS_24H", "OUTLIER"]);

export type ListOptions = ListOptionsOf<VideoSort>;
export const readOptions = codec.read;
export const writeOptions = codec.write;
