/** The scrape provider chosen by `SCRAPE_PROVIDER` (yt-dlp when installed, else simulated data). */
import { config } from "../../config.js";
import { SimulatedScrapeProvider } from "./simulated.js";
import type { ScrapeProvider } from "./types.js";
import { YtdlpScrapeProvider } from "./ytdlp.js";

export type { AccountRef, ScrapedAccount, ScrapedVideo, ScrapeProvider, VideoRef } from "./types.js";

export function createScrapeProvider(name: "ytdlp" | "simulated" = config.providers.scrape): ScrapeProvider {
  switch (name) {
    case "ytdlp":
      return new YtdlpScrapeProvider();
    case "simulated":
      return new SimulatedScrapeProvider();
  }
}
