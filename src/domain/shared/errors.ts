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
  FOLDER_CYCLE: 409,
  FOLDER_TOO_DEEP: 409,
  TAG_EXISTS: 409,
  CAMPAIGN_CLOSED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  REFRESH_TOO_SOON: 429,
  EXPORT_LIMIT_REACHED: 429,
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
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  constructor(code: ErrorCode, message: string, details?: ErrorDetail[]) {
    super(message);
    this.code = code;
    this.details = details;
    this.name = "DomainError";
    this.status = ERROR_STATUS[code];
  }
}

/** Too few credits. Carries the numbers so each transport can word and shape its answer. */
export class InsufficientCreditsError extends DomainError {
  readonly required: number;
  readonly available: number;
  constructor(required: number, available: number, what: string) {
    super("INSUFFICIENT_CREDITS", `Insufficient credits: ${what} costs ${required} credits and ${available} are available.`);
    this.required = required;
    this.available = available;
  }
}

export const notFound = (what: string) => new DomainError("NOT_FOUND", `${what} not found.`);
export const validationError = (message: string, details?: ErrorDetail[]) => new DomainError("VALIDATION_ERROR", message, details);
/**
 * 401: no credential, or (`credentialRefused`) one that was sent and is not valid (unknown, revoked,
 * malformed). The doors answer HTTP's challenge from it (src/http/errors.ts, `refusalHeaders`):
 * `WWW-Authenticate: Bearer`, with `error="invalid_token"` when a credential was refused (RFC 6750, 3.1).
 */
export class UnauthorizedError extends DomainError {
  readonly credentialRefused: boolean;
  constructor(message: string, credentialRefused: boolean) {
    super("UNAUTHORIZED", message);
    this.credentialRefused = credentialRefused;
  }
}

export const unauthorized = (
  message = "A valid API key is required (send `Authorization: Bearer svc_sk_...`), or a signed-in session.",
  credentialRefused = false,
): DomainError => new UnauthorizedError(message, credentialRefused);
