/**
 * Generative robustness (fast-check): every REST operation of the OpenAPI document and every GraphQL
 * query and mutation with arguments gets malformed, oversized, wrongly typed, wrongly encoded and
 * hostile values in every path segment, query parameter, body field and variable (mixed with valid
 * ones, so refusals happen deep in the handlers too). Whatever is sent:
 *
 * - never a 5xx; REST answers a status its OpenAPI entry documents, GraphQL a status of its own set;
 * - a refusal is JSON `{code, message}` (REST) or errors with a known `extensions.code` (GraphQL),
 *   with a code whose status is the contract's, and without internals (no stack, no SQL);
 * - nothing is written on a refusal: the row count of every table is unchanged.
 *
 * People: the /auth routes get the same treatment, and the person-only GraphQL operations
 * (viewer's workspace, sessions, invitations, members) run with a signed-in owner's session cookie.
 *
 * Runs are bounded (ROBUSTNESS_RUNS per REST operation, ROBUSTNESS_GRAPHQL_RUNS per GraphQL field) so
 * the file stays well under 90 s; FC_SEED replays a failing run.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
} from "graphql";
import { newWorkspace, request, startTestApi, stopAll, type HttpResult } from "../helpers/api.js";
import { newPerson, PASSWORD, signedIn, type PersonClient } from "../helpers/people.js";
import { ERROR_STATUS } from "../../src/domain/shared/errors.js";
import type { RunningApi } from "../../src/main/server.js";

// Every request must reach validation: a 429 would hide what the input does.
// Webhooks configured, so their routes run past WEBHOOKS_NOT_CONFIGURED (nothing is delivered: no worker runs here).
vi.hoisted(() => {
  process.env.RATE_LIMIT_PER_MINUTE = "100000000";
  process.env.SIGN_IN_MAX_FAILURES_PER_EMAIL = "100000000";
  process.env.SIGN_IN_MAX_FAILURES_PER_ADDRESS = "100000000";
  process.env.WEBHOOK_SECRET_KEY = "robustness-test-secret-key-0123456789abcdef";
});

// Halved when exports, reports and campaigns doubled the operations (the file had grown to 4.5 min on the CI machine):
// each run draws a new seed, so runs accumulate coverage across CI runs; set these higher to search one change harder.
const REST_RUNS = Number(process.env.ROBUSTNESS_RUNS ?? 30);
const GRAPHQL_RUNS = Number(process.env.ROBUSTNESS_GRAPHQL_RUNS ?? 15);
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;

let api: RunningApi;
let key: string;
/** A signed-in owner of the key's workspace (the person-only GraphQL operations, /auth). */
let owner: PersonClient;
let tables: string[];
/** Real ids (of this workspace and another) mixed into the generated ones, so handlers run past "not found". */
const ids: string[] = [];

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
};
interface Operation {
  method: string;
  path: string;
  parameters: { in: string; name: string; schema: JsonSchema }[];
  body?: JsonSchema;
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}
let operations: Operation[] = [];

