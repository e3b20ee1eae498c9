/**
 * A REST route is one `defineRoute({...})`: method, path, zod schemas for params, query, body and
 * responses, documented errors and the handler. The Express router and the OpenAPI document are
 * both built from the same list of definitions, so a route cannot exist without its documentation
 * and cannot validate with a schema other than the documented one.
 */
import type { z } from "zod";
import type { Actor } from "../../domain/actors/actor.ts";
import type { Permission } from "../../domain/actors/roles.ts";
import type { ErrorCode } from "../../domain/shared/errors.ts";
import type { ExportKind } from "../../domain/exports/kinds.ts";
import type { Logger } from "../../infra/logger.ts";

export type HttpMethod = "get" | "post" | "patch" | "put" | "delete";

export interface RouteRequest<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** Who asks: the workspace, who acts and their role (routes with `auth: false` get an empty actor). */
  auth: Actor;
  requestId: string;
  log: Logger;
}

export interface RouteResponse {
  /** Defaults to the first 2xx status in `responses`. */
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface RouteConfig<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: HttpMethod;
  /** OpenAPI-style path relative to /api/v1, e.g. `/videos/{id}`. */
  path: string;
  /** The OpenAPI operationId: camelCase, unique, and stable (generated clients name their methods after it; never derive it). */
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Default true: requires an API key (`Authorization: Bearer <key>`) or a session cookie, and counts toward its rate limit. */
  auth?: boolean;
  /** An owner-only operation: the role rule (src/domain/actors/roles.ts) is asked before the handler (403 FORBIDDEN for members). */
  permission?: Permission;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * `mediaType`: a body that is not JSON (e.g. `image/jpeg`): the handler answers a Buffer, sent as it is
   * (given an `ETag` header by the handler, Express answers 304 to a matching If-None-Match).
   */
  responses: Record<number, { description: string; schema?: z.ZodType; mediaType?: string }>;
  /**
   * A list that can also be answered as a file (docs/exports.md): with `format=csv|xlsx` or an
   * `Accept` of text/csv or the XLSX media type, every row matching the list's filter (the query, read with
   * the export kind's filter schema, plus what `params` maps from the path) is streamed instead of the JSON
   * page (./file-answers.ts); OpenAPI documents `format`, `bom` and both media types from here.
   */
  exportAs?: { kind: ExportKind; params?: (params: Record<string, string>) => Record<string, unknown> };
  /** Error codes this route can answer with (documented as `{code, message}` responses). */
  errors?: ErrorCode[];
  handler(req: RouteRequest<z.output<P>, z.output<Q>, z.output<B>>): Promise<RouteResponse>;
}

export type AnyRoute = RouteConfig<z.ZodType, z.ZodType, z.ZodType>;

export function defineRoute<
  P extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  B extends z.ZodType = z.ZodUndefined,
>(route: RouteConfig<P, Q, B>): AnyRoute {
  return route as unknown as AnyRoute;
}

export function successStatus(route: AnyRoute): number {
  return Number(Object.keys(route.responses).find((s) => Number(s) >= 200 && Number(s) < 300) ?? 200);
}

/**
 * The routes that take an `Idempotency-Key` (every write of a workspace: POST, PATCH, DELETE): the
 * router applies it (./idempotency.ts) and the OpenAPI document declares it (./openapi.ts) from here.
 */
export function takesIdempotencyKey(route: AnyRoute): boolean {
  return route.auth !== false && route.method !== "get";
}
