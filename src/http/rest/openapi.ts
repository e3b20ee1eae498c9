/** The OpenAPI 3.1 document, generated from the same route definitions the router serves. */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "../../domain/shared/errors.ts";
import { errorSchema } from "./schemas.ts";
import { WORKSPACE_EVENT_TYPES } from "../../domain/shared/workspace-events.ts";
import { webhookEventData, webhookPayload } from "../records/webhooks.ts";
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_TTL_HOURS, IDEMPOTENT_REPLAYED_HEADER } from "../../domain/shared/idempotency.ts";
import { successStatus, takesIdempotencyKey, type AnyRoute } from "./route.ts";
import { listFormatQuery } from "../../domain/exports/inputs.ts";
import { MEDIA_TYPES } from "../../domain/exports/writers.ts";

/** The Idempotency-Key header of every write (the rule: src/domain/shared/idempotency.ts). */
const idempotencyHeaders = z.object({
  [IDEMPOTENCY_KEY_HEADER]: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x20-\x7E]+$/)
    .optional()
    .meta({
      description:
        'Optional (IETF draft "The Idempotency-Key HTTP Header Field"): 1 to 255 printable ASCII characters naming this request, ' +
        "scoped to the workspace (400 VALIDATION_ERROR otherwise). Sent again with the same method, path and body within " +
        `${IDEMPOTENCY_TTL_HOURS} hours, the request does nothing again and answers the first answer's status, body and ` +
        "Content-Type, Location and Retry-After, with `Idempotent-Replayed: true`. The same key with another method, path or body: " +
        "422 IDEMPOTENCY_KEY_REUSED; while the first request with it still runs: 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Answers " +
        "of 5xx are not kept (the retry runs again), nor 400 refusals of an invalid request (fix it and send it with the same key).",
    }),
});

const replayedHeader = {
  [IDEMPOTENT_REPLAYED_HEADER]: {
    description: "`true` when this is the stored answer of an earlier request with the same Idempotency-Key (nothing was done again).",
    schema: { type: "string" as const, enum: ["true"] },
  },
};

const COMMON_ERRORS: ErrorCode[] = ["UNAUTHORIZED", "RATE_LIMITED", "SERVICE_UNAVAILABLE", "INTERNAL_ERROR"];

function errorResponses(route: AnyRoute) {
  const codes = new Set<ErrorCode>([...(route.errors ?? []), ...(route.auth === false ? ["INTERNAL_ERROR" as const] : COMMON_ERRORS)]);
  if (route.auth !== false) {
    // A signed-in person naming a workspace they are not in (x-workspace-id): 404. Owner-only routes
    // refuse members, and a cookie-authenticated write without x-requested-with is refused (CSRF): 403.
    codes.add("NOT_FOUND");
    if (route.permission || route.method !== "get") codes.add("FORBIDDEN");
  }
  if (route.params || route.query || route.body) codes.add("VALIDATION_ERROR");
  if (takesIdempotencyKey(route))
    for (const code of ["VALIDATION_ERROR", "IDEMPOTENCY_KEY_REUSED", "IDEMPOTENCY_KEY_IN_USE"] as const) codes.add(code);
  // Every method that may carry a body has it read (JSON, 1 MiB) whether or not the route uses it:
  // a body that is not declared JSON, not valid JSON or too large is refused on each of them.
  if (route.method !== "get")
    for (const code of ["VALIDATION_ERROR", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"] as const) codes.add(code);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      {
        description: `Error: ${list.join(", ")}`,
        ...(status === 401 ? { headers: { "WWW-Authenticate": WWW_AUTHENTICATE } } : {}),
        content: { "application/json": { schema: errorSchema } },
      },
    ]),
  );
}

/** Every 401's challenge (src/http/errors.ts, `bearerChallenge`). */
const WWW_AUTHENTICATE = {
  description: '`Bearer realm="video-service"`; with `error="invalid_token"` (RFC 6750) when a key was sent and refused.',
  schema: { type: "string" as const },
};

