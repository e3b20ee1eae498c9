/**
 * Every REST route of /api/v1. The router and the OpenAPI document are both built from this list:
 * an area adds its routes here and nowhere else.
 */
import type { AnyRoute } from "../route.js";
import { workspaceRoutes } from "./workspace.js";
import { apiKeyRoutes } from "./api-keys.js";
import { trackingRoutes } from "./tracking.js";
import { analysisRoutes } from "./analysis.js";
import { folderRoutes } from "./folders.js";
import { analyticsRoutes } from "./analytics.js";
import { radarRoutes } from "./radar.js";
import { webhookRoutes } from "./webhooks.js";
import { auditLogRoutes } from "./audit-log.js";

export const allRoutes: AnyRoute[] = [...workspaceRoutes, ...apiKeyRoutes, ...trackingRoutes, ...analysisRoutes, ...folderRoutes, ...analyticsRoutes, ...radarRoutes, ...webhookRoutes, ...auditLogRoutes];
