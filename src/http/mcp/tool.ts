/**
 * What an MCP tool is: one operation an agent may perform, over the same domain function as the REST
 * route that does the same thing (the tools, one file per area: ./tools/).
 *
 * - `input` is the domain's zod input (src/domain/<area>/inputs.ts), or domain pieces composed with
 *   an id (`uuid` from src/domain/shared/inputs.ts): the JSON Schema an agent sees is generated from
 *   it (./server.ts) and arguments are parsed with it (`parseInput`), so the tool refuses exactly what
 *   REST refuses, with the same VALIDATION_ERROR. No rule is restated in a tool.
 * - A result is the REST answer's `data` (and `pagination`), built by the REST mappers, so agents and
 *   integrations read the same records, documented once in the OpenAPI document; tools add a
 *   `message` where the agent needs to know what happens next, and `credits` where the call spends them.
 * - Every tool runs for one workspace: the caller's (`ctx.auth.workspaceId`).
 */
import type { z } from "zod";
import type { Actor } from "../../domain/actors/actor.ts";
import { uuid } from "../../domain/shared/inputs.ts";
import type { Logger } from "../../infra/logger.ts";

/** Who calls, for one tool call or resource read. */
export interface ToolContext {
  auth: Actor;
  requestId: string;
  log: Logger;
}

/** The MCP tool annotations this server uses (hints for the client, never trusted by it). */
interface Hints {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition<S extends z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: S;
  annotations: Hints;
  /**
   * A tool that spends credits or creates takes an optional `idempotencyKey` argument: a call
   * repeated with the same key and arguments does its work once and answers the first answer again
   * (src/domain/shared/idempotency.ts, applied by ./server.ts).
   */
  idempotent?: true;
  run(ctx: ToolContext, input: z.output<S>): Promise<Record<string, unknown>>;
}

export type AnyTool = ToolDefinition<z.ZodType>;

export const defineTool = <S extends z.ZodType>(tool: ToolDefinition<S>): AnyTool => tool as unknown as AnyTool;

export const READ: Hints = { readOnlyHint: true, openWorldHint: false };
/** Writes that add work (tracking, analyses, searches) and never remove anything. */
export const WRITE: Hints = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
/** Changes to a tracked item's own settings: repeating one changes nothing more. */
export const SETTING: Hints = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Writes that change how items are organised (folders, tags) and remove nothing tracked. */
export const ORGANISE: Hints = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A video's id, as the tools of several areas take it. */
export const videoId = uuid.meta({ description: "The video's id (`id` in list_videos, `videoId` in track_video)." });
