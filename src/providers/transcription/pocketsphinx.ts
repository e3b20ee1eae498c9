/**
 * Offline speech recognition with CMU pocketsphinx (`pocketsphinx_continuous`, US English model).
 * `-time yes` makes it print every recognised word with its start and end time and its posterior
 * probability after each utterance's hypothesis; the words are grouped into segments at pauses.
 *
 * It knows English only, and any sound comes out as English words from its dictionary: Japanese speech,
 * French speech or singing become English-looking noise ("on the t r the chinese on the chinese"). So the
 * transcript says how far to trust it (the analysis's gate is src/domain/analysis/speech.ts):
 * - `confidence`: the words' posteriors, each weighted by how long the word lasts (measured here: real
 *   English recordings 0.61-0.82; espeak-ng's French 0.45, Japanese 0.22, its English, which pocketsphinx
 *   mishears, 0.31);
 * - `doubt`, when the words do not read as English: mostly fillers and repeats ("oh oh oh", "la la la", what
 *   music and other languages give), or letter statistics (franc) of another language over a long enough text;
 * - `language`: "en" (assumed: the only one it knows), or null when in doubt.
 */
import { config } from "../../config.ts";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import { isSpeechWav, readWavInfo } from "../media/wav.ts";
import { runProgram } from "../process.ts";
import { francAll } from "franc-min";
import { joinSegments, roundSeconds } from "./segments.ts";
import type { Segment, Transcript, TranscriptionProvider } from "../../domain/analysis/ports.ts";

const PROVIDER = "transcription:pocketsphinx";

export interface PocketsphinxOptions {
  programPath: string;
  /** Base time allowed; one second per second of audio is added, since decoding time grows with length. */
  timeoutMs: number;
  /** A pause at least this long (seconds) between two words starts a new segment. */
  pauseSeconds: number;
  /** A segment is closed at the next word once it is this long (seconds). */
  maxSegmentSeconds: number;
}

function pocketsphinxDefaults(): PocketsphinxOptions {
  return { programPath: config.programs.pocketsphinx, timeoutMs: config.media.timeoutMs, pauseSeconds: 0.5, maxSegmentSeconds: 8 };
}

export class PocketsphinxTranscriber implements TranscriptionProvider {
  readonly name = "pocketsphinx" as const;
  private readonly opts: PocketsphinxOptions;

  constructor(options: Partial<PocketsphinxOptions> = {}) {
    this.opts = { ...pocketsphinxDefaults(), ...options };
  }

  async transcribe(wavPath: string, { signal }: { signal?: AbortSignal } = {}): Promise<Transcript> {
    const info = await readWavInfo(wavPath).catch((e: unknown) => {
      throw new ProviderError(PROVIDER, `cannot read ${wavPath}: ${(e as Error).message}`, false, { cause: e });
    });
    // The model is trained on 16 kHz audio: any other format gives confident nonsense, not an error.
    if (!isSpeechWav(info)) throw new ProviderError(PROVIDER, `${wavPath} is not a 16 kHz mono 16-bit PCM WAV file`, false);
    const { stdout } = await runProgram(PROVIDER, this.opts.programPath, ["-infile", wavPath, "-logfn", "/dev/null", "-time", "yes"], {
      timeoutMs: this.opts.timeoutMs + Math.ceil(info.durationSeconds * 1000),
      signal,
      maxStdoutBytes: 16 * 1024 * 1024,
    });
    return parsePocketsphinxOutput(stdout, this.opts);
  }
}

export interface TimedWord {
  word: string;
  start: number;
  end: number;
  /** The word's posterior probability, 0-1. */
  posterior: number;
}

/** `word start end confidence`, e.g. `forward 0.650 1.170 0.996705`. */
const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?(?:e-?\d+)?)$/i;
/** Silence, sentence markers and noise tokens (`<s>`, `</s>`, `<sil>`, `[NOISE]`, `++UH++`). */
const FILLER = /^(<.*>|\[.*\]|\+\+.*\+\+)$/;

/**
 * Turns pocketsphinx_continuous output into a transcript. Each utterance is a hypothesis line
 * followed by its timed words; the timed words are authoritative. Alternative pronunciations are
 * marked `word(2)` and lose the marker.
 */
