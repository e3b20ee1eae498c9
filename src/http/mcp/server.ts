/**
 * The MCP server (Model Context Protocol, official TypeScript SDK): the tools of ./tools/ and the
 * resources of ./resources.ts over one workspace, for either transport (./http.ts, ./stdio.ts).
 *
 * It uses the SDK's low-level `Server` rather than `McpServer` so that this door, like REST and
 * GraphQL, validates with the domain's zod inputs through `parseInput` (McpServer would validate
 * first and answer in its own words) and so that no error text but the contract's reaches a
 * client: a tool that fails answers `isError: true` with the REST error body `{code, message}`
 * (plus `details` or `requestId`, as REST), unexpected errors are logged and answered
 * INTERNAL_ERROR with the request id, and protocol-level refusals (unknown tool, unreadable
 * resource) are JSON-RPC errors whose `data` is that same body.
 */
import { principalId } from "../../domain/actors/actor.ts";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { parseInput } from "../../domain/shared/inputs.ts";
import { IDEMPOTENCY_TTL_HOURS, idempotencyKeyOf, runIdempotently, type IdempotentAnswer } from "../../domain/shared/idempotency.ts";
import { logger } from "../../infra/logger.ts";
import { toErrorResponse, type ErrorBody } from "../errors.ts";
import { listResources, readResource, resourceTemplates } from "./resources.ts";
import type { AnyTool, ToolContext } from "./tool.ts";
import { tools } from "./tools/index.ts";

const SERVER_NAME = "video-tracking-service";
const SERVER_VERSION = "1.0.0";

/**
 * Who is calling. `begin()` runs once per operation that reaches the workspace (a tool call, a
 * resource list or read) and may refuse it (UNAUTHORIZED, RATE_LIMITED): over HTTP the request
 * was authenticated and counted already; over stdio each operation authenticates and counts.
 */
export interface McpSession {
  begin(): Promise<ToolContext>;
}

const INSTRUCTIONS =
  "Tools of a video tracking, discovery and analysis service, acting on the workspace of the API key in use. " +
  "Track videos and creator accounts (free, within the plan's tracking limit), list and read them with their metrics, " +
  "read folder analytics, top videos and account growth. Two tools spend credits: analyze_video (5) and " +
  "start_radar_search (100); check get_credits first. Both run in the background: poll get_video_analysis or " +
  "get_radar_search. A failed call answers isError with a JSON body {code, message} (e.g. NOT_FOUND, " +
  "VALIDATION_ERROR, INSUFFICIENT_CREDITS, RATE_LIMITED).";

/** The tool's input as JSON Schema (draft 2020-12, MCP's default dialect), generated from its zod input. */
function inputJsonSchema(schema: z.ZodType, idempotent?: true): Tool["inputSchema"] {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  if (idempotent) json.properties = { ...(json.properties as object), idempotencyKey: IDEMPOTENCY_KEY_ARGUMENT };
  return json as Tool["inputSchema"];
}

/** The `idempotencyKey` argument of the tools that spend credits or create (the rule: src/domain/shared/idempotency.ts). */
const IDEMPOTENCY_KEY_ARGUMENT = {
  type: "string",
  minLength: 1,
  maxLength: 255,
  pattern: "^[\\x20-\\x7E]+$",
  description:
    "Optional: 1 to 255 printable ASCII characters naming this call. Repeating the call with the same key and the same arguments " +
    `(within ${IDEMPOTENCY_TTL_HOURS} hours) does nothing again and answers the first answer, with \`_meta.idempotentReplayed: true\`; ` +
    "the same key with other arguments is refused (IDEMPOTENCY_KEY_REUSED), and while the first call runs, IDEMPOTENCY_KEY_IN_USE. " +
    "A call refused as invalid (VALIDATION_ERROR, INVALID_URL) keeps nothing: fix the arguments and call again with the same key.",
};

const toolsByName = new Map(tools.map((t) => [t.name, t]));
const toolList: Tool[] = tools.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: inputJsonSchema(t.input, t.idempotent),
  annotations: { title: t.title, ...t.annotations },
}));

