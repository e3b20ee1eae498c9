/** Content radar: create a search, read one search with its results, and the search history. */
import { z } from "zod";
import { createSearch, getSearch, listHistory, RADAR_SEARCH_COST } from "../../../domain/radar/service.ts";
import { createSearchInput, radarHistoryQuery, searchResultsQuery } from "../../../domain/radar/inputs.ts";
import { defineRoute } from "../route.ts";
import { idParams, queryParams } from "../schemas.ts";
import { pagination, paginationSchema } from "../../records/common.ts";
import { historyItem, searchDetail, searchDetailItem, toHistoryItem } from "../../../domain/radar/records.ts";

export const radarRoutes = [
  defineRoute({
    method: "post",
    path: "/radar/search",
    operationId: "startRadarSearch",
    summary: "Start a radar search (costs 100 credits)",
    description:
      `Charges ${RADAR_SEARCH_COST} credits at once, atomically with the balance check (402 INSUFFICIENT_CREDITS, stating the required ` +
      "and available credits, when fewer are available; nothing is charged then), and queues the search: status 202 Accepted, because " +
      "the search runs in the background. Follow it with GET /radar/search/{searchId} (or the GraphQL subscription radarSearchUpdated). " +
      "If the search fails, the credits are refunded once.",
    tags: ["Content radar"],
    body: createSearchInput,
    errors: ["INSUFFICIENT_CREDITS"],
    responses: {
      202: {
        description: "The search is queued.",
        schema: z.object({ data: z.object({ searchId: z.string().meta({ format: "uuid" }) }) }),
      },
    },
    async handler({ auth, body }) {
      const { searchId } = await createSearch(auth.workspaceId, body);
      return { status: 202, body: { data: { searchId } } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/radar/history",
    operationId: "listRadarSearches",
    summary: "The workspace's radar searches, newest first",
    tags: ["Content radar"],
    query: queryParams(radarHistoryQuery),
    responses: {
      200: {
        description: "A page of searches (newest first) and the pagination object.",
        schema: z.object({ data: z.array(historyItem), pagination: paginationSchema }),
      },
    },
    async handler({ auth, query }) {
      const page = await listHistory(auth.workspaceId, query);
      return { body: { data: page.items.map(toHistoryItem), pagination: pagination(page.total, query.limit, query.offset) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/radar/search/{id}",
    operationId: "getRadarSearch",
    exportAs: { kind: "radar_results", params: (p) => ({ searchId: p.id }) },
    summary: "One radar search: status, generated queries and a page of its ranked results",
    description:
      "`limit` (default 20, 1 to 100) and `offset` page the search's results; the top-level `pagination` object describes that page " +
      "(`total` = resultCount). A search keeps at most its 50 best results. Statuses: pending → searching → completed, or failed " +
      "with `error` (credits refunded). A search not finished 30 minutes after creation is failed and refunded by a sweep. A completed " +
      "search carries a note in `error` when some provider failed (partial results) or when nothing matched (resultCount 0: what was " +
      "searched and what the catalog covers: only videos this service has scraped); a completed search is charged whatever it found. " +
      "As a file (format=csv or xlsx, or Accept), every result of the search, best first.",
    tags: ["Content radar"],
    params: idParams,
    query: queryParams(searchResultsQuery),
    errors: ["NOT_FOUND"],
    responses: {
      200: { description: "The search.", schema: z.object({ data: searchDetail, pagination: paginationSchema }) },
    },
    async handler({ auth, params, query }) {
      const s = await getSearch(auth.workspaceId, params.id, query);
      return { body: { data: searchDetailItem(s), pagination: pagination(s.resultCount, query.limit, query.offset) } };
    },
  }),
];