export function parsePocketsphinxOutput(
  stdout: string,
  opts: Pick<PocketsphinxOptions, "pauseSeconds" | "maxSegmentSeconds"> = pocketsphinxDefaults(),
): Transcript {
  const utterances: TimedWord[][] = [];
  let current: TimedWord[] | null = null;
  const hypotheses: string[] = [];
  for (const line of stdout.split("\n").map((l) => l.trim())) {
    const m = WORD_LINE.exec(line);
    if (!m) {
      if (line) hypotheses.push(line);
      continue;
    }
    const token = m[1]!;
    if (token === "<s>" || !current) utterances.push((current = []));
    if (token === "</s>") current = null;
    if (FILLER.test(token)) continue;
    const posterior = Math.min(1, Math.max(0, Number(m[4])));
    current?.push({ word: token.replace(/\(\d+\)$/, ""), start: Number(m[2]), end: Number(m[3]), posterior });
  }
  const segments = utterances.flatMap((words) => groupWords(words, opts));
  if (segments.length === 0 && hypotheses.length > 0) {
    // Without word timings (an older build ignoring -time) keep the text, untimed, rather than nothing.
    const text = hypotheses.join(" ");
    const doubt = englishDoubt(text);
    return { text, segments: [], language: doubt ? null : "en", languageAssumed: true, confidence: null, doubt };
  }
  const text = joinSegments(segments);
  const doubt = englishDoubt(text);
  return { text, segments, language: doubt ? null : "en", languageAssumed: true, confidence: wordConfidence(utterances.flat()), doubt };
}

/** The words' posteriors weighted by their durations; null without words. */
export function wordConfidence(words: TimedWord[]): number | null {
  let weighted = 0;
  let total = 0;
  for (const w of words) {
    const seconds = Math.max(0.01, w.end - w.start);
    weighted += w.posterior * seconds;
    total += seconds;
  }
  return total > 0 ? Math.round((weighted / total) * 1000) / 1000 : null;
}

/** Words that carry no meaning of their own: what the recogniser writes for sounds it cannot place. */
const FILLERS = new Set(["oh", "ah", "uh", "um", "hmm", "mm", "huh", "eh", "ha", "la", "na", "da", "yeah"]);
/** More than this share of fillers and immediate repeats: not speech the recogniser could read. */
const MAX_NOISE_SHARE = 0.4;
/** Letters franc needs before its guess says something (a short English phrase may be guessed Dutch). */
const FRANC_MIN_LETTERS = 40;

/**
 * Why `text` does not read as English, in words; null when nothing is in doubt. Every word is in the
 * recogniser's dictionary, so a dictionary check says nothing: the shape of the text does.
 */
export function englishDoubt(text: string): string | null {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const noise = words.filter((w, i) => FILLERS.has(w) || (i > 0 && w === words[i - 1])).length;
  if (words.length >= 3 && noise / words.length > MAX_NOISE_SHARE) {
    return `are mostly fillers and repeats (${noise} of ${words.length}), which is what music and speech in another language give`;
  }
  const letters = text.replace(/[^a-z]/gi, "").length;
  if (letters >= FRANC_MIN_LETTERS) {
    const [best, ...rest] = francAll(text, { minLength: FRANC_MIN_LETTERS });
    const english = best?.[0] === "eng" ? 1 : (rest.find(([code]) => code === "eng")?.[1] ?? 0);
    if (best && best[0] !== "und" && best[0] !== "eng" && english < 0.75) {
      return `do not read as English (their letter statistics are closest to ${best[0]}, English scores ${english.toFixed(2)} of that)`;
    }
  }
  return null;
}

/** Splits one utterance's words into segments at pauses and at the maximum segment length. */
function groupWords(words: TimedWord[], opts: Pick<PocketsphinxOptions, "pauseSeconds" | "maxSegmentSeconds">): Segment[] {
  const groups: TimedWord[][] = [];
  for (const word of words) {
    const group = groups.at(-1);
    const last = group?.at(-1);
    const split = !group || !last || word.start - last.end >= opts.pauseSeconds || word.start - group[0]!.start >= opts.maxSegmentSeconds;
    if (split) groups.push([word]);
    else group.push(word);
  }
  return groups.map((g) => ({
    start: roundSeconds(g[0]!.start),
    end: roundSeconds(g.at(-1)!.end),
    text: g.map((w) => w.word).join(" "),
  }));
}
