/**
 * Every MCP tool: one per operation an agent may perform, each over the same domain function as the
 * REST route that does the same thing, one file per area as REST's routes and GraphQL's types are
 * (the definition of a tool: ../tool.ts). An area adds its tools here and nowhere else.
 */
import type { AnyTool } from "../tool.ts";
import { workspaceTools } from "./workspace.ts";
import { trackingTools } from "./tracking.ts";
import { folderTools } from "./folders.ts";
import { tagTools } from "./tags.ts";
import { analyticsTools } from "./analytics.ts";
import { analysisTools } from "./analysis.ts";
import { radarTools } from "./radar.ts";
import { notificationTools } from "./notifications.ts";
import { campaignTools } from "./campaigns.ts";
import { exportTools } from "./exports.ts";

export const tools: AnyTool[] = [
  ...workspaceTools,
  ...trackingTools,
  ...folderTools,
  ...tagTools,
  ...analyticsTools,
  ...analysisTools,
  ...radarTools,
  ...notificationTools,
  ...campaignTools,
  ...exportTools,
];
