/**
 * Test helpers: an API server in this process on a free port, workspaces with keys, a small HTTP
 * client that returns status, headers and parsed JSON, and a GraphQL client.
 */
import type { RunningApi } from "../../src/main/server.js";

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function startTestApi(): Promise<RunningApi> {
  const { startApi } = await import("../../src/main/server.js");
  return startApi(0, "127.0.0.1");
}

/** Closes the server and every connection this process opened (queues, Redis, database). */
export async function stopAll(api?: RunningApi, ...others: { close(): Promise<void> }[]): Promise<void> {
  for (const o of others) await o.close().catch(() => undefined);
  await api?.close().catch(() => undefined);
  const { closeQueues } = await import("../../src/infra/queues.js");
  const { closeRedis } = await import("../../src/infra/redis.js");
  const { closeDb } = await import("../../src/infra/db.js");
  await closeQueues().catch(() => undefined);
  await closeRedis().catch(() => undefined);
  await closeDb().catch(() => undefined);
}

export async function newWorkspace(plan = "free", name = "Test workspace"): Promise<{ workspaceId: string; key: string }> {
  const { createWorkspace } = await import("../../src/domain/workspace/service.js");
  const { workspace, secret } = await createWorkspace({ name, plan });
  return { workspaceId: workspace.id, key: secret };
}

export async function request(
  baseUrl: string,
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | Buffer | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: typeof body === "string" || body === undefined ? body : new Uint8Array(body),
  });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** A client bound to one server and key: `c.get("/api/v1/workspace")`. */
export function client(baseUrl: string, key: string | null) {
  return {
    get: (path: string, headers?: Record<string, string>) => request(baseUrl, "GET", path, { key, headers }),
    post: (path: string, body?: unknown) => request(baseUrl, "POST", path, { key, body }),
    patch: (path: string, body?: unknown) => request(baseUrl, "PATCH", path, { key, body }),
    delete: (path: string, body?: unknown) => request(baseUrl, "DELETE", path, { key, body }),
    raw: (method: string, path: string, opts: { rawBody?: string | Buffer; headers?: Record<string, string> }) =>
      request(baseUrl, method, path, { key, ...opts }),
  };
}

export async function gql<T = any>(
  baseUrl: string,
  key: string | null,
  query: string,
  variables?: Record<string, unknown>,
): Promise<HttpResult<{ data?: T; errors?: { message: string; extensions?: Record<string, any> }[] }>> {
  return request(baseUrl, "POST", "/graphql", { key, body: { query, variables } });
}
