/**
 * Starts the API: Express (REST + GraphQL over HTTP/SSE) and graphql-ws on one HTTP server.
 *
 * Draining (a shutdown, docs/operations.md): the listener closes at once (new connections are
 * refused) and idle keep-alive connections with it; a request that still arrives on an open
 * connection, `/readyz` included, answers 503 SERVICE_UNAVAILABLE with `Connection: close`;
 * WebSocket clients get close code 1001 and SSE streams end (long-lived, they would never finish);
 * requests in flight run to their end, for at most the drain's timeout, after which every
 * connection still open is cut.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { config } from "../config.ts";
import { isDraining, startDraining } from "../infra/health.ts";
import { logger } from "../infra/logger.ts";
import { createApp } from "../http/app.ts";
import { QUEUE_NAMES, queue } from "../infra/queues.ts";
import { createGraphQL } from "../http/graphql/yoga.ts";
import { directJsonPost } from "../http/graphql/json-post.ts";
import { streamEndsInTurn } from "../http/graphql/fan-out.ts";
import { attachWebSocket } from "../http/graphql/websocket.ts";
import { handleRequest, traceRoute } from "../http/request-context.ts";

/** `/graphql`, with or without a query string (GET, SSE). */
const isGraphQLPath = (url: string | undefined) => url === "/graphql" || (url?.startsWith("/graphql?") ?? false);
/** A request that may become a live SSE stream (Yoga answers one when the Accept names it). */
const mayStream = (req: IncomingMessage) => req.headers.accept?.includes("text/event-stream") ?? false;

export interface RunningApi {
  server: Server;
  port: number;
  url: string;
  /** Stops accepting, lets requests in flight finish for up to `timeoutMs`, then cuts what is left. */
  drain(timeoutMs: number): Promise<void>;
  /** Closes at once (drain with no grace): tests. */
  close(): Promise<void>;
}

/** While draining: every request that arrives is refused, and its connection closed after it. */
function refuse(req: IncomingMessage, res: ServerResponse): void {
  const probe = req.url === "/readyz" || req.url?.startsWith("/readyz?");
  res.writeHead(503, { "content-type": "application/json; charset=utf-8", connection: "close", "retry-after": "1" });
  res.end(
    JSON.stringify(
      probe
        ? { code: "SERVICE_UNAVAILABLE", message: "Shutting down: draining the requests in flight.", status: "draining" }
        : { code: "SERVICE_UNAVAILABLE", message: "The server is shutting down; retry on another instance." },
    ),
  );
}

const isEventStream = (res: ServerResponse) => String(res.getHeader("content-type") ?? "").startsWith("text/event-stream");

export async function startApi(port = config.port, host = config.host): Promise<RunningApi> {
  const graphql = createGraphQL();
  // JSON POSTs answered on node:http through Yoga's hooks (../http/graphql/json-post.ts); the rest by Yoga.
  const graphqlHandler = config.graphql.directPost ? directJsonPost(graphql) : graphql;
  const app = createApp({ queues: () => QUEUE_NAMES.map(queue) });
  // GraphQL goes straight to Yoga (it reads its own body); everything else to Express.
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  // Node checks the timeouts below every connectionsCheckingInterval (30 s by default): often enough here that a slow client is cut on time.
  const server = createServer({ connectionsCheckingInterval: Math.min(1000, config.http.headersTimeoutMs) }, (req, res) =>
    handleRequest(req, res, () => {
      if (draining || isDraining()) return refuse(req, res);
      inFlight.add(res);
      res.once("close", () => inFlight.delete(res));
      if (isGraphQLPath(req.url)) {
        traceRoute(req.method, "/graphql");
        // Live like a WebSocket: when thousands end at once, their ends are handled a chunk per turn (fan-out.ts).
        if (mayStream(req)) streamEndsInTurn(req, res);
        void graphqlHandler(req, res);
      } else app(req, res);
    }),
  );
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  const ws = attachWebSocket(server, graphql);
  server.keepAliveTimeout = 65_000;
  // Slow clients: a request's headers must arrive within HTTP_HEADERS_TIMEOUT_MS and the whole request
  // (its body too) within HTTP_REQUEST_TIMEOUT_MS, or Node answers 408 and closes the connection
  // (Node's defaults, 60 s and 300 s, let an anonymous client hold a connection for 5 minutes). A
  // response that takes long (an SSE stream) is not bounded by them: they end when the request is read.
  server.headersTimeout = config.http.headersTimeoutMs;
  server.requestTimeout = config.http.requestTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  logger.info(
    { port: actual, providers: config.providers },
    `API listening on port ${actual}; scrape provider: ${config.providers.scrape}`,
  );
  return {
    server,
    port: actual,
    url: `http://127.0.0.1:${actual}`,
    drain: async (timeoutMs: number) => {
      draining = true;
      startDraining();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Long-lived streams end now: WebSocket clients (1001 "going away") and SSE responses.
      const wsClosed = ws.close().catch((e: unknown) => logger.warn({ err: (e as Error).message }, "closing WebSockets"));
      for (const res of inFlight) if (isEventStream(res)) res.socket?.destroy();
      const deadline = Date.now() + timeoutMs;
      if (inFlight.size) logger.info({ requests: inFlight.size, timeoutMs }, "draining requests in flight");
      while (inFlight.size > 0 && Date.now() < deadline) await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
      if (inFlight.size) logger.warn({ requests: inFlight.size }, "requests still in flight at the shutdown timeout: cut");
      await Promise.race([wsClosed, sleep(Math.max(0, deadline - Date.now()))]);
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy(); // upgraded (WebSocket) sockets included
      await closed;
    },
    close: async () => {
      draining = true;
      await ws.close().catch(() => undefined);
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
