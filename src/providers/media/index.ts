/** The media provider chosen by `MEDIA_PROVIDER` (which follows `SCRAPE_PROVIDER` when unset). */
import { config } from "../../config.js";
import { SimulatedMediaProvider } from "./simulated.js";
import type { MediaProvider } from "./types.js";
import { YtdlpMediaProvider } from "./ytdlp.js";

export type { MediaInput, MediaProvider, MediaResult } from "./types.js";

export function createMediaProvider(name: "ytdlp" | "simulated" = config.providers.media): MediaProvider {
  switch (name) {
    case "ytdlp":
      return new YtdlpMediaProvider();
    case "simulated":
      return new SimulatedMediaProvider();
  }
}
