/**
 * Offline speech recognition with CMU pocketsphinx (`pocketsphinx_continuous`, US English model).
 * `-time yes` makes it print every recognised word with its start and end time after each
 * utterance's hypothesis; the words are grouped into segments at pauses.
 */
import { config } from "../../config.ts";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import { isSpeechWav, readWavInfo } from "../media/wav.ts";
import { runProgram } from "../process.ts";
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
    current?.push({ word: token.replace(/\(\d+\)$/, ""), start: Number(m[2]), end: Number(m[3]) });
  }
  const segments = utterances.flatMap((words) => groupWords(words, opts));
  if (segments.length === 0 && hypotheses.length > 0) {
    // Without word timings (an older build ignoring -time) keep the text, untimed, rather than nothing.
    return { text: hypotheses.join(" "), segments: [], language: "en" };
  }
  return { text: joinSegments(segments), segments, language: "en" };
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
