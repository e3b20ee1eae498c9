/**
 * The outbound budget of yt-dlp calls: at most N calls per platform per minute for the whole
 * deployment, every worker process together (YTDLP_CONCURRENCY bounds one process only). The
 * count lives in Redis (rate-limiter-flexible's RateLimiterRedis: an atomic counter per platform
 * and window under REDIS_PREFIX), so any number of workers share it.
 *
 * When the platform's budget is spent, a call waits for the next window (the job keeps its worker
 * slot and its lock; nothing is lost). A call that would wait longer than `maxWaitMs` in all fails
 * with a retryable ProviderError instead: its job is retried with the queue's backoff. Budget
 * trouble never reaches the platform: an unreachable Redis fails the call (retryable) rather than
 * letting it go out unbudgeted.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Cluster, Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { Platform } from "../domain/shared/platform.ts";
import { ProviderError } from "../domain/shared/provider-error.ts";

export interface OutboundBudget {
  /** Waits for one call's turn in the platform's budget (ProviderError when it cannot get one). */
  take(platform: Platform, signal?: AbortSignal): Promise<void>;
}

export interface RedisBudgetOptions {
  /** One Redis or a cluster: the budget of a platform is one key (one slot). */
  redis: Redis | Cluster;
  /** Redis key prefix: every process of a deployment uses the same one, and so shares the budget. */
  keyPrefix: string;
  /** Calls per window for each platform; 0 (or absent) is no budget for that platform. */
  perWindow: Partial<Record<Platform, number>>;
  /** The window, in whole seconds (60: calls per minute). */
  windowSeconds?: number;
  /** The longest a call waits for its turn before failing (retryable). */
  maxWaitMs: number;
  /** Names the provider in errors. */
  provider?: string;
}

export function redisOutboundBudget(opts: RedisBudgetOptions): OutboundBudget {
  const provider = opts.provider ?? "ytdlp";
  const limiters = new Map<Platform, RateLimiterRedis>();
  const limiterOf = (platform: Platform): RateLimiterRedis | null => {
    const points = opts.perWindow[platform] ?? 0;
    if (points <= 0) return null;
    let limiter = limiters.get(platform);
    if (!limiter) {
      limiter = new RateLimiterRedis({ storeClient: opts.redis, keyPrefix: opts.keyPrefix, points, duration: opts.windowSeconds ?? 60 });
      limiters.set(platform, limiter);
    }
    return limiter;
  };
  return {
    async take(platform, signal) {
      const limiter = limiterOf(platform);
      if (!limiter) return;
      const started = Date.now();
      const cancelled = () => new ProviderError(provider, "the call was cancelled while it waited for its budget", true);
      for (;;) {
        if (signal?.aborted) throw cancelled();
        let refused: RateLimiterRes;
        try {
          await limiter.consume(platform);
          return;
        } catch (e) {
          if (!(e instanceof RateLimiterRes))
            throw new ProviderError(provider, `the ${platform} call budget could not be checked (${(e as Error).message})`, true, {
              cause: e,
            });
          refused = e;
        }
        // Spread the waiters of every process over the next window's first moments.
        const wait = refused.msBeforeNext + Math.floor(Math.random() * 250);
        if (Date.now() - started + wait > opts.maxWaitMs) {
          throw new ProviderError(
            provider,
            `the ${platform} call budget (${limiter.points} per ${limiter.duration} s) is spent; retrying later`,
            true,
          );
        }
        await sleep(wait, undefined, signal ? { signal } : {}).catch(() => {
          throw cancelled();
        });
      }
    },
  };
}
