/** The GraphQL schema: every area's types are registered by importing its file here. */
import { lexicographicSortSchema, printSchema } from "graphql";
import { builder } from "./builder.ts";
import "./types/workspace.ts";
import "./types/analysis.ts";
import "./types/radar.ts";
import "./types/tracking.ts";
import "./types/account-controls.ts";
import "./types/folders.ts";
import "./types/tags.ts";
import "./types/analytics.ts";
import "./types/events.ts";
import "./types/webhooks.ts";
import "./types/people.ts";
import "./types/notifications.ts";
import "./types/views.ts";
import "./types/campaigns.ts";
import "./types/exports.ts";
import "./types/reports.ts";

export const schema = builder.toSchema();

/** The SDL committed as schema.graphql (sorted, so the file is stable). */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