beforeAll(async () => {
  api = await startTestApi();
  const ws = await newWorkspace("free");
  key = ws.key;
  const other = await newWorkspace("free", "Other");
  const post = (k: string, path: string, body: unknown) => request(api.url, "POST", path, { key: k, body });
  ids.push((await post(key, "/api/v1/folders", { name: "seed" })).body.data.id);
  ids.push((await post(other.key, "/api/v1/folders", { name: "theirs" })).body.data.id);
  await post(key, "/api/v1/videos", { url: "https://www.tiktok.com/@seed.user/video/7350269128141550069" });
  await post(key, "/api/v1/accounts", { url: "https://www.tiktok.com/@seed.account" });
  const videos = (await request(api.url, "GET", "/api/v1/videos", { key })).body.data as { id: string }[];
  const accounts = (await request(api.url, "GET", "/api/v1/accounts", { key })).body.data as { id: string }[];
  ids.push(...videos.map((v) => v.id), ...accounts.map((a) => a.id));
  // People: the owner, a member and an invitation of this workspace, a member of the other.
  await newPerson("owner@example.com", ws.workspaceId, "owner");
  await newPerson("member@example.com", ws.workspaceId, "member");
  await newPerson("theirs@example.com", other.workspaceId, "owner");
  owner = await signedIn(api.url, "owner@example.com");
  const { prisma: db } = await import("../../src/infra/db.js");
  // The sign-in is audited after its answer: wait for it, so no run counts it as its own write.
  await vi.waitFor(async () => expect(await db.auditEntry.count({ where: { action: "user.signed_in" } })).toBeGreaterThan(0));
  ids.push(...(await db.workspaceMember.findMany({ select: { id: true } })).map((m) => m.id), ws.workspaceId, other.workspaceId);
  const invited = await owner.gql(`mutation { createInvitation(email: "invited@example.com", role: MEMBER) { invitation { uuid } } }`);
  ids.push(invited.body.data.createInvitation.invitation.uuid);

  const doc = (await request(api.url, "GET", "/api/v1/openapi.json")).body;
  for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      if (path.endsWith("/openapi.json")) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.["application/json"]?.schema,
        responses: op.responses,
      });
    }
  }
  const { prisma } = await import("../../src/infra/db.js");
  tables = (
    await prisma.$queryRawUnsafe<{ t: string }[]>(
      `SELECT table_name::text AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations' ORDER BY 1`,
    )
  ).map((r) => r.t);
  await countRowChanges();
});
afterAll(() => stopAll(api));

/**
 * Every row inserted into or deleted from a table (but those written after an answer) is logged, with +1 or -1, by a
 * trigger on the table (a partitioned table's trigger is cloned onto each partition, named in the log), inside the
 * writing transaction: a rolled-back write logs nothing. The sums per table are the changes of its row count. Reading
 * them is one small statement, where counting every table's rows was most of this file's time. Insert-only, so two
 * writing transactions never wait for each other on it.
 */
