/** The GraphQL schema: every area's types are registered by importing its file here. */
import { lexicographicSortSchema, printSchema } from "graphql";
import { builder } from "./builder.js";
import "./types/workspace.js";
import "./types/analysis.js";
import "./types/radar.js";
import "./types/tracking.js";
import "./types/folders.js";
import "./types/analytics.js";
import "./types/events.js";
import "./types/webhooks.js";
import "./types/people.js";

export const schema = builder.toSchema();

/** The SDL committed as schema.graphql (sorted, so the file is stable). */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
