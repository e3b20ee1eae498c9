/** The accounts list's options in the URL (lib/list-options.ts); the route's loader reads the same. */
import type { AccountSort } from "../../__generated__/AccountsPageQuery.graphql";
import { listOptionsCodec, type ListOptionsOf } from "../../lib/list-options";

export type AccountListOptions = ListOptionsOf<AccountSort>;
export const accountListOptions = listOptionsCodec<AccountSort>(["TRACKED_AT", "FOLLOWERS", "TOTAL_VIEWS", "VIDEO_COUNT", "USERNAME"]);
