/**
 * JSON POSTs to /graphql, the requests every client sends (the dashboard, Relay, urql, scripts), and
 * GETs with the operation in the query string (what CDNs and HTTP caches can keep), read and answered on
 * node:http beside Yoga's request path, with the same rules and the same answers.
 *
 * Why: Yoga serves a request through the fetch API (a Request made from the Node request, its
 * Headers, a body read through a web stream, a Response made and then copied back to Node) and its
 * own onRequest hooks. On the ladder (bench/ladder/README.md) that path alone cost what separates
 * the bare yoga floor from Fastify + Mercurius, about 0.14 ms of a 0.9 ms list request.
 *
 * What stays Yoga's: everything about the operation. The parameters go through Yoga's
 * `getResultForParams` (its onParams hooks: the parameter checks, trusted documents; then its
 * envelop: parse and validation caches, our limits, idempotency, metrics, graphql-jit; then its
 * onExecutionResult hooks), and the answer is chosen by Yoga's onResultProcess hooks and written by
 * its result processor (status, content type, serialisation). Only the transport is ours.
 *
 * SSE answers (`Accept: text/event-stream`: live subscriptions, or any operation asked so) are
 * written by ./event-stream.ts, the bytes still made by Yoga's SSE processor.
 *
 * What goes to Yoga whole: any other method, content type, a body without a Content-Length or over
 * the limit, an Accept that names multipart/mixed (@defer over multipart), a body that is not
 * one JSON object; a GET without a query string or asking for a page (text/html: GraphiQL), or whose
 * variables or extensions are not JSON; a refusal of the credential (remembered, so Yoga answers it
 * without asking again). The equivalence is tested request by request against Yoga's own answers
 * (test/graphql/json-post.test.ts); GRAPHQL_DIRECT_POST=false turns this off for both methods.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { GraphQLError } from "graphql";
import type { ExecutionResult } from "graphql";
import { sendNodeResponse } from "@whatwg-node/server";
import { processRegularResult } from "graphql-yoga";
import { BODY_LIMIT_BYTES } from "../request-context.ts";
import { admitHttpRequest, type TransportContext } from "./admission.ts";
import type { GraphQLServer } from "./yoga.ts";
import { capturing, type EventStreamAnswer, writeEventStream } from "./event-stream.ts";
import { unreadStreamCutAfterMs } from "./subscriptions.ts";
import { streamEndsInTurn } from "./fan-out.ts";
import { logger } from "../../infra/logger.ts";

const EVENT_STREAM = "text/event-stream";

const JSON_TYPE = /^application\/json[ \t]*(?:;[ \t]*charset="?utf-8"?[ \t]*)?$/i;
const CONTENT_LENGTH = /^\d+$/;
/** Accept values this path leaves to Yoga: multipart answers (SSE ones are written by ./event-stream.ts). */
const MULTIPART_ACCEPT = /multipart\/mixed/i;

/** Whether the request is a plain JSON POST this path reads (from its headers alone). */
function isPlainJsonPost(req: IncomingMessage): boolean {
  if (req.method !== "POST") return false;
  const h = req.headers;
  const type = h["content-type"];
  const length = h["content-length"];
  if (!type || !JSON_TYPE.test(type) || !length || !CONTENT_LENGTH.test(length) || Number(length) > BODY_LIMIT_BYTES) return false;
  if (h["transfer-encoding"] !== undefined) return false;
  const accept = h.accept;
  return accept === undefined || !MULTIPART_ACCEPT.test(accept);
}

/** Whether the request is a GET this path reads: its parameters in the query string, an answer that is one JSON body. */
function isPlainGet(req: IncomingMessage): boolean {
  if (req.method !== "GET" || !req.url?.includes("?")) return false;
  const accept = req.headers.accept;
  return accept === undefined || !(MULTIPART_ACCEPT.test(accept) || accept.includes("text/html"));
}

/**
 * A GET's parameters as Yoga reads them (graphql-yoga's handleURLSearchParams): the four GraphQL
 * parameters, variables and extensions as JSON; undefined when one of those is not JSON (Yoga answers that).
 */
