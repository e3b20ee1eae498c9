/**
 * Typed domain errors. Services throw these; REST maps them to `{code, message}` with the status
 * below and GraphQL to errors with `extensions.code`. Codes and statuses are the table of docs/contract/decisions.md (Errors not shown in the spec).
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_URL: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_CREDITS: 402,
  VIDEO_LIMIT_REACHED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  ALREADY_TRACKED: 409,
  KEY_LIMIT_REACHED: 409,
  WEBHOOK_LIMIT_REACHED: 409,
  ALREADY_MEMBER: 409,
  EMAIL_TAKEN: 409,
  INVITATION_NOT_PENDING: 409,
  LAST_OWNER: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  REFRESH_TOO_SOON: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  WEBHOOKS_NOT_CONFIGURED: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
}

export class DomainError extends Error {
  readonly status: number;
  /**
   * Set by errors a client may retry later (REFRESH_TOO_SOON, RATE_LIMITED): every door answers it
   * from here, REST and GraphQL over HTTP as Retry-After, GraphQL also as extensions.retryAfter
   * (src/http/errors.ts, `refusalHeaders`).
   */
  readonly retryAfterSeconds?: number;
  /**
   * Extra fields of the error body a route documents, e.g. POST /accounts' `data.failed` with the
   * handle of a refused account link (src/domain/tracking/urls.ts).
   */
  data?: unknown;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = "DomainError";
    this.status = ERROR_STATUS[code];
  }
}

/** Too few credits. Carries the numbers so each transport can word and shape its answer. */
export class InsufficientCreditsError extends DomainError {
  constructor(
    readonly required: number,
    readonly available: number,
    what: string,
  ) {
    super(
      "INSUFFICIENT_CREDITS",
      `Insufficient credits: ${what} costs ${required} credits and ${available} are available.`,
    );
  }
}

export const notFound = (what: string) => new DomainError("NOT_FOUND", `${what} not found.`);
export const validationError = (message: string, details?: ErrorDetail[]) => new DomainError("VALIDATION_ERROR", message, details);
export const unauthorized = (message = "A valid API key is required (send `Authorization: Bearer svc_sk_...`), or a signed-in session.") =>
  new DomainError("UNAUTHORIZED", message);
