/**
 * API errors in words. The service answers every error as `{code, message}` (GraphQL:
 * `extensions.code`), and its messages are written for people; the dashboard shows them, and says
 * what to do for the codes where the message alone does not (docs/contract/decisions.md).
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Seconds to wait, for RATE_LIMITED and REFRESH_TOO_SOON (`extensions.retryAfter`, `Retry-After`). */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

interface GraphQLErrorLike {
  message?: string;
  extensions?: { code?: unknown; retryAfter?: unknown };
}

/** The first error of a GraphQL response, as an ApiError. */
export function fromGraphQLErrors(errors: readonly GraphQLErrorLike[], status: number): ApiError {
  const first = errors[0] ?? {};
  const code = typeof first.extensions?.code === "string" ? first.extensions.code : status === 401 ? "UNAUTHORIZED" : "INTERNAL_ERROR";
  const retryAfter = typeof first.extensions?.retryAfter === "number" ? first.extensions.retryAfter : null;
  return new ApiError(code, first.message ?? "The request failed.", retryAfter);
}

/** An HTTP answer that is not a GraphQL result (a proxy's 502, an HTML page, a JSON `{code, message}`). */
export async function fromHttpResponse(res: Response): Promise<ApiError> {
  const retryAfter = Number(res.headers.get("retry-after")) || null;
  try {
    const body = (await res.json()) as { code?: string; message?: string };
    if (body.code) return new ApiError(body.code, body.message ?? res.statusText, retryAfter);
  } catch {
    // not JSON: described by its status below
  }
  if (res.status === 401) return new ApiError("UNAUTHORIZED", "Please sign in.");
  if (res.status >= 500)
    return new ApiError("SERVICE_UNAVAILABLE", `The server answered ${res.status}. Try again in a moment.`, retryAfter);
  return new ApiError("HTTP_" + res.status, `The server answered ${res.status} ${res.statusText}.`, retryAfter);
}

const NEXT_STEP: Record<string, string> = {
  UNAUTHORIZED: "Your session has ended: sign in again.",
  FORBIDDEN: "Only an owner of this workspace can do that.",
  NOT_FOUND: "It does not exist in this workspace (it may have been removed).",
  RATE_LIMITED: "Too many requests: wait a moment and try again.",
  SERVICE_UNAVAILABLE: "The service is unavailable right now: try again in a moment.",
  NETWORK: "Cannot reach the service: check your connection, then try again.",
  FOLDER_TOO_DEEP: "Choose a folder nearer the top, or move some of its sub-folders out first.",
  FOLDER_CYCLE: "Choose a folder outside the one you are moving.",
  TAG_EXISTS: "Use that tag, or choose another name.",
};

/** The words shown for an error: the server's message, and what to do next when it helps. Never a stack. */
export function describeError(error: unknown): { code: string; message: string; nextStep: string | null; retryAfter: number | null } {
  const api = apiErrorOf(error);
  if (api) return { code: api.code, message: api.message, nextStep: NEXT_STEP[api.code] ?? null, retryAfter: api.retryAfter };
  if (error instanceof TypeError) {
    // fetch() rejects with a TypeError when the network fails.
    return { code: "NETWORK", message: "The request did not reach the service.", nextStep: NEXT_STEP.NETWORK, retryAfter: null };
  }
  return {
    code: "UNEXPECTED",
    message: "Something went wrong in the dashboard.",
    nextStep: "Reload the page; if it happens again, report it.",
    retryAfter: null,
  };
}

/** The error a Relay hook or mutation handed us, unwrapped (Relay may wrap the network's error). */
export function apiErrorOf(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof ApiError ? cause : null;
}
