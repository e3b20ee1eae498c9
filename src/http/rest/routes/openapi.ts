/** GET /openapi.json: the OpenAPI 3.1 document of every REST route (no auth needed). */
import { z } from "zod";
import { defineRoute, type AnyRoute } from "../route.ts";
import { buildOpenApiDocument } from "../openapi.ts";

export function openApiRoute(routes: () => AnyRoute[], version: string): AnyRoute {
  let cached: unknown = null;
  return defineRoute({
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This OpenAPI 3.1 document",
    tags: ["Meta"],
    auth: false,
    responses: { 200: { description: "The OpenAPI document.", schema: z.record(z.string(), z.unknown()) } },
    async handler() {
      cached ??= buildOpenApiDocument(routes(), { version });
      return { body: cached };
    },
  });
}
