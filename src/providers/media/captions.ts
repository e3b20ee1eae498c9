/**
 * Parses platform captions (WebVTT and SubRip, the two formats the yt-dlp provider asks for) into
 * transcript text and timed segments.
 */
import type { Segment } from "../../domain/analysis/ports.ts";
import { collapseWhitespace, joinSegments, roundSeconds } from "../transcription/segments.ts";

export interface ParsedCaptions {
  text: string;
  segments: Segment[];
}

const TIMING = /((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})\s*-->\s*((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})/;

/** `01:02:03.456`, `02:03.456` (WebVTT without hours) or `01:02:03,456` (SubRip) → seconds. */
export function parseTimestamp(stamp: string): number {
  const [clock, fraction = "0"] = stamp.split(/[.,]/);
  const parts = clock!.split(":").map(Number);
  const seconds = parts.reduce((total, part) => total * 60 + part, 0);
  return seconds + Number(fraction.padEnd(3, "0")) / 1000;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", lrm: "", rlm: "" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Removes markup: WebVTT voice/class tags and inline timestamps (`<00:00:01.000>`), SubRip `<i>` and `{\an8}`. */
function cleanCueLine(line: string): string {
  return collapseWhitespace(decodeEntities(line.replace(/<[^>]*>/g, "").replace(/\{\\[^}]*\}/g, "")));
}

/**
 * Parses WebVTT or SubRip text: both are blank-line separated blocks with a `start --> end` line
 * followed by the cue's text. Header, NOTE, STYLE and REGION blocks have no timing line and are skipped.
 *
 * Auto-generated captions (YouTube's "rolling" style) repeat the previous line at the top of each
 * cue; a line equal to the last kept line is therefore dropped, so every word is kept once.
 */
export function parseCaptions(raw: string): ParsedCaptions {
  // Only a truly empty line ends a cue: auto-captions put a line holding a single space inside cues.
  const blocks = raw
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/);
  const segments: Segment[] = [];
  let lastLine = "";
  for (const block of blocks) {
    const lines = block.split("\n");
    const at = lines.findIndex((l) => TIMING.test(l));
    if (at < 0) continue;
    const [, start, end] = TIMING.exec(lines[at]!)!;
    const fresh: string[] = [];
    for (const line of lines.slice(at + 1).map(cleanCueLine)) {
      if (!line || line === lastLine) continue;
      fresh.push(line);
      lastLine = line;
    }
    if (fresh.length === 0) continue;
    segments.push({
      start: roundSeconds(parseTimestamp(start!)),
      end: roundSeconds(parseTimestamp(end!)),
      text: fresh.join(" "),
    });
  }
  return { text: joinSegments(segments), segments };
}