/** Tags, in the order a reader meets them, each with its description (Redocly's `tag-description`). */
const TAGS: { name: string; description: string }[] = [
  { name: "Workspace", description: "The workspace of the key or session: plan, tracking limits, credits." },
  { name: "Videos", description: "Tracking videos by link, their metrics and history." },
  { name: "Accounts", description: "Tracking creator accounts by link; their videos take tracking slots." },
  { name: "Folders", description: "Folders of videos and accounts (nested, at most 5 levels), and their aggregates." },
  {
    name: "Tags",
    description:
      "The workspace's labels for videos and accounts: counts per tag, bulk tagging; GET /videos and GET /accounts filter by `tag`.",
  },
  { name: "Analytics", description: "Rankings and growth of what the workspace tracks." },
  { name: "Video analysis", description: "AI analysis of a video (5 credits, charged on completion)." },
  { name: "Content radar", description: 'Content-discovery searches (100 credits each; README, "Plans and credits").' },
  { name: "Webhooks", description: "Endpoints that receive the workspace's events (see `webhooks` for the payloads). Owners only." },
  { name: "API keys", description: "The workspace's API keys (at most 5 active). Owners only." },
  { name: "Settings", description: "The audit log. Owners only." },
  {
    name: "Exports",
    description:
      "Lists as CSV or XLSX files: export jobs, their progress and signed downloads (docs/exports.md). Each list's GET also answers its file directly (`format`).",
  },
  {
    name: "Notifications",
    description: "The signed-in person's in-dashboard notifications (their alert rules): read and mark read. Sessions only.",
  },
  {
    name: "Reports",
    description:
      "A folder's read-only share links (its report page, signed out), its scheduled reports and the reports they produced (docs/reports.md).",
  },
  { name: "Meta", description: "This document." },
];

/**
 * The eight events under `webhooks` (OpenAPI 3.1): each a POST of `{id, type, timestamp, data}` signed the Standard
 * Webhooks way, with its payload schema (src/http/records/webhooks.ts).
 */
function registerWebhooks(registry: OpenAPIRegistry): void {
  const headers = z.object({
    "webhook-id": z.string().meta({ description: "The delivery's id: the same on every attempt; handle each id once." }),
    "webhook-timestamp": z.string().meta({ description: "Unix seconds of this attempt; refuse one more than 5 minutes away." }),
    "webhook-signature": z
      .string()
      .meta({ description: "`v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's secret." }),
  });
  for (const type of WORKSPACE_EVENT_TYPES) {
    registry.registerWebhook({
      method: "post",
      path: type,
      operationId: `${type.replace(/[._](\w)/g, (_m, c: string) => c.toUpperCase())}Event`,
      summary: webhookEventData[type].summary,
      description: `Sent to every active endpoint subscribed to \`${type}\`. Verify the signature over the raw body before trusting it (README, "Webhooks for integrators"; docs/webhooks.md).`,
      tags: ["Webhooks"],
      security: [], // the service calls the receiver: it proves itself by the signature, not by a credential of the receiver's
      request: { headers, body: { required: true, content: { "application/json": { schema: webhookPayload(type) } } } },
      responses: {
        200: { description: "Any 2xx answered within WEBHOOK_TIMEOUT_MS (10 s) acknowledges the delivery." },
        400: { description: "Any other answer (or none) is a failed attempt, retried on WEBHOOK_RETRY_SCHEDULE." },
      },
    });
  }
}

/** A list that answers files too (`exportAs`): its query gains `format` and `bom`. */
function withFileQuery(route: AnyRoute): z.ZodObject | undefined {
  const query = route.query as z.ZodObject | undefined;
  if (!route.exportAs) return query;
  return query ? query.extend(listFormatQuery.shape) : listFormatQuery;
}

/** …and its success answer the CSV and XLSX media types (docs/exports.md). */
function fileContent(route: AnyRoute, status: string) {
  if (!route.exportAs || Number(status) !== successStatus(route)) return {};
  const about = `every row matching the filters, not one page (docs/exports.md, kind \`${route.exportAs.kind}\`).`;
  return {
    "text/csv": {
      schema: z.string().meta({ description: `CSV (RFC 4180, UTF-8, header row, CRLF; formula injection neutralised): ${about}` }),
    },
    [MEDIA_TYPES.xlsx]: {
      schema: z.string().meta({ format: "binary", description: `An XLSX workbook (typed number and date cells): ${about}` }),
    },
  };
}

