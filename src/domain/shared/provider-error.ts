/**
 * The one error type providers throw. `retryable` tells the job runner whether a retry with backoff
 * may help (timeouts, 5xx, network) or not (the item does not exist at the source, bad answer twice).
 */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${message}`, options);
    this.name = "ProviderError";
  }
}