async function countRowChanges(): Promise<void> {
  const { prisma } = await import("../../src/infra/db.js");
  await prisma.$executeRawUnsafe(`CREATE TABLE robustness_row_changes (table_name text NOT NULL, delta int NOT NULL)`);
  await prisma.$executeRawUnsafe(`CREATE FUNCTION robustness_log_row_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO robustness_row_changes VALUES (TG_TABLE_NAME, CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END);
      RETURN NULL;
    END $$`);
  const parents = await prisma.$queryRawUnsafe<{ t: string }[]>(
    `SELECT c.relname::text AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
  );
  for (const { t } of parents) {
    if (!tables.includes(t) || WRITTEN_AFTER_THE_ANSWER.has(t)) continue;
    await prisma.$executeRawUnsafe(
      `CREATE TRIGGER robustness_row_change AFTER INSERT OR DELETE ON "${t}" FOR EACH ROW EXECUTE FUNCTION robustness_log_row_change()`,
    );
  }
}

/**
 * Tables an earlier, successful request may still write after its answer: a charge relays its
 * `credits.low` event to the webhooks after the commit (src/domain/credits/service.ts), creating
 * deliveries while the next request runs. A refusal cannot create a delivery without an event, and
 * the events table is compared.
 */
const WRITTEN_AFTER_THE_ANSWER = new Set(["webhook_deliveries"]);

/** How much the row count of every table (but those) has changed since the file began ({@link countRowChanges}). */
async function rowCounts(): Promise<Record<string, number>> {
  const { prisma } = await import("../../src/infra/db.js");
  const counted = tables.filter((t) => !WRITTEN_AFTER_THE_ANSWER.has(t));
  const sums = await prisma.$queryRawUnsafe<{ t: string; n: bigint }[]>(
    `SELECT table_name AS t, sum(delta) AS n FROM robustness_row_changes GROUP BY table_name`,
  );
  const changed = new Map(sums.map((r) => [r.t, Number(r.n)]));
  return Object.fromEntries(counted.map((t) => [t, changed.get(t) ?? 0]));
}

// ---------------------------------------------------------------------------------------------
// Values

const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfff",
  "\udc00\ud800",
  "\ufeff",
  "\u202e",
  "😀",
  "%",
  "%zz",
  "%ff%fe",
  "%00",
  "../../etc/passwd",
  "..",
  "' OR 1=1 --",
  '"; DROP TABLE folders; --',
  "${jndi:ldap://x/a}",
  "<script>alert(1)</script>",
  "__proto__",
  "constructor",
  "toString",
  "%s%n%x",
  "NaN",
  "Infinity",
  "-1",
  "1e309",
  "null",
  "true",
  "[]",
  "{}",
  "x".repeat(5000),
  "9".repeat(400),
  "https://www.tiktok.com/@..",
  "https://www.instagram.com/../admin",
  "javascript:alert(1)",
  "00000000-0000-0000-0000-000000000000",
  "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF",
  "2026-02-30",
  "0000-00-00",
  "9999-99-99",
];
const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.string({ unit: fc.constantFrom("\u0000", "\ud800", "\udc00", "a", "/", "%", ".", "\\", "'", '"', "é"), maxLength: 16 }),
  },
  { weight: 1, arbitrary: fc.uuid() },
);
const deepNesting = fc.integer({ min: 20, max: 200 }).map((n) => JSON.parse("[".repeat(n) + "]".repeat(n)) as unknown);
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 1e308, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 101, 1_000_000_001),
  },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 60 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: deepNesting },
);

const day = fc
  .date({ min: new Date("2000-01-01"), max: new Date("2030-12-31"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const LINKS = [
  "https://www.tiktok.com/@someone/video/7350269128141550070",
  "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  "https://www.instagram.com/reel/C1a2b3c4d5e/",
  "https://www.tiktok.com/@someone",
  "https://www.youtube.com/@handle",
  "https://www.instagram.com/someone/",
];
// `ids` is filled in beforeAll, after the arbitraries are built: read at generation time.
const anyId = () =>
  fc.oneof(
    fc.nat({ max: 1000 }).map((i) => ids[i % ids.length]!),
    fc.uuid(),
  );

/** A value the schema accepts (or nearly: lengths and ranges are respected, contents are arbitrary). */
function validFor(schema: JsonSchema, field = ""): fc.Arbitrary<unknown> {
  if (schema.anyOf || schema.oneOf) return fc.oneof(...(schema.anyOf ?? schema.oneOf)!.map((s) => validFor(s, field)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      if (schema.format === "uuid") return anyId();
      if (schema.format === "date") return day;
      if (field === "url") return fc.constantFrom(...LINKS);
      return fc.string({ minLength: Math.min(schema.minLength ?? 0, 5), maxLength: Math.min(schema.maxLength ?? 30, 30) });
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 1000, 1_000_000) });
    case "number":
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(schema.items ? validFor(schema.items, field) : hostileJson, {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case "object":
      return objectFor(schema);
    default:
      return hostileJson;
  }
}

/** Valid most of the time, hostile otherwise. */
const valueFor = (schema: JsonSchema, field = "") =>
  fc.oneof({ weight: 3, arbitrary: validFor(schema, field) }, { weight: 2, arbitrary: hostileJson });

function objectFor(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.entries(schema.properties ?? {}).map(([name, s]) =>
    fc.option(valueFor(s, name), { nil: undefined, freq: 4 }).map((v) => [name, v] as const),
  );
  const extra = fc.option(fc.tuple(hostileString, hostileJson), { nil: undefined, freq: 3 });
  return fc.tuple(fc.tuple(...fields), extra).map(([pairs, more]) => {
    const out: Record<string, unknown> = {};
    for (const [name, v] of pairs) if (v !== undefined) out[name] = v;
    if (more) out[more[0]] = more[1];
    return out;
  });
}

// ---------------------------------------------------------------------------------------------
// REST

/** A path segment: real ids, random UUIDs, hostile text (percent-encoded) and broken encodings. */
const segment = fc.oneof(
  { weight: 3, arbitrary: anyId() },
  {
    weight: 3,
    arbitrary: hostileString
      .map((s) => encodeURIComponent(s.replace(/\p{Cs}/gu, "x")) || "%20")
      .map((s) => (/^\.+$/.test(s) ? `x${s}` : s)),
  },
  { weight: 2, arbitrary: fc.constantFrom("%", "%zz", "%ff%fe", "%ed%a0%80", "%c3", "abc%", "%00", "%2F", "%5C", "x%2e%2e") },
);

/** How the body travels: mostly declared JSON; sometimes another type, no type, raw bytes or over 1 MiB. */
type Encoding = "json" | "text/plain" | "none" | "form" | "raw" | "big" | "vnd+json";
const encoding = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Encoding>("json") },
  { weight: 1, arbitrary: fc.constantFrom<Encoding>("text/plain", "none", "form", "vnd+json") },
  { weight: 2, arbitrary: fc.constant<Encoding>("raw") },
  { weight: 1, arbitrary: fc.constantFrom<Encoding>("big") },
);
const rawBody = fc.oneof(
  // Nested far deeper than any value above (built as text: fast-check's own printing would recurse).
  fc.integer({ min: 1000, max: 50_000 }).map((n) => `{"name":${"[".repeat(n)}${"]".repeat(n)}}`),
  fc.constantFrom(
    "{",
    "[",
    '{"a":}',
    "\u0000",
    '{"name": "\\ud800"}',
    "nul\u0000",
    "1e999999",
    '"str"',
    "{}".repeat(10),
    '{"__proto__":{"x":1}}',
  ),
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
);

function queryString(op: Operation, values: (readonly [string, unknown, boolean])[]): string {
  const parts: string[] = [];
  for (const [name, value, twice] of values) {
    if (value === undefined) continue;
    const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
    const encoded = encodeURIComponent(text.replace(/\p{Cs}/gu, "x"));
    parts.push(`${name}=${encoded}`);
    if (twice) parts.push(`${name}=${encoded}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

const INTERNALS =
  /\bat .+\.(ts|js):\d+|node_modules|Prisma|prisma\.|\bSELECT\b.*\bFROM\b|\bINSERT INTO\b|syntax error at or near|violates .* constraint|relation "|TypeError|ReferenceError|URIError|SyntaxError: /;
const CODES = new Set(Object.keys(ERROR_STATUS));

function checkRest(op: Operation, what: string, r: HttpResult, url: string): void {
  const label = `${op.method} ${op.path} ${what} → ${r.status} ${r.text.slice(0, 300)}`;
  // A request head over Node's 16 KiB limit is refused by the HTTP server itself (documented in the
  // OpenAPI description), before any of our code: only a long URL may get there.
  if (r.status === 431) {
    expect(url.length, label).toBeGreaterThan(8000);
    return;
  }
  expect(r.status, label).toBeLessThan(500);
  expect(r.body?.code, `${label}: rate limited, the input was never validated`).not.toBe("RATE_LIMITED");
  expect(Object.keys(op.responses), label).toContain(String(r.status));
  if (r.status < 400) return;
  expect(r.body, label).toBeTypeOf("object");
  expect(r.body.message, label).toBeTypeOf("string");
  expect(r.text, label).not.toMatch(INTERNALS);
  const documented = op.responses[String(r.status)]?.content?.["application/json"]?.schema;
  // The spec's own shapes (e.g. the analysis credit error `{statusCode, message}`) are documented per route.
  const ownShape = documented?.$ref && !documented.$ref.endsWith("/Error");
  if (!ownShape) {
    expect(CODES.has(r.body.code), label).toBe(true);
    expect(ERROR_STATUS[r.body.code as keyof typeof ERROR_STATUS], label).toBe(r.status);
    expect(r.body.requestId, label).toBeUndefined();
  }
}

describe("REST: every operation of the OpenAPI document", () => {
  it("has operations to try", () => {
    expect(operations.length).toBeGreaterThan(30);
  });

  /** A path Express cannot decode (invalid percent-encoding or UTF-8): refused 400 before any body is read. */
  const undecodable = (path: string) => {
    try {
      for (const segment of path.split("?")[0]!.split("/")) decodeURIComponent(segment);
      return false;
    } catch {
      return true;
    }
  };

  it.each([0, 1, 2, 3])("hostile requests, part %i of 4 of the operations", async (part) => {
    const mine = operations.filter((_, i) => i % 4 === part);
    for (const op of mine) {
      const pathParams = op.parameters.filter((p) => p.in === "path");
      const queryParams = op.parameters.filter((p) => p.in === "query");
      const hasBody = op.method !== "GET";
      const arb = fc.record({
        segments: fc.tuple(...pathParams.map(() => segment)),
        query: fc.tuple(
          ...queryParams.map((p) =>
            fc.tuple(fc.constant(p.name), fc.option(valueFor(p.schema, p.name), { nil: undefined, freq: 2 }), fc.boolean()),
          ),
        ),
        body: hasBody
          ? fc.oneof({ weight: 5, arbitrary: op.body ? objectFor(op.body) : fc.constant(undefined) }, { weight: 1, arbitrary: hostileJson })
          : fc.constant(undefined),
        encoding: hasBody ? encoding : fc.constant<Encoding>("json"),
        raw: rawBody,
      });
      await fc.assert(
        fc.asyncProperty(arb, async ({ segments, query, body, encoding: how, raw }) => {
          let i = 0;
          const path = `${op.path.replace(/\{\w+\}/g, () => segments[i++]!)}${queryString(op, query)}`;
          const headers: Record<string, string> = {};
          let payload: string | Buffer | undefined;
          if (hasBody && (body !== undefined || how !== "json")) {
            const text = JSON.stringify(body ?? {});
            payload =
              how === "raw"
                ? raw
                : how === "big"
                  ? JSON.stringify({ ...(typeof body === "object" ? body : {}), padding: "x".repeat(1_048_600) })
                  : text;
            if (how === "json" || how === "raw" || how === "big") headers["content-type"] = "application/json";
            else if (how === "vnd+json") headers["content-type"] = "application/vnd.api+json; charset=utf-8";
            else if (how === "text/plain") headers["content-type"] = "text/plain";
            else if (how === "form") headers["content-type"] = "application/x-www-form-urlencoded";
          }
          const before = await rowCounts();
          const r = await request(api.url, op.method, path, { key, rawBody: payload, headers });
          checkRest(op, `${path.slice(0, 200)} ${how} ${typeof payload === "string" ? payload.slice(0, 120) : ""}`, r, path);
          if (how === "text/plain" || how === "none" || how === "form") expect(r.status).toBe(415);
          // Past 1 MiB: 413, unless the path itself cannot be read (a segment that is not valid percent-encoding:
          // Express refuses it, 400, before the route reads any body: src/http/rest/router.ts reads it after admission).
          if (how === "big")
            expect(r.status === 413 || (r.status === 400 && undecodable(path)), `${r.status} ${path.slice(0, 200)}`).toBe(true);
          if (r.status >= 400) expect(await rowCounts(), `${op.method} ${path}: a refusal wrote`).toEqual(before);
        }),
        { numRuns: REST_RUNS, seed: SEED, endOnFailure: true },
      );
    }
  });
});

// ---------------------------------------------------------------------------------------------
// GraphQL

const GRAPHQL_CODES = new Set([
  ...CODES,
  "GRAPHQL_VALIDATION_FAILED",
  "GRAPHQL_PARSE_FAILED",
  "BAD_USER_INPUT",
  "BAD_REQUEST",
  "OPERATION_RESOLUTION_FAILURE",
  // An operation's bounds (src/http/graphql/limits.ts).
  "QUERY_TOO_LARGE",
  "QUERY_TOO_DEEP",
  "QUERY_TOO_COSTLY",
  "QUERY_TOO_MANY_ALIASES",
  "QUERY_TOO_MANY_DIRECTIVES",
]);
const GRAPHQL_STATUSES = [200, 400, 413, 415];

/** A value for a GraphQL input type: valid-looking or hostile, null included for non-null types. */
function graphqlValue(type: GraphQLInputType): fc.Arbitrary<unknown> {
  if (isNonNullType(type))
    return fc.oneof({ weight: 12, arbitrary: graphqlValue(type.ofType) }, { weight: 1, arbitrary: fc.constant(null) });
  if (isListType(type))
    return fc.oneof(
      { weight: 4, arbitrary: fc.array(graphqlValue(type.ofType), { maxLength: 6 }) },
      { weight: 1, arbitrary: fc.array(anyId(), { minLength: 51, maxLength: 60 }) },
      { weight: 1, arbitrary: hostileJson },
    );
  if (isEnumType(type))
    return fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...type.getValues().map((v) => v.name)) },
      { weight: 1, arbitrary: hostileJson },
    );
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).map((f) =>
      fc.option(graphqlValue(f.type), { nil: undefined, freq: 4 }).map((v) => [f.name, v] as const),
    );
    return fc.oneof(
      { weight: 4, arbitrary: fc.tuple(...fields).map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== undefined))) },
      { weight: 1, arbitrary: hostileJson },
    );
  }
  const valid = (() => {
    switch (isScalarType(type) ? type.name : "") {
      case "ID":
        return fc.oneof(
          anyId(),
          anyId().map((id) =>
            Buffer.from(
              `${fc.sample(fc.constantFrom("Folder", "Video", "Account", "ApiKey", "Member", "Invitation", "Workspace", "AuditEntry"), 1)[0]}:${id}`,
            ).toString("base64"),
          ),
        );
      case "Int":
        return fc.oneof(fc.integer({ min: -5, max: 200 }), fc.integer());
      case "Float":
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case "Boolean":
        return fc.boolean();
      case "String":
        return fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(...LINKS));
      default:
        return fc.oneof(day, fc.integer(), fc.string({ maxLength: 20 }));
    }
  })();
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: hostileJson });
}

