/** The accounts list's options in the URL (lib/list-options.ts). */
import type { AccountSort } from "../../__generated__/AccountsPageQuery.graphql";
import { listOptionsCodec, type ListOptionsOf } from "../../lib/list-options";

export const PAGE_SIZE = 50;
export type AccountListOptions = ListOptionsOf<AccountSort>;
export const accountListOptions = listOptionsCodec<AccountSort>(["TRACKED_AT", "FOLLOWERS", "TOTAL_VIEWS", "VIDEO_COUNT", "USERNAME"]);
