/**
 * MCP over stdio, for desktop assistants that launch the server as a child process
 * (`npm run cli -- mcp --key <key>`, src/cli/index.ts). stdout carries MCP messages only: the
 * CLI sends logs to stderr before anything else is loaded.
 *
 * The process serves the workspace of one API key, checked at start (an unusable key ends the
 * process at once, so the assistant shows the error instead of a server that refuses everything)
 * and again on every operation that reaches the workspace, so a key revoked meanwhile is refused on
 * its very next call, as on every other door. Each such operation (tool call, resource list or
 * read) counts one unit of the key's rate limit, the budget REST, GraphQL and /mcp share.
 */
import { randomUUID } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { admit, authenticate } from "../../domain/keys/access.ts";
import { keyActor } from "../../domain/actors/actor.ts";
import { unauthorized } from "../../domain/shared/errors.ts";
import { logger } from "../../infra/logger.ts";
import { createMcpServer, type McpSession } from "./server.ts";

const REFUSED = "The API key given with --key is malformed, unknown or revoked.";

export interface StdioMcp {
  /** Settles when the client goes away (stdin ends) or `close()` is called. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(secret: string, stdin: Readable = process.stdin, stdout: Writable = process.stdout): Promise<StdioMcp> {
  if (!(await authenticate(secret))) throw unauthorized(REFUSED);
  const session: McpSession = {
    async begin() {
      // Every operation is admitted like a request: the key (a revoked one is refused) and one unit of its budget.
      const admitted = await admit(secret);
      if (!admitted) throw unauthorized(REFUSED);
      const auth = keyActor(admitted.auth, null);
      const requestId = randomUUID();
      return { auth, requestId, log: logger.child({ requestId }) };
    },
  };
  const server = createMcpServer(session);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  // A line that is not a JSON-RPC message: the SDK drops it; say so on stderr.
  server.onerror = (err) => logger.warn({ err: err.message }, "MCP stdio: unreadable message");
  stdin.once("end", () => void server.close());
  await server.connect(new StdioServerTransport(stdin, stdout));
  return { closed, close: () => server.close() };
}
