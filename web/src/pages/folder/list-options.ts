/**
 * The folder's videos' sort in the URL (?sort=views&order=asc), as on the Videos and Accounts lists:
 * a sorted folder can be bookmarked, and the back button works. The route's loader reads the same.
 */
import type { FolderVideoSort } from "../../__generated__/FolderPageQuery.graphql";
import { listOptionsCodec, type ListOptionsOf } from "../../lib/list-options";

export const folderVideoOptions = listOptionsCodec<FolderVideoSort>([
  "UPLOADED",
  "VIEWS",
  "LIKES",
  "COMMENTS",
  "SHARES",
  "ENGAGEMENT_RATE",
]);
export type FolderVideoOptions = ListOptionsOf<FolderVideoSort>;
