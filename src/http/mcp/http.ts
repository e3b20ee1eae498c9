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
 * refusals are REST error bodies `{code, message}`. A JSON-RPC batch with several operations counts
 * one more unit for each operation after the first, so a batch never stretches the budget.
 */
import express, { type Request, type Response } from "express";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { consumeRequest } from "../../domain/keys/access.js";
import { budgetOf } from "../../domain/people/actor.js";
import { logger } from "../../infra/logger.js";
import { admitRequest, authOf, requireJsonBody } from "../rest/middleware.js";
import { createMcpServer, type McpSession } from "./server.js";
import { BODY_LIMIT_BYTES } from "../request-context.js";


function httpSession(res: Response): McpSession {
  const auth = authOf(res);
  const requestId = res.locals.requestId as string;
  const log = logger; // the request id (and workspace) come from the log context (src/infra/logger.ts)
  let operations = 0;
  return {
    async begin() {
      if (operations++ > 0) await consumeRequest(budgetOf(auth.principal)); // the request itself paid for the first
      return { auth, requestId, log };
    },
  };
}

async function serve(req: Request, res: Response): Promise<void> {
  if (req.method !== "POST") {
    res.setHeader("Allow", "POST");
    res.status(405).json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this server is stateless; send JSON-RPC messages with POST." }, id: null });
    return;
  }
  const server = createMcpServer(httpSession(res));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: BODY_LIMIT_BYTES });
  res.on("close", () => {
    void transport.close().catch(() => undefined);
    void server.close().catch(() => undefined);
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

/** The /mcp endpoint: `app.use("/mcp", mcpRouter())`. */
export function mcpRouter(): express.Router {
  const router = express.Router();
  router.all("/", requireJsonBody, admitRequest, serve);
  return router;
}
