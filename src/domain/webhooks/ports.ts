/**
 * What webhook delivery asks of the outside world: one signed POST to an integrator's URL. A sender
 * applies the target policy (src/domain/shared/public-targets.ts) on the address it actually
 * connects to, at every attempt; it follows no redirect, and bounds the answer's body and the
 * attempt's time.
 */

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The whole attempt (resolve, connect, answer, body) must end within this. */
  timeoutMs: number;
  /** The delivery's job was handed back: the request is abandoned at once (answer: no status). */
  signal?: AbortSignal;
}

export interface WebhookAnswer {
  /** The HTTP status, or null when no answer came (refused target, DNS, connection, timeout). */
  status: number | null;
  /** Why the attempt failed without an answer (or a note on the answer); null on a plain answer. */
  error: string | null;
}

export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookAnswer>;
}
