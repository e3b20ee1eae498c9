/**
 * Prices shown before spending (docs/contract/decisions.md and the GraphQL descriptions of
 * analyzeVideo and createRadarSearch). The server charges them; the dashboard only announces them.
 */
export const ANALYSIS_CREDITS = 5;
export const RADAR_SEARCH_CREDITS = 100;
