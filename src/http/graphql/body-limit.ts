/**
 * The media-type rule of every door (a body must be JSON: 415 UNSUPPORTED_MEDIA_TYPE) and the 1 MiB body limit of every door (BODY_LIMIT_BYTES, src/http/request-context.ts) on GraphQL over
 * HTTP, answered as REST answers it: 413 PAYLOAD_TOO_LARGE.
 *
 * Why not Yoga's own `maxRequestBodySize`: it pipes every body through a TransformStream inside a
 * new Request (a stream pipeline, an AbortController and a DOMException per request: about a tenth
 * of a small query's CPU in our profiles), even when a Content-Length already bounds the body: Node's
 * HTTP parser never delivers more bytes than the Content-Length says. So a request with a valid
 * Content-Length is checked by its header alone; only a body without one (chunked) is counted as it
 * streams, the way Yoga counts it (graphql-yoga's use-limit-request-body-size.ts, not exported).
 */
import { GraphQLError } from "graphql";
import type { GraphQLParams, Plugin } from "graphql-yoga";
import { BODY_LIMIT_BYTES, UNSUPPORTED_MEDIA_TYPE_MESSAGE, unsupportedBodyMediaType } from "../request-context.ts";

const CONTENT_LENGTH = /^\d+$/;

/**
 * 413, and the connection closed after it: the rest of the body is never read, and a keep-alive
 * connection left half-way through a chunked body stalled the client's next request on it.
 */
function tooLarge(): GraphQLError {
  return new GraphQLError("Request body is larger than 1 MiB.", {
    extensions: { code: "PAYLOAD_TOO_LARGE", http: { status: 413, headers: { Connection: "close" } } },
  });
}

/** The body, counted as it streams: the stream errors with PAYLOAD_TOO_LARGE past the limit. */
function countedBody(request: Request, fetchAPI: { Request: typeof Request; TransformStream: typeof TransformStream }): Request {
  let bytes = 0;
  // A native ReadableStream body needs the native TransformStream (https://github.com/graphql-hive/graphql-yoga/issues/4583).
  const Transform = request.body instanceof ReadableStream ? globalThis.TransformStream : fetchAPI.TransformStream;
  const body = request.body!.pipeThrough(
    new Transform<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        if (bytes > BODY_LIMIT_BYTES) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new fetchAPI.Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    body,
    duplex: "half",
  } as RequestInit);
}

/** 415 for a body that is not declared JSON: the media-type rule of every door (../request-context.ts). */
function unsupportedMediaType(): GraphQLError {
  return new GraphQLError(UNSUPPORTED_MEDIA_TYPE_MESSAGE, { extensions: { code: "UNSUPPORTED_MEDIA_TYPE", http: { status: 415 } } });
}

/** A POST body declared JSON in a form Yoga's own parsers do not match, read as Yoga reads application/json. */
async function parseJsonParams(request: Request): Promise<GraphQLParams> {
  let body: unknown;
  try {
    body = await request.json();
  } catch (e) {
    if (e instanceof GraphQLError) throw e; // PAYLOAD_TOO_LARGE from the counted stream
    throw new GraphQLError("POST body sent invalid JSON.", { extensions: { code: "BAD_REQUEST", http: { status: 400 } } });
  }
  if (body === null || typeof body !== "object") {
    throw new GraphQLError("POST body is expected to be an object.", { extensions: { code: "BAD_REQUEST", http: { status: 400 } } });
  }
  return body as GraphQLParams;
}

export const limitBodySize: Plugin = {
  onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
    if (unsupportedBodyMediaType(request.method, (name) => request.headers.get(name))) throw unsupportedMediaType();
    // JSON that Yoga's parsers do not name (`application/*+json`, a capitalised type): parsed as JSON.
    if (!requestParser && request.method === "POST" && request.body) setRequestParser((requestParser = parseJsonParams));
    const length = request.headers.get("content-length");
    if (length !== null) {
      if (!CONTENT_LENGTH.test(length)) {
        throw new GraphQLError("Content-Length must be one non-negative integer.", {
          extensions: { code: "VALIDATION_ERROR", http: { status: 400 } },
        });
      }
      if (Number(length) > BODY_LIMIT_BYTES) throw tooLarge();
      return;
    }
    if (requestParser && request.body) setRequestParser((req) => requestParser(countedBody(req, fetchAPI)));
  },
};
