/**
 * The /auth routes: better-auth's own handler (src/domain/people/authentication.ts), mounted on the
 * Express app (docs/contract/decisions.md, "People, sign-in and the dashboard"):
 * `POST /auth/sign-up/email`, `POST /auth/sign-in/email`, `POST /auth/sign-out`,
 * `GET /auth/get-session`, `POST /auth/reset-password`, `POST /auth/revoke-sessions` (sign out
 * everywhere), `POST /auth/change-password` …
 *
 * Around the library, the rules every door shares: a body must be JSON (415) within 1 MiB (413),
 * without NUL or lone surrogates (400); errors are the service's `{code, message}` (the library's
 * own codes become the contract's: a wrong email or password is 401 UNAUTHORIZED, whichever it
 * was); the session token is never repeated in a JSON answer (it lives in the HttpOnly cookie
 * only); the client's address and the request's scheme are the ones TRUST_PROXY vouches for.
 * Cross-site requests are refused by the library itself: a cookie-carrying POST must come with an
 * Origin (or Referer) of the service.
 */
import express, { type NextFunction, type Request, type Response } from "express";
import { toNodeHandler } from "better-auth/node";
import { authFor, CLIENT_ADDRESS_HEADER } from "../../domain/people/authentication.ts";
import { ERROR_STATUS, validationError, type ErrorCode } from "../../domain/shared/errors.ts";
import { rejectUnstorableStrings } from "../../domain/shared/unstorable.ts";
import { logger } from "../../infra/logger.ts";
import { BODY_LIMIT_BYTES, rememberMount } from "../request-context.ts";
import { requireJsonBody } from "../middleware.ts";
import { cameOverHttps, clientAddress } from "../who-is-asking.ts";

/** The library's error codes that are not simply their HTTP status, as the contract's codes. */
const LIBRARY_CODES: Record<string, ErrorCode> = {
  INVALID_EMAIL_OR_PASSWORD: "UNAUTHORIZED",
  USER_ALREADY_EXISTS: "EMAIL_TAKEN",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "EMAIL_TAKEN",
  FAILED_TO_CREATE_USER: "EMAIL_TAKEN",
};

const BY_STATUS: Record<number, ErrorCode> = {
  400: "VALIDATION_ERROR",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "EMAIL_TAKEN",
  422: "VALIDATION_ERROR",
  429: "RATE_LIMITED",
  503: "SERVICE_UNAVAILABLE",
};

const isErrorCode = (code: unknown): code is ErrorCode => typeof code === "string" && code in ERROR_STATUS;

function errorBody(status: number, body: { code?: unknown; message?: unknown; details?: unknown } | null, path: string) {
  const code: ErrorCode = isErrorCode(body?.code)
    ? body.code
    : (LIBRARY_CODES[String(body?.code)] ?? BY_STATUS[status] ?? "INTERNAL_ERROR");
  const message =
    code === "UNAUTHORIZED" && path.endsWith("/sign-in/email")
      ? "Invalid email or password."
      : status === 404 && !body
        ? `No route for ${path}.`
        : typeof body?.message === "string" && body.message
          ? body.message
          : code === "INTERNAL_ERROR"
            ? "An unexpected error occurred."
            : code;
  return { status: ERROR_STATUS[code], body: { code, message, ...(Array.isArray(body?.details) ? { details: body.details } : {}) } };
}

/** The session token lives in the HttpOnly cookie; JSON answers do not repeat it. */
function withoutTokens(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(withoutTokens);
  if (!body || typeof body !== "object") return body;
  const { token: _token, ...rest } = body as Record<string, unknown>;
  if (rest.session && typeof rest.session === "object") rest.session = withoutTokens(rest.session);
  return rest;
}

async function translate(response: Response | globalThis.Response, path: string): Promise<globalThis.Response> {
  const res = response as globalThis.Response;
  const headers = new Headers(res.headers);
  const isJson = (headers.get("content-type") ?? "").includes("application/json");
  if (res.status < 400) {
    if (!isJson) return res;
    const text = await res.text();
    const body = text ? withoutTokens(JSON.parse(text)) : null;
    headers.delete("content-length");
    return new globalThis.Response(JSON.stringify(body), { status: res.status, headers });
  }
  const parsed = isJson ? ((await res.json().catch(() => null)) as Record<string, unknown> | null) : null;
  const { status, body } = errorBody(res.status, parsed, path);
  if (status >= 500) logger.warn({ path, status: res.status, body: parsed }, "the authentication library failed a request");
  headers.set("content-type", "application/json; charset=utf-8");
  headers.delete("content-length");
  if (status === 429 && !headers.has("retry-after") && headers.has("x-retry-after"))
    headers.set("retry-after", headers.get("x-retry-after")!);
  return new globalThis.Response(JSON.stringify(body), { status, headers });
}

async function serve(req: Request, res: Response): Promise<void> {
  const https = cameOverHttps(req);
  // What the library reads about the client comes from the door, never from the client.
  const address = clientAddress(req);
  if (address) req.headers[CLIENT_ADDRESS_HEADER] = address;
  else delete req.headers[CLIENT_ADDRESS_HEADER];
  req.headers["x-forwarded-proto"] = https ? "https" : "http";
  const auth = await authFor(https);
  const path = `${req.method} ${req.baseUrl}${req.path}`;
  await toNodeHandler(async (request: globalThis.Request) => translate(await auth.handler(request), path))(req, res);
}

/**
 * What the library is handed: strings without NUL or lone surrogates, and a body that is a flat
 * JSON object (every field of these routes is a string, a boolean or a number): anything else is
 * 400 VALIDATION_ERROR here, so no nesting reaches the library's parser (a body nested 50,000 deep
 * overflowed its stack: a 500).
 */
function checkInput(req: Request, _res: Response, next: NextFunction): void {
  rejectUnstorableStrings(req.query, "query");
  const body: unknown = req.body;
  if (body !== undefined) {
    const flat =
      body !== null &&
      typeof body === "object" &&
      !Array.isArray(body) &&
      Object.values(body).every((v) => v === null || typeof v !== "object");
    if (!flat)
      throw validationError("Invalid request: the body must be a JSON object of strings, numbers and booleans.", [
        { path: "body", message: "must be a flat JSON object" },
      ]);
    rejectUnstorableStrings(body, "body");
  }
  next();
}

/** `app.use("/auth", authRoutes())`. */
export function authRoutes(): express.Router {
  const router = express.Router();
  router.use(rememberMount, requireJsonBody, express.json({ limit: BODY_LIMIT_BYTES, type: () => true }), checkInput, (req, res, next) => {
    serve(req, res).catch(next);
  });
  return router;
}
