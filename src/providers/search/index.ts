/** The radar's search providers (`RADAR_PROVIDERS`) and query expander (openai when configured). */
import { config } from "../../config.js";
import { CatalogSearchProvider } from "./catalog.js";
import { OfflineQueryExpander, OpenAiQueryExpander } from "./expand.js";
import type { QueryExpander, SearchProvider } from "./types.js";
import { YtdlpSearchProvider } from "./ytdlp.js";

export type { QueryExpander, SearchCandidate, SearchProvider, SearchRequest } from "./types.js";

export type SearchProviderName = SearchProvider["name"];

export function createSearchProvider(name: SearchProviderName): SearchProvider {
  switch (name) {
    case "catalog":
      return new CatalogSearchProvider();
    case "ytdlp":
      return new YtdlpSearchProvider();
  }
}

/** One provider per configured name, in the configured order, each once. */
export function createSearchProviders(names: readonly SearchProviderName[] = config.providers.radar): SearchProvider[] {
  return [...new Set(names)].map(createSearchProvider);
}

/** The LLM expander when an OpenAI-compatible server is configured, the offline one otherwise. */
export function createQueryExpander(): QueryExpander {
  return config.openai.baseUrl ? new OpenAiQueryExpander() : new OfflineQueryExpander();
}
