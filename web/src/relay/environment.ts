/**
 * The Relay environment: queries and mutations over HTTP POST /graphql, subscriptions over
 * graphql-ws on the same path, both same-origin with the session cookie (never an API key).
 *
 * Every request says which workspace it acts on (`x-workspace-id`, docs/contract/decisions.md,
 * "People, sign-in and the dashboard") and carries `x-requested-with: dashboard`, the non-simple
 * header the server's CSRF rule asks of cookie-authenticated writes. A WebSocket cannot carry
 * headers, so the workspace travels in `connectionParams`. One environment per workspace: switching
 * workspace builds a new one, so no record of the previous workspace stays in the store.
 */
import { Environment, Network, Observable, RecordSource, Store, type FetchFunction, type SubscribeFunction } from "relay-runtime";
import { createClient, type Client } from "graphql-ws";
import { ApiError, fromGraphQLErrors, fromHttpResponse } from "../lib/errors";
import { countingHandlers } from "./connections";

const GRAPHQL_PATH = "/graphql";

export function requestHeaders(workspaceId: string | null): Record<string, string> {
  const headers: Record<string, string> = { "x-requested-with": "dashboard" };
  if (workspaceId) headers["x-workspace-id"] = workspaceId;
  return headers;
}

function fetchFunction(workspaceId: string | null): FetchFunction {
  return async (operation, variables, cacheConfig) => {
    // A query may add headers of its own (`networkCacheConfig: { metadata: { headers } }`): the accept
    // page sends `x-invitation-token`, the one credential a signed-out person has there.
    const extra = (cacheConfig.metadata?.headers ?? {}) as Record<string, string>;
    const res = await fetch(GRAPHQL_PATH, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "content-type": "application/json",
        accept: "application/graphql-response+json, application/json",
        ...requestHeaders(workspaceId),
        ...extra,
      },
      body: JSON.stringify({ query: operation.text, variables }),
    });
    const type = res.headers.get("content-type") ?? "";
    if (!type.includes("json")) throw await fromHttpResponse(res);
    const body = (await res.json()) as {
      data?: unknown;
      errors?: { message?: string; extensions?: Record<string, unknown> }[];
      code?: string;
      message?: string;
    };
    // A plain `{code, message}` (e.g. 413 from the body limit) is not a GraphQL result.
    if (body.code && !("data" in body) && !body.errors) throw new ApiError(body.code, body.message ?? res.statusText);
    // The dashboard's documents ask only for what they show: any error means the answer is not usable.
    if (body.errors?.length) throw fromGraphQLErrors(body.errors, res.status);
    return body as { data: Record<string, unknown> };
  };
}

function webSocketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss:" : "ws:"}//${host}${GRAPHQL_PATH}`;
}

function subscribeFunction(client: Client): SubscribeFunction {
  return (operation, variables) =>
    Observable.create((sink) =>
      client.subscribe(
        { query: operation.text ?? "", variables },
        {
          next: (value) => {
            if (value.errors?.length) sink.error(fromGraphQLErrors(value.errors as never, 200));
            else sink.next(value as never);
          },
          error: (err) => sink.error(err instanceof Error ? err : new ApiError("NETWORK", "The live connection to the service closed.")),
          complete: () => sink.complete(),
        },
      ),
    );
}

export interface DashboardEnvironment {
  environment: Environment;
  /** Closes the live connection (the environment is replaced on a workspace switch or sign-out). */
  dispose(): void;
}

export function createEnvironment(workspaceId: string | null): DashboardEnvironment {
  const ws = createClient({
    url: webSocketUrl(),
    connectionParams: () => (workspaceId ? { workspaceId } : {}),
    lazy: true,
    // Keep the socket a moment after its last subscription ends: a page that suspends and remounts
    // its live components (right after sign-in, on navigation) then reuses it instead of closing it
    // mid-handshake and opening another (which also made Chromium log sends on a closing socket).
    lazyCloseTimeout: 5_000,
    // Reconnect after a restart of the service or a network blip, not after the server refused
    // the credentials (4401, 4403: signed out or access revoked; the next query says why).
    retryAttempts: Infinity,
    shouldRetry: (event) => !(event instanceof CloseEvent && (event.code === 4401 || event.code === 4403)),
  });
  const environment = new Environment({
    network: Network.create(fetchFunction(workspaceId), subscribeFunction(ws)),
    store: new Store(new RecordSource()),
    // Relay's edge directives keep each connection's totalCount true (./connections.ts).
    handlerProvider: countingHandlers,
  });
  // dispose() waits for a connection still being made, which rejects when that socket closes first
  // (signed out, access revoked): there is nothing left to close then.
  return { environment, dispose: () => void Promise.resolve(ws.dispose()).catch(() => undefined) };
}