function printType(type: GraphQLInputType): string {
  return type.toString();
}

function operationFor(kind: "query" | "mutation", field: GraphQLField<unknown, unknown>): string {
  const defs = field.args.map((a) => `$${a.name}: ${printType(a.type)}`).join(", ");
  const args = field.args.map((a) => `${a.name}: $${a.name}`).join(", ");
  const selection = isLeafType(getNamedType(field.type)) ? "" : " { __typename }";
  return `${kind} Probe(${defs}) { ${field.name}(${args})${selection} }`;
}

describe("GraphQL: every query and mutation with arguments", () => {
  let fields: { kind: "query" | "mutation"; field: GraphQLField<unknown, unknown> }[] = [];
  beforeAll(async () => {
    const { schema } = await import("../../src/http/graphql/schema.js");
    const of = (kind: "query" | "mutation", type: GraphQLObjectType | null | undefined) =>
      Object.values(type?.getFields() ?? {})
        .filter((f) => f.args.length > 0)
        .map((field) => ({ kind, field }));
    fields = [...of("query", schema.getQueryType()), ...of("mutation", schema.getMutationType())];
  });

  it("has operations to try", () => {
    expect(fields.length).toBeGreaterThan(15);
  });

  // Four parts, so each stays well inside the test timeout as the schema grows (one part that ran past it kept
  // running and was blamed on the next part's row counts).
  it.each([0, 1, 2, 3])("hostile variables, part %i of 4 of the fields", async (part) => {
    for (const { kind, field } of fields.filter((_, i) => i % 4 === part)) {
      const query = operationFor(kind, field);
      const variables = fc.oneof(
        {
          weight: 8,
          arbitrary: fc
            .tuple(...field.args.map((a) => fc.option(graphqlValue(a.type), { nil: undefined, freq: 6 }).map((v) => [a.name, v] as const)))
            .map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== undefined))),
        },
        { weight: 1, arbitrary: hostileJson },
      );
      await fc.assert(
        fc.asyncProperty(variables, async (vars) => {
          const before = await rowCounts();
          const r = await request(api.url, "POST", "/graphql", { key, body: { query, variables: vars } });
          const label = `${field.name} ${JSON.stringify(vars)?.slice(0, 200)} → ${r.status} ${r.text.slice(0, 300)}`;
          expect(GRAPHQL_STATUSES, label).toContain(r.status);
          expect(r.body, label).toBeTypeOf("object");
          expect(r.text, label).not.toMatch(INTERNALS);
          const errors = (r.body.errors ?? []) as { message: string; extensions?: { code?: string } }[];
          for (const e of errors) {
            expect(e.message, label).toBeTypeOf("string");
            expect(GRAPHQL_CODES.has(e.extensions?.code ?? ""), label).toBe(true);
          }
          const refused = errors.length > 0 && (r.body.data == null || r.body.data[field.name] == null);
          if (refused) expect(await rowCounts(), `${field.name}: a refusal wrote`).toEqual(before);
        }),
        { numRuns: GRAPHQL_RUNS, seed: SEED, endOnFailure: true },
      );
    }
  });

  it("malformed GraphQL requests", async () => {
    const bodies: unknown[] = [
      null,
      [],
      "query",
      1,
      { query: 1 },
      { query: "{" },
      { query: "{ workspace { plan } }", variables: "x" },
      { query: "{ workspace { plan } }", variables: [] },
      { query: "{ workspace { plan } }", operationName: 5 },
      { query: "{ workspace { plan } }", extensions: "x" },
      { query: "\u0000" },
      { query: "{ a" + "{ b".repeat(2000) },
    ];
    for (const body of bodies) {
      const r = await request(api.url, "POST", "/graphql", { key, body });
      const label = `${JSON.stringify(body).slice(0, 80)} → ${r.status} ${r.text.slice(0, 200)}`;
      expect(GRAPHQL_STATUSES, label).toContain(r.status);
      expect(r.text, label).not.toMatch(INTERNALS);
      for (const e of r.body?.errors ?? []) expect(GRAPHQL_CODES.has(e.extensions?.code ?? ""), label).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// People: /auth and the person-only GraphQL operations, with a session

/** The person-only GraphQL operations (src/http/graphql/types/people.ts), run with the owner's session. */
const PERSON_FIELDS = [
  "selectWorkspace",
  "createInvitation",
  "revokeInvitation",
  "acceptInvitation",
  "changeMemberRole",
  "removeMember",
  "revokeSession",
  "invitation",
  "members",
  "invitations",
  "auditLog",
];
const AUTH_STATUSES = [200, 400, 401, 403, 404, 409, 413, 415, 429];

describe("people: /auth and the person-only operations", () => {
  const email = fc.oneof(fc.constantFrom("owner@example.com", "member@example.com", "OWNER@example.com", "new@example.com"), hostileString);
  const password = fc.oneof(fc.constant(PASSWORD), hostileString);
  const authBodies: [string, fc.Arbitrary<unknown>][] = [
    ["/auth/sign-in/email", fc.record({ email, password, rememberMe: fc.option(hostileJson, { nil: undefined }) }, { requiredKeys: [] })],
    [
      "/auth/sign-up/email",
      fc.record(
        { email, password, name: hostileString, invitationToken: fc.option(hostileString, { nil: undefined }) },
        { requiredKeys: [] },
      ),
    ],
    ["/auth/reset-password", fc.record({ newPassword: password, token: hostileString }, { requiredKeys: [] })],
    ["/auth/change-password", fc.record({ currentPassword: password, newPassword: password }, { requiredKeys: [] })],
  ];

  it.each(authBodies)(
    "POST %s with hostile bodies: never a 5xx, always {code, message}, nothing written on a refusal",
    async (path, bodies) => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof({ weight: 5, arbitrary: bodies }, { weight: 1, arbitrary: hostileJson }),
          encoding,
          rawBody,
          async (body, how, raw) => {
            const headers: Record<string, string> = { origin: api.url };
            let payload: string | Buffer = JSON.stringify(body ?? {});
            if (how === "raw") payload = raw;
            if (how === "big") payload = JSON.stringify({ padding: "x".repeat(1_048_600) });
            if (how === "json" || how === "raw" || how === "big") headers["content-type"] = "application/json";
            else if (how === "text/plain") headers["content-type"] = "text/plain";
            else if (how === "form") headers["content-type"] = "application/x-www-form-urlencoded";
            else if (how === "vnd+json") headers["content-type"] = "application/vnd.api+json";
            const before = await rowCounts();
            const r = await request(api.url, "POST", path, { rawBody: payload, headers });
            const label = `${path} ${how} ${typeof payload === "string" ? payload.slice(0, 150) : ""} → ${r.status} ${r.text.slice(0, 300)}`;
            expect(AUTH_STATUSES, label).toContain(r.status);
            expect(r.text, label).not.toMatch(INTERNALS);
            if (r.status >= 400) {
              expect(CODES.has(r.body?.code), label).toBe(true);
              expect(ERROR_STATUS[r.body.code as keyof typeof ERROR_STATUS], label).toBe(r.status);
              expect(r.body.message, label).toBeTypeOf("string");
              // A failed sign-in of a real person is audited (after the answer): only the audit log may grow.
              const { audit_log: _a, ...after } = await rowCounts();
              const { audit_log: _b, ...was } = before;
              expect(after, `${label}: a refusal wrote`).toEqual(was);
            }
          },
        ),
        { numRuns: REST_RUNS, seed: SEED, endOnFailure: true },
      );
    },
  );

  it("person-only GraphQL operations with the owner's session: never a 5xx, known codes, nothing written on a refusal", async () => {
    const { schema } = await import("../../src/http/graphql/schema.js");
    const all = [
      ...Object.values(schema.getQueryType()!.getFields()).map((field) => ({ kind: "query" as const, field })),
      ...Object.values(schema.getMutationType()!.getFields()).map((field) => ({ kind: "mutation" as const, field })),
    ];
    const mine = all.filter(({ field }) => PERSON_FIELDS.includes(field.name));
    expect(mine.map(({ field }) => field.name).sort()).toEqual([...PERSON_FIELDS].sort());
    for (const { kind, field } of mine) {
      const query = operationFor(kind, field);
      const variables = fc
        .tuple(...field.args.map((a) => fc.option(graphqlValue(a.type), { nil: undefined, freq: 6 }).map((v) => [a.name, v] as const)))
        .map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== undefined)));
      await fc.assert(
        fc.asyncProperty(variables, async (vars) => {
          const before = await rowCounts();
          const r = await owner.gql(query, vars);
          const label = `${field.name} ${JSON.stringify(vars)?.slice(0, 200)} → ${r.status} ${r.text.slice(0, 300)}`;
          expect(GRAPHQL_STATUSES, label).toContain(r.status);
          expect(r.text, label).not.toMatch(INTERNALS);
          const errors = (r.body.errors ?? []) as { extensions?: { code?: string } }[];
          for (const e of errors) expect(GRAPHQL_CODES.has(e.extensions?.code ?? ""), label).toBe(true);
          if (errors.length > 0 && (r.body.data == null || r.body.data[field.name] == null))
            expect(await rowCounts(), `${field.name}: a refusal wrote`).toEqual(before);
        }),
        { numRuns: GRAPHQL_RUNS, seed: SEED, endOnFailure: true },
      );
    }
  });
});