function paramsOfQueryString(url: string): Record<string, unknown> | undefined {
  const search = new URLSearchParams(url.slice(url.indexOf("?") + 1));
  const json = (name: string) => {
    const text = search.get(name) || undefined;
    return text === undefined ? undefined : JSON.parse(text);
  };
  try {
    return {
      operationName: search.get("operationName") || undefined,
      query: search.get("query") || undefined,
      variables: json("variables"),
      extensions: json("extensions"),
    };
  } catch {
    return undefined;
  }
}

/**
 * The whole body, as its chunks arrived (node:stream/consumers' `buffer` goes through a Blob, which
 * showed in the list's profile). Rejects when the client goes before the end (ECONNRESET, aborted).
 */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once("error", reject);
    req.once("close", () => {
      if (!req.complete) reject(new Error("the client went before the end of its body"));
    });
  });
}

/** The Node request as much of a fetch Request as Yoga's hooks read: method, url, headers.get/has. */
function requestView(req: IncomingMessage) {
  const header = (name: string): string | null => {
    const v = req.headers[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  };
  return {
    method: req.method ?? "POST",
    url: `http://${req.headers.host ?? "localhost"}${req.url ?? "/graphql"}`,
    headers: { get: header, has: (name: string) => header(name) !== null },
  };
}

interface Answer {
  body: string | null;
  init: { status: number; statusText?: string; headers: Record<string, string> };
}

/** A fetch API whose Response only records what Yoga's regular result processor answers. */
const recording = {
  Response: class implements Answer {
    readonly body: string | null;
    readonly init: Answer["init"];
    constructor(body: string | null, init: Answer["init"]) {
      this.body = body;
      this.init = init;
    }
  },
};

type ResultProcessor = (result: unknown, fetchAPI: unknown, mediaType: string) => unknown;
type ResultProcessHook = (payload: Record<string, unknown>) => unknown;

/** Yoga's members this path uses (public on the server object its adapter wraps, not in its types). */
interface YogaInternals {
  getResultForParams(payload: { params: unknown; request: unknown }, context: TransportContext): Promise<unknown>;
  onResultProcessHooks: ResultProcessHook[];
  maskedErrorsOpts: {
    maskError: (error: unknown, message: string, isDev?: boolean) => Error;
    errorMessage: string;
    isDev?: boolean;
  } | null;
  fetchAPI: { Request: typeof Request };
  fetch: (request: Request, context: TransportContext) => Promise<Response>;
}

/** Yoga's handling of an error thrown before execution (graphql-yoga's handleError, which it does not export). */
function asResult(yoga: YogaInternals, error: unknown): ExecutionResult {
  const errors =
    error && typeof error === "object" && "errors" in error && Array.isArray(error.errors) ? (error.errors as unknown[]) : [error];
  const masked = errors.map((e) => {
    const opts = yoga.maskedErrorsOpts;
    const m = opts ? opts.maskError(e, opts.errorMessage, opts.isDev) : e;
    return m instanceof GraphQLError
      ? m
      : new GraphQLError(m instanceof Error ? m.message : String(m), { originalError: m instanceof Error ? m : undefined });
  });
  return { errors: masked };
}

/** How many requests this path answered itself (test/graphql/json-post.test.ts checks it is used). */
export const directlyAnswered = { count: 0 };

function send(res: ServerResponse, answer: Answer): void {
  directlyAnswered.count++;
  const headers: Record<string, string | number> = { ...answer.init.headers };
  if (answer.body !== null) headers["Content-Length"] = Buffer.byteLength(answer.body);
  // Without a reason phrase when there is none: on-headers (the page headers of a GET, ../request-context.ts) reads
  // `writeHead(status, undefined, headers)` as a call without headers, and they were lost.
  if (answer.init.statusText === undefined) res.writeHead(answer.init.status, headers);
  else res.writeHead(answer.init.status, answer.init.statusText, headers);
  res.end(answer.body ?? undefined);
}

/**
 * The handler: a plain JSON POST is answered here; anything else by Yoga, and so is a body read here
 * that is not one JSON object (handed over as a fetch Request, `toYoga`).
 */
export function directJsonPost(server: GraphQLServer) {
  const yoga = server as unknown as YogaInternals;

  async function toYoga(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const request = new yoga.fetchAPI.Request(requestView(req).url, { method: "POST", headers, body: new Uint8Array(body) });
    await sendNodeResponse(await yoga.fetch(request, { req, res }), res, req, true);
  }

  /**
   * A client gone mid-body (its socket is closed: nothing to answer), or an unexpected failure here:
   * masked as Yoga masks it (logged, with a request id) and written by Yoga's result processor, with the
   * status of the masked error (e.g. 503), else 500.
   */
  async function failed(res: ServerResponse, e: unknown): Promise<void> {
    if (!res.headersSent && !res.destroyed)
      send(res, (await (processRegularResult as ResultProcessor)(asResult(yoga, e), recording, "application/json")) as Answer);
  }

  async function answer(req: IncomingMessage, res: ServerResponse, params: unknown): Promise<void> {
    const request = requestView(req);
    const context: TransportContext = { req, res };
    let result: unknown;
    try {
      result = await yoga.getResultForParams({ params, request }, context);
    } catch (e) {
      result = asResult(yoga, e);
    }
    let processor: ResultProcessor | undefined;
    let mediaType = "*/*";
    const acceptableMediaTypes: string[] = [];
    for (const hook of yoga.onResultProcessHooks) {
      await hook({
        request,
        acceptableMediaTypes,
        result,
        setResult: (r: unknown) => (result = r),
        resultProcessor: processor,
        setResultProcessor: (p: ResultProcessor, type: string) => ((processor = p), (mediaType = type)),
        serverContext: context,
      });
    }
    if (!processor) {
      send(res, {
        body: null,
        init: { status: 406, statusText: "Not Acceptable", headers: { accept: acceptableMediaTypes.join("; charset=utf-8, ") } },
      });
      return;
    }
    if (mediaType === EVENT_STREAM) {
      // SSE: Yoga's processor makes the stream, written here (./event-stream.ts).
      directlyAnswered.count++;
      streamEndsInTurn(req, res); // as server.ts does from the Accept header, which may have been `*/*`
      const stream = (await processor(result, capturing, mediaType)) as EventStreamAnswer;
      // Not awaited: a live stream lasts as long as its client, and this request's frames (its body, parameters, the
      // hooks' payloads) would be kept with it; its own failures are handled inside.
      void writeEventStream(stream, req, res, { cutAfterMs: unreadStreamCutAfterMs() })
        .catch((e: unknown) => failed(res, e))
        .catch((err: unknown) => logger.warn({ err }, "an SSE stream could not be written"));
      return;
    }
    if (processor !== processRegularResult) {
      // @defer answered as multipart when Accept allows any type: Yoga's own Response.
      await sendNodeResponse((await processor(result, yoga.fetchAPI, mediaType)) as Response, res, req, true);
      return;
    }
    send(res, (await processor(result, recording, mediaType)) as Answer);
  }

  /** A GET: admitted, then answered here from its query string, or handed to Yoga as it came (no body to pass on). */
  async function get(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!(await admitHttpRequest(req, res))) return server(req, res) as unknown as Promise<void>;
    const params = paramsOfQueryString(req.url!);
    if (!params) return server(req, res) as unknown as Promise<void>; // Yoga's 400 for variables that are not JSON
    await answer(req, res, params);
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (isPlainGet(req)) {
      try {
        return await get(req, res);
      } catch (e) {
        return await failed(res, e);
      }
    }
    if (!isPlainJsonPost(req)) return server(req, res) as unknown as Promise<void>;
    try {
      // The credential and its budget first, as Yoga's path does before reading the body (./admission.ts).
      if (!(await admitHttpRequest(req, res))) return server(req, res) as unknown as Promise<void>;
      // The whole body (its Content-Length is within the limit; Node never delivers more). A client gone
      // mid-body, or while it was admitted, rejects it (ECONNRESET).
      const body = await readBody(req);
      let params: unknown;
      try {
        params = JSON.parse(body.toString("utf8"));
      } catch {
        return await toYoga(req, res, body); // Yoga's 400 for invalid JSON
      }
      if (params === null || typeof params !== "object" || Array.isArray(params)) return await toYoga(req, res, body);
      await answer(req, res, params);
    } catch (e) {
      await failed(res, e);
    }
  };
}
