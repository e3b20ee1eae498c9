/**
 * The one way the providers run yt-dlp (scrapes: ../scrape/ytdlp.ts, media: ../media/ytdlp.ts,
 * searches: ../search/ytdlp.ts). Each run:
 *
 * 1. takes a turn of the platform's deployment-wide call budget (YTDLP_CALLS_PER_MINUTE, ../outbound-budget.ts);
 * 2. takes a slot of the process-wide bound on yt-dlp processes (YTDLP_CONCURRENCY): every runner of
 *    the same program and bound shares it, so providers built per job still share one bound;
 * 3. runs the program with `--no-config` (a user's config file cannot change the output parsed
 *    here), a timeout, an output cap and process-group kill (../process.ts);
 * 4. classifies a failure as permanent or retryable (./failures.ts).
 *
 * `jsonLines` parses what `--dump-json`/`--dump-single-json` print: one JSON object per line; any
 * other line means yt-dlp printed something this does not understand (a crash mid-write, a page the
 * platform served instead of data), and the whole answer is refused (retryable) rather than half-read.
 *
 * An operator who needs cookies or a proxy points YTDLP_PATH at a wrapper script that adds them.
 */
import { config } from "../../config.ts";
import type { Platform } from "../../domain/shared/platform.ts";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import type { OutboundBudget } from "../outbound-budget.ts";
import { runProgram, sharedProgramLimit, type RunResult } from "../process.ts";
import { classifyYtdlpFailure } from "./failures.ts";

export type JsonObject = Record<string, unknown>;

export interface YtdlpRunnerOptions {
  /** Names the provider in errors (`ytdlp`, `media:ytdlp`). */
  provider: string;
  /** The yt-dlp program (YTDLP_PATH). */
  path?: string;
  /** Each run's timeout unless the run names its own (YTDLP_TIMEOUT_MS). */
  timeoutMs?: number;
  /** How many yt-dlp processes of this program run at once in this process (YTDLP_CONCURRENCY). */
  concurrency?: number;
  /** The deployment-wide calls-per-platform budget; none when absent. */
  budget?: OutboundBudget;
}

export interface YtdlpRun {
  args: string[];
  /** The platform whose budget the call counts against. */
  platform: Platform;
  maxStdoutBytes: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export class YtdlpRunner {
  readonly provider: string;
  private readonly path: string;
  private readonly timeoutMs: number;
  private readonly limit: ReturnType<typeof sharedProgramLimit>;
  private readonly budget: OutboundBudget | undefined;

  constructor(options: YtdlpRunnerOptions) {
    this.provider = options.provider;
    this.path = options.path ?? config.programs.ytdlp;
    this.timeoutMs = options.timeoutMs ?? config.programs.ytdlpTimeoutMs;
    this.limit = sharedProgramLimit(this.path, options.concurrency ?? config.programs.ytdlpConcurrency);
    this.budget = options.budget;
  }

  /** One yt-dlp run within the platform's budget and the process's bound; a failure is classified (./failures.ts). */
  async run(run: YtdlpRun): Promise<RunResult> {
    await this.budget?.take(run.platform, run.signal);
    return this.limit(async () => {
      try {
        return await runProgram(this.provider, this.path, ["--no-config", ...run.args], {
          timeoutMs: run.timeoutMs ?? this.timeoutMs,
          maxStdoutBytes: run.maxStdoutBytes,
          signal: run.signal,
        });
      } catch (e) {
        throw classifyYtdlpFailure(e);
      }
    });
  }

  /** A run whose output is JSON lines (`what` names the request in errors); `atLeastOne` refuses an empty answer. */
  async jsonLines(run: YtdlpRun & { what: string; atLeastOne?: boolean }): Promise<JsonObject[]> {
    const { stdout } = await this.run(run);
    return parseJsonLines(stdout, run.what, this.provider, run.atLeastOne);
  }
}

/** One JSON object per non-empty line, or a retryable ProviderError naming the first line that is not one. */
function parseJsonLines(stdout: string, what: string, provider = "ytdlp", atLeastOne = false): JsonObject[] {
  const lines = stdout
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const refuse = (why: string) => new ProviderError(provider, `yt-dlp did not print JSON info for ${what} (${why})`, true);
  if (atLeastOne && lines.length === 0) throw refuse("it printed nothing");
  return lines.map((line) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw refuse(`a line is not a JSON object: ${JSON.stringify(line.slice(0, 80))}`);
    return value as JsonObject;
  });
}
