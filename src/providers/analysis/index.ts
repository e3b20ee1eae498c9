/** The content-analysis provider chosen by `ANALYSIS_PROVIDER`. */
import { config } from "../../config.js";
import { HeuristicAnalysisProvider } from "./heuristic.js";
import { OpenAiAnalysisProvider } from "./openai.js";
import type { ContentAnalysisProvider } from "./types.js";

export type { ContentAnalysis, ContentAnalysisProvider, ContentInput } from "./types.js";

export function createContentAnalysisProvider(name: "heuristic" | "openai" = config.providers.analysis): ContentAnalysisProvider {
  switch (name) {
    case "heuristic":
      return new HeuristicAnalysisProvider();
    case "openai":
      return new OpenAiAnalysisProvider();
  }
}
