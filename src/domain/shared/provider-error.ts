/**
 * The one error type providers throw. `retryable` tells the job runner whether a retry with backoff
 * may help (timeouts, 5xx, network) or not (the item does not exist at the source, bad answer twice).
 */
export class ProviderError extends Error {
  readonly provider: string;
  readonly retryable: boolean;
  constructor(provider: string, message: string, retryable: boolean, options?: { cause?: unknown }) {
    super(`${provider}: ${message}`, options);
    this.provider = provider;
    this.retryable = retryable;
    this.name = "ProviderError";
  }
}