export function buildOpenApiDocument(routes: AnyRoute[], info: { version: string }) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: "An API key: `svc_sk_` followed by 43 URL-safe characters. A key acts as an owner of its workspace.",
  });
  registry.registerComponent("securitySchemes", "session", {
    type: "apiKey",
    in: "cookie",
    name: "svc.session_token",
    description:
      "A person's session (POST /auth/sign-in/email; `__Secure-svc.session_token` over https). It acts on the workspace named by the " +
      "`x-workspace-id` header, else the session's last chosen one, with the person's role there. A request that changes something must " +
      "also carry `x-requested-with` (or `x-workspace-id`): 403 FORBIDDEN otherwise (CSRF).",
  });
  for (const route of routes) {
    const idempotent = takesIdempotencyKey(route);
    const headers = idempotent ? { headers: replayedHeader } : {};
    const responses = Object.fromEntries(
      Object.entries(route.responses).map(([status, r]) => [
        status,
        r.schema
          ? {
              description: r.description,
              ...headers,
              content: { [r.mediaType ?? "application/json"]: { schema: r.schema }, ...fileContent(route, status) },
            }
          : { description: r.description, ...headers },
      ]),
    );
    registry.registerPath({
      method: route.method,
      path: `/api/v1${route.path}`,
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      tags: route.tags,
      security: route.auth === false ? [] : [{ apiKey: [] }, { session: [] }],
      request: {
        params: route.params as z.ZodObject | undefined,
        query: withFileQuery(route),
        headers: idempotent ? idempotencyHeaders : undefined,
        body: route.body ? { required: true, content: { "application/json": { schema: route.body } } } : undefined,
      },
      // A status the route documents itself (e.g. a spec-mandated body shape) wins over the generic error entry.
      responses: { ...errorResponses(route), ...responses },
    });
  }
  registerWebhooks(registry);
  const used = new Set(routes.flatMap((r) => r.tags));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    tags: TAGS.filter((t) => used.has(t.name) || t.name === "Webhooks"),
    info: {
      title: "Video tracking, discovery and analysis API",
      version: info.version,
      // No open-source licence is granted (package.json: UNLICENSED); generators and linters still want it said.
      license: { name: "Proprietary (UNLICENSED)", identifier: "LicenseRef-Proprietary" },
      description:
        "REST facade of the service. Every path is under /api/v1; bodies are JSON and must say so (`Content-Type: application/json` " +
        "or `application/*+json`, any charset; otherwise 415 UNSUPPORTED_MEDIA_TYPE and nothing is applied); every error is `{code, message}` " +
        "(validation errors add `details`). Timestamps are ISO 8601 UTC with milliseconds; dates in filters are YYYY-MM-DD. " +
        "Authentication: `Authorization: Bearer <API key>` (integrations; a key acts as an owner of its workspace), or a person's session " +
        "cookie from POST /auth/sign-in/email (the dashboard; see the `session` scheme: `x-workspace-id` chooses the workspace, writes need " +
        "`x-requested-with`). Owners manage API keys, webhooks and members and read the audit log; members get 403 FORBIDDEN there. A " +
        "workspace the person does not belong to is 404 NOT_FOUND. Each key, and each person, may make RATE_LIMIT_PER_MINUTE requests per minute " +
        "(RateLimit-* headers; 429 RATE_LIMITED with Retry-After beyond it). A request line and headers over 16 KiB together are " +
        "refused by the HTTP server itself with 431 and no body. Every POST, PATCH and DELETE takes an optional `Idempotency-Key` header " +
        "(a retry with the same key, method, path and body within 24 hours answers the first answer again with `Idempotent-Replayed: true`; " +
        "422 IDEMPOTENCY_KEY_REUSED, 409 IDEMPOTENCY_KEY_IN_USE), as do GraphQL mutations over HTTP.",
    },
    servers: [{ url: "/" }],
  });
}
