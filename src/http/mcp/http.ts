/**
 * MCP over Streamable HTTP at /mcp, on the API's own port: the remote agents' door.
 *
 * Stateless mode (no MCP session id): every POST is served by a fresh server and transport, so any
 * API process can answer any request, as with REST; nothing is kept in memory between requests.
 * Answers are plain JSON (no SSE stream): every tool answers once, and this server sends no
 * notifications. GET (a server-to-client stream) and DELETE (ending a session) have nothing to serve
 * and answer 405, which the MCP specification allows and clients expect.
 *
 * Before MCP sees a request, REST's own middleware authenticates it (`Authorization: Bearer <key>`,
 * the same rule and 401 UNAUTHORIZED) and counts it against the key's rate limit (one unit per HTTP
 * request, the same budget and RateLimit-* headers as REST and GraphQL; 429 RATE_LIMITED): those
 * refusals are REST error bodies `{code, message}`. A JSON-RPC batch counts one unit per message
 * (the request paid for the first; `countBatch` takes the rest before MCP sees any of it, so a batch
 * of 100 `tools/list` costs 100 units, not one), and a batch over the budget is refused whole.
 */
import express, { type NextFunction, type Request, type Response } from "express";
import { consumeRequest, RateLimitedError } from "../../domain/keys/access.ts";
import { budgetOf } from "../../domain/actors/actor.ts";
import { logger } from "../../infra/logger.ts";
import { admitRequest, authOf, requireJsonBody } from "../middleware.ts";
import type { McpSession } from "./server.ts";
import { BODY_LIMIT_BYTES, rateLimitHeaders } from "../request-context.ts";

function httpSession(res: Response): McpSession {
  const auth = authOf(res);
  const requestId = res.locals.requestId as string;
  const log = logger; // the request id (and workspace) come from the log context (src/infra/logger.ts)
  return { begin: async () => ({ auth, requestId, log }) }; // counted by admitRequest and countBatch
}

/** The body as JSON (within the 1 MiB limit); JSON-RPC's own parse error (-32700) when it is not JSON. */
const readJson = express.json({ limit: BODY_LIMIT_BYTES, type: () => true });
function readBody(req: Request, res: Response, next: NextFunction): void {
  readJson(req, res, (err?: unknown) => {
    if ((err as { type?: string } | undefined)?.type === "entity.parse.failed") {
      res.status(400).json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the body is not JSON." }, id: null });
      return;
    }
    next(err);
  });
}

/** One unit of the credential's budget per message of a batch, past the first (the request's own unit). */
async function countBatch(req: Request, res: Response, next: NextFunction): Promise<void> {
  const messages = Array.isArray(req.body) ? req.body.length : 1;
  if (messages > 1) {
    try {
      const state = await consumeRequest(budgetOf(authOf(res).principal), messages - 1);
      for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
    } catch (e) {
      if (e instanceof RateLimitedError) {
        for (const [name, value] of Object.entries(rateLimitHeaders(e.state))) res.setHeader(name, value);
        res.setHeader("Retry-After", String(e.state.resetSeconds));
      }
      throw e;
    }
  }
  next();
}

/** The MCP SDK (with its JSON Schema validator) and the tools load on the first MCP request: a tenth of what the
 *  API loads at start, for a door many deployments never open. */
let mcpModules: ReturnType<typeof loadMcp> | undefined;
async function loadMcp() {
  const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await Promise.all([
    import("./server.ts"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
  ]);
  return { createMcpServer, StreamableHTTPServerTransport };
}

async function serve(req: Request, res: Response): Promise<void> {
  if (req.method !== "POST") {
    res.setHeader("Allow", "POST");
    res.status(405).json({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Method not allowed: this server is stateless; send JSON-RPC messages with POST." },
      id: null,
    });
    return;
  }
  const { createMcpServer, StreamableHTTPServerTransport } = await (mcpModules ??= loadMcp());
  const server = createMcpServer(httpSession(res));
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: BODY_LIMIT_BYTES,
  });
  res.on("close", () => {
    void transport.close().catch(() => undefined);
    void server.close().catch(() => undefined);
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

/** The /mcp endpoint: `app.use("/mcp", mcpRouter())`. */
export function mcpRouter(): express.Router {
  const router = express.Router();
  // The key and its budget before the body is read; then the body, and the rest of a batch's units.
  router.all("/", requireJsonBody, admitRequest, readBody, countBatch, serve);
  return router;
}
