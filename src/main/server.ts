/** Starts the API: Express (REST + GraphQL over HTTP/SSE) and graphql-ws on one HTTP server. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { config } from "../config.js";
import { logger } from "../infra/logger.js";
import { createApp } from "../http/app.js";
import { QUEUE_NAMES, queue } from "../infra/queues.js";
import { attachWebSocket, createGraphQL } from "../http/graphql/yoga.js";
import { handleRequest } from "../http/request-context.js";

/** `/graphql`, with or without a query string (GET, SSE). */
const isGraphQLPath = (url: string | undefined) => url === "/graphql" || (url?.startsWith("/graphql?") ?? false);

export interface RunningApi {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

export async function startApi(port = config.port, host = config.host): Promise<RunningApi> {
  const graphql = createGraphQL();
  const app = createApp({ queues: () => QUEUE_NAMES.map(queue) });
  // GraphQL goes straight to Yoga (it reads its own body); everything else to Express.
  const server = createServer((req, res) =>
    handleRequest(req, res, () => {
      if (isGraphQLPath(req.url)) void graphql(req, res);
      else app(req, res);
    }),
  );
  const ws = attachWebSocket(server, graphql);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  logger.info({ port: actual, providers: config.providers }, `API listening on port ${actual}; scrape provider: ${config.providers.scrape}`);
  return {
    server,
    port: actual,
    url: `http://127.0.0.1:${actual}`,
    close: async () => {
      await ws.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
