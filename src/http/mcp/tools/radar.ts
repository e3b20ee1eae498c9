/**
 * The radar's MCP tools: content discovery searches (as REST /radar).
 */
import { z } from "zod";
import { uuid } from "../../../domain/shared/inputs.ts";
import { createSearchInput, searchResultsQuery } from "../../../domain/radar/inputs.ts";
import { createSearch, getSearch, RADAR_SEARCH_COST } from "../../../domain/radar/service.ts";
import { pagination } from "../../records/common.ts";
import { searchDetailItem } from "../../../domain/radar/records.ts";
import { READ, WRITE, defineTool, type AnyTool } from "../tool.ts";

const searchId = uuid.meta({ description: "The search's id (`searchId` from start_radar_search)." });

export const radarTools: AnyTool[] = [
  defineTool({
    name: "start_radar_search",
    title: "Start a content radar search (100 credits)",
    description:
      `Costs ${RADAR_SEARCH_COST} credits, charged at once (refunded once if the search fails): an AI content-discovery search ` +
      "that generates search queries from `query` and ranks the videos found. It runs in the background; poll get_radar_search " +
      "with the returned `searchId` until its status is completed or failed. Error: INSUFFICIENT_CREDITS.",
    input: createSearchInput,
    annotations: WRITE,
    idempotent: true,
    run: async ({ auth }, input) => ({
      data: await createSearch(auth.workspaceId, input),
      message: "Search queued; poll get_radar_search until its status is completed or failed.",
      credits: { cost: RADAR_SEARCH_COST, note: `${RADAR_SEARCH_COST} credits charged now; refunded once if the search fails.` },
    }),
  }),
  defineTool({
    name: "get_radar_search",
    title: "Read a radar search",
    description:
      "A radar search: status (pending, searching, completed, failed), the generated queries and a page of its ranked results " +
      "(best first; each says whether the workspace tracks it already). Free.",
    input: z.object({ search_id: searchId, ...searchResultsQuery.shape }),
    annotations: READ,
    run: async ({ auth }, input) => {
      const s = await getSearch(auth.workspaceId, input.search_id, { limit: input.limit, offset: input.offset });
      return { data: searchDetailItem(s), pagination: pagination(s.resultCount, input.limit, input.offset) };
    },
  }),
];
