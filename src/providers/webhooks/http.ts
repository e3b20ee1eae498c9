/**
 * Outbound webhook delivery over HTTP(S), SSRF-safe (the WebhookSender port,
 * src/domain/webhooks/ports.ts; the target policy, src/domain/shared/public-targets.ts):
 *
 * - `https` only, unless WEBHOOK_ALLOW_PRIVATE=true (then `http` too, and any address).
 * - The host is resolved at every attempt by the socket's own `lookup`: every address it resolves
 *   to must be public (a host with any loopback, private, link-local … address is refused), and the
 *   socket connects to an address that was just checked. Nothing resolves the name a second time
 *   between the check and the connect, so DNS rebinding cannot slip a private address in. An IP
 *   literal (which skips `lookup`) is checked before connecting.
 * - One connection per attempt (no pooled socket outlives its check); redirects are never followed
 *   (a 3xx is an answer, and a failed attempt); the answer's body is read up to 64 KiB and dropped;
 *   the whole attempt (resolve, connect, TLS, answer) is bounded by the request's timeout.
 */
import dns, { type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { config } from "../../config.ts";
import type { WebhookAnswer, WebhookRequest, WebhookSender } from "../../domain/webhooks/ports.ts";
import { isPublicAddress, targetProblem } from "../../domain/shared/public-targets.ts";

type Resolver = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export interface HttpWebhookSenderOptions {
  allowPrivate?: boolean;
  /** Name resolution (tests stand in a resolver that answers what they need); default dns.lookup. */
  resolve?: Resolver;
  /** The most bytes of an answer's body read (default 64 KiB). */
  maxResponseBytes?: number;
}

class RefusedTarget extends Error {}

export class HttpWebhookSender implements WebhookSender {
  private readonly allowPrivate: boolean;
  private readonly resolve: Resolver;
  private readonly maxResponseBytes: number;

  constructor(opts: HttpWebhookSenderOptions = {}) {
    this.allowPrivate = opts.allowPrivate ?? config.webhooks.allowPrivate;
    this.resolve = opts.resolve ?? ((host, options, cb) => dns.lookup(host, options, cb));
    this.maxResponseBytes = opts.maxResponseBytes ?? 64 * 1024;
  }

  /** The socket's lookup: resolve, refuse non-public answers, hand the checked addresses to connect. */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 4);
      const list = addresses ?? [];
      if (list.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 4);
      if (!this.allowPrivate) {
        const bad = list.find((a) => !isPublicAddress(a.address));
        if (bad) return callback(new RefusedTarget(`refused: ${hostname} resolves to ${bad.address}, not a public address`), "", 4);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };

  async send(req: WebhookRequest): Promise<WebhookAnswer> {
    const problem = targetProblem(req.url, this.allowPrivate);
    if (problem) return { status: null, error: `refused: the URL ${problem}` };
    const url = new URL(req.url);
    const host = url.hostname.replace(/^\[|\]$/g, "");

    const client = url.protocol === "https:" ? https : http;
    return new Promise<WebhookAnswer>((resolve) => {
      let settled = false;
      const done = (a: WebhookAnswer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(a);
      };
      const request = client.request(url, {
        method: "POST",
        headers: { ...req.headers, "content-length": String(Buffer.byteLength(req.body)), connection: "close" },
        agent: false,
        lookup: this.lookup,
        // Answers in a reasonable shape only.
        maxHeaderSize: 16 * 1024,
      });
      const timer = setTimeout(() => {
        request.destroy(new Error(`timed out after ${req.timeoutMs} ms`));
      }, req.timeoutMs);
      // A handed-back job's request stops now (the job runs again elsewhere).
      const abandon = () => request.destroy(new Error("abandoned: the delivery's job was handed back"));
      if (req.signal?.aborted) abandon();
      req.signal?.addEventListener("abort", abandon, { once: true });
      request.on("close", () => req.signal?.removeEventListener("abort", abandon));
      request.on("error", (e) =>
        done({
          status: null,
          error: e instanceof RefusedTarget ? e.message : `${(e as NodeJS.ErrnoException).code ?? "error"}: ${e.message}`,
        }),
      );
      request.on("response", (res) => {
        let read = 0;
        const status = res.statusCode ?? null;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > this.maxResponseBytes) {
            // Enough: the status is the answer; the rest of the body is not read.
            res.destroy();
            request.destroy();
            done({ status, error: null });
          }
        });
        res.on("end", () => done({ status, error: null }));
        res.on("error", (e) => done({ status, error: settled ? null : `answer interrupted: ${e.message}` }));
        res.on("close", () => done({ status, error: null }));
      });
      request.end(req.body);
    });
  }
}
