/**
 * Every REST route of /api/v1. The router and the OpenAPI document are both built from this list:
 * an area adds its routes here and nowhere else.
 */
import type { AnyRoute } from "../route.ts";
import { workspaceRoutes } from "./workspace.ts";
import { apiKeyRoutes } from "./api-keys.ts";
import { trackingRoutes } from "./tracking.ts";
import { analysisRoutes } from "./analysis.ts";
import { folderRoutes } from "./folders.ts";
import { tagRoutes } from "./tags.ts";
import { analyticsRoutes } from "./analytics.ts";
import { radarRoutes } from "./radar.ts";
import { webhookRoutes } from "./webhooks.ts";
import { auditLogRoutes } from "./audit-log.ts";
import { notificationRoutes } from "./notifications.ts";
import { campaignRoutes } from "./campaigns.ts";
import { reportRoutes } from "./reports.ts";
import { exportRoutes } from "./exports.ts";

export const allRoutes: AnyRoute[] = [
  ...workspaceRoutes,
  ...apiKeyRoutes,
  ...trackingRoutes,
  ...analysisRoutes,
  ...folderRoutes,
  ...tagRoutes,
  ...analyticsRoutes,
  ...radarRoutes,
  ...webhookRoutes,
  ...auditLogRoutes,
  ...notificationRoutes,
  ...exportRoutes,
  ...reportRoutes,
  ...campaignRoutes,
];