/** A JSON-RPC error as the SDK sends it: `code`, a clean `message` and `data` (the REST error body). */
class RpcError extends Error {
  readonly code: number;
  readonly data?: ErrorBody;
  constructor(code: number, message: string, data?: ErrorBody) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** MCP "resource not found" (the specification's code for resources/read). */
const RESOURCE_NOT_FOUND = -32002;

function errorAnswer(err: unknown, requestId: string, what: string): { status: number; body: ErrorBody } {
  const { status, body, unexpected } = toErrorResponse(err, requestId);
  if (unexpected) logger.error({ err, requestId, operation: what }, "MCP operation failed");
  return { status, body };
}

const errorBody = (err: unknown, requestId: string, what: string): ErrorBody => errorAnswer(err, requestId, what).body;

function rpcError(body: ErrorBody): RpcError {
  const code =
    body.code === "VALIDATION_ERROR"
      ? ErrorCode.InvalidParams
      : body.code === "NOT_FOUND"
        ? RESOURCE_NOT_FOUND
        : body.code === "INTERNAL_ERROR" || body.code === "SERVICE_UNAVAILABLE"
          ? ErrorCode.InternalError
          : -32000;
  return new RpcError(code, body.message, body);
}

const textResult = (value: Record<string, unknown>, isError?: boolean, replayed?: boolean): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value,
  ...(isError ? { isError: true } : {}),
  ...(replayed ? { _meta: { idempotentReplayed: true } } : {}),
});

/** One run of the tool, as the answer an idempotency key stores: status (REST's) and the JSON text of the result or error body. */
async function runTool(ctx: ToolContext, tool: AnyTool, raw: Record<string, unknown>): Promise<IdempotentAnswer> {
  try {
    // parseInput refuses NUL and lone surrogates first (VALIDATION_ERROR, INVALID_URL in `url`).
    const input = parseInput(tool.input, raw);
    // JSON.stringify: structured content is plain JSON (dates as ISO strings, no undefined).
    return { status: 200, body: JSON.stringify(await tool.run(ctx, input)) };
  } catch (e) {
    const { status, body } = errorAnswer(e, ctx.requestId, tool.name);
    return { status, body: JSON.stringify(body) };
  }
}

async function callTool(session: McpSession, tool: AnyTool, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  let requestId: string = randomUUID();
  try {
    const ctx = await session.begin();
    requestId = ctx.requestId;
    // A tool that spends credits or creates takes `idempotencyKey` beside its input (REST's Idempotency-Key).
    const { idempotencyKey, ...rest } = args ?? {};
    const key = tool.idempotent ? idempotencyKeyOf(idempotencyKey, "idempotencyKey") : null;
    const raw = tool.idempotent ? rest : (args ?? {});
    const answer =
      key === null
        ? { ...(await runTool(ctx, tool, raw)), replayed: false }
        : await runIdempotently(
            {
              workspaceId: ctx.auth.workspaceId,
              key,
              method: "TOOL",
              path: tool.name,
              payload: raw,
              asker: principalId(ctx.auth.principal),
            },
            () => runTool(ctx, tool, raw),
          );
    return textResult(JSON.parse(answer.body) as Record<string, unknown>, answer.status >= 400, answer.replayed);
  } catch (e) {
    return textResult({ ...errorBody(e, requestId, tool.name) }, true);
  }
}

/** Runs a resource operation; a failure becomes a JSON-RPC error carrying the REST error body. */
async function resourceOperation<T>(session: McpSession, what: string, op: (ctx: ToolContext) => Promise<T>): Promise<T> {
  let requestId: string = randomUUID();
  try {
    const ctx = await session.begin();
    requestId = ctx.requestId;
    return await op(ctx);
  } catch (e) {
    throw rpcError(errorBody(e, requestId, what));
  }
}

/** A new MCP server over the session's workspace (one per HTTP request, or one per stdio process). */
export function createMcpServer(session: McpSession): Server {
  const server = new Server(
    { name: SERVER_NAME, title: "Video tracking service", version: SERVER_VERSION },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = toolsByName.get(request.params.name);
    if (!tool) {
      const message = `Unknown tool: ${request.params.name.slice(0, 100)}.`;
      throw new RpcError(ErrorCode.InvalidParams, message, { code: "VALIDATION_ERROR", message });
    }
    return callTool(session, tool, request.params.arguments);
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates }));
  server.setRequestHandler(ListResourcesRequestSchema, (request) =>
    resourceOperation(session, "resources/list", (ctx) => listResources(ctx, request.params?.cursor)),
  );
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    resourceOperation(session, "resources/read", async (ctx) => ({ contents: [await readResource(ctx, request.params.uri)] })),
  );
  return server;
}
