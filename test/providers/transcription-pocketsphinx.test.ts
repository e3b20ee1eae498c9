/**
 * The pocketsphinx provider: its output parser, the real program on real speech, process handling
 * with stand-in programs, and the word-error-rate arithmetic of bench/wer.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIBRIVOX_DIR, normaliseWords, parseReferenceFile, wordEdits, wordErrorRate } from "../../bench/wer.js";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import { englishDoubt, parsePocketsphinxOutput, PocketsphinxTranscriber } from "../../src/providers/transcription/pocketsphinx.js";
import { createTranscriptionProvider } from "../../src/main/providers.js";
import { ffmpeg, GOFORWARD_TEXT, makeGoforwardWav, standInProgram } from "../fixtures/media/server.js";

let dir: string;
let goforward: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "psx-"));
  goforward = join(dir, "goforward.wav");
  makeGoforwardWav(goforward);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe("parsePocketsphinxOutput", () => {
  const output = [
    "go forward ten meters",
    "<s> 0.390 0.460 1.000100",
    "go 0.470 0.640 0.997303",
    "forward 0.650 1.170 0.996705",
    "<sil> 1.180 1.900 0.9",
    "ten 1.910 2.230 0.236604",
    "meters(2) 2.240 2.820 0.947616",
    "</s> 2.830 3.010 1.000000",
    "",
    "[NOISE]",
    "<s> 4.900 5.250 0.999800",
    "[NOISE] 5.260 5.400 0.5",
    "and(2) 5.410 5.600 0.3",
    "stop 5.610 6.000 1e-05",
    "</s> 6.010 6.200 1.000000",
  ].join("\n");

  it("keeps timed words, drops fillers and pronunciation markers, and splits segments at pauses and utterances", () => {
    expect(parsePocketsphinxOutput(output)).toEqual({
      text: "go forward ten meters and stop",
      segments: [
        { start: 0.47, end: 1.17, text: "go forward" },
        { start: 1.91, end: 2.82, text: "ten meters" },
        { start: 5.41, end: 6, text: "and stop" },
      ],
      language: "en",
      languageAssumed: true,
      // The words' posteriors weighted by their durations: "ten" (0.24) and "stop" (0.00001) pull it down.
      confidence: 0.631,
      doubt: null,
    });
  });

  it("closes a segment at the maximum length", () => {
    const words = Array.from({ length: 10 }, (_, i) => `word ${i.toFixed(3)} ${(i + 0.9).toFixed(3)} 1.0`);
    const { segments } = parsePocketsphinxOutput(["<s> 0.000 0.000 1", ...words, "</s> 10 10 1"].join("\n"), {
      pauseSeconds: 0.5,
      maxSegmentSeconds: 4,
    });
    expect(segments.map((s) => [s.start, s.end])).toEqual([
      [0, 3.9],
      [4, 7.9],
      [8, 9.9],
    ]);
  });

  it("returns an empty transcript for silence", () => {
    expect(parsePocketsphinxOutput("")).toEqual({
      text: "",
      segments: [],
      language: "en",
      languageAssumed: true,
      confidence: null,
      doubt: null,
    });
  });
});

describe("englishDoubt: whether the recogniser's words read as English", () => {
  it("doubts text that is mostly fillers and repeats (music, speech in another language)", () => {
    expect(englishDoubt("oh oh oh and really do")).toMatch(/mostly fillers and repeats \(3 of 6\)/);
    expect(englishDoubt("la mort de la la la the only about a lot of")).toBeNull(); // 2 of 11: noise, but not this kind
    expect(englishDoubt("la la la la the la")).toMatch(/mostly fillers/);
  });

  it("trusts ordinary English, short or long", () => {
    expect(englishDoubt("go forward ten meters")).toBeNull();
    expect(englishDoubt("had he married a more amiable woman he might have been made still more respectable")).toBeNull();
    expect(englishDoubt("")).toBeNull();
  });

  it("doubts a long text whose letter statistics are another language's", () => {
    expect(englishDoubt("bonjour à tous aujourd'hui je vais vous montrer comment préparer une tarte aux pommes")).toMatch(
      /do not read as English \(their letter statistics are closest to fra/,
    );
  });
});

describe("the confidence of real recognitions", () => {
  it("is high for real English speech and low for French and Japanese speech pocketsphinx cannot read", async () => {
    const spoken = async (voice: string, text: string) => {
      const raw = join(dir, `${voice}.raw.wav`);
      execFileSync("espeak-ng", ["-v", voice, "-w", raw, text]);
      const wav = join(dir, `${voice}.wav`);
      ffmpeg(["-i", raw, "-ar", "16000", "-ac", "1", wav]);
      return new PocketsphinxTranscriber().transcribe(wav);
    };
    const english = await new PocketsphinxTranscriber().transcribe(goforward);
    expect(english.confidence).toBeGreaterThan(0.7);
    const french = await spoken(
      "fr-fr",
      "Bonjour à tous, aujourd'hui je vais vous montrer comment préparer une tarte aux pommes très simple.",
    );
    const japanese = await spoken("ja", "こんにちは、今日は簡単なりんごのケーキの作り方を紹介します。");
    for (const t of [french, japanese]) {
      expect(t.text.length).toBeGreaterThan(0); // it does write English words for them
      expect(t.confidence).toBeLessThan(0.5);
    }
  });
});

describe("PocketsphinxTranscriber with the real program", () => {
  it("hears goforward.raw exactly, with word-accurate timings", async () => {
    const transcript = await createTranscriptionProvider("pocketsphinx").transcribe(goforward);
    expect(transcript.text).toBe(GOFORWARD_TEXT);
    expect(transcript.segments).toHaveLength(1);
    expect(transcript.segments[0]!.start).toBeCloseTo(0.47, 1);
    expect(transcript.segments[0]!.end).toBeCloseTo(2.12, 1);
  });

  it("transcribes a LibriVox clip with most words right", async () => {
    const references = parseReferenceFile(await readFile(join(LIBRIVOX_DIR, "transcription"), "utf8"));
    const id = "sense_and_sensibility_01_austen_64kb-0920";
    const transcript = await new PocketsphinxTranscriber().transcribe(join(LIBRIVOX_DIR, `${id}.wav`));
    expect(wordErrorRate(references.get(id)!, transcript.text)).toBeLessThan(0.4);
    expect(transcript.segments.length).toBeGreaterThan(0);
  });

  it("refuses audio that is not 16 kHz mono 16-bit WAV instead of returning confident nonsense", async () => {
    const stereo = join(dir, "stereo-44k.wav");
    ffmpeg(["-i", goforward, "-ar", "44100", "-ac", "2", stereo]);
    const error = await failure(new PocketsphinxTranscriber().transcribe(stereo));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/not a 16 kHz mono 16-bit PCM WAV/);
  });

  it("fails clearly on a missing file", async () => {
    const error = await failure(new PocketsphinxTranscriber().transcribe(join(dir, "missing.wav")));
    expect(error.message).toMatch(/cannot read .*missing\.wav/);
  });
});

describe("PocketsphinxTranscriber process handling, with stand-in programs", () => {
  it("times out a hung recogniser, retryable, and does not wait for it", async () => {
    const hung = await standInProgram(join(dir, "hung-psx"), "exec sleep 30");
    const started = Date.now();
    // The timeout is the base plus one second per second of audio (goforward is about 2.8 s).
    const error = await failure(new PocketsphinxTranscriber({ programPath: hung, timeoutMs: 200 }).transcribe(goforward));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/timed out after 298\d ms/);
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it("reports a crash with the program's last words", async () => {
    const crashing = await standInProgram(join(dir, "crashing-psx"), 'echo "FATAL: cannot open acoustic model" >&2\nexit 2');
    const error = await failure(new PocketsphinxTranscriber({ programPath: crashing }).transcribe(goforward));
    expect(error.message).toMatch(/^transcription:pocketsphinx: .*crashing-psx exited with 2: FATAL: cannot open acoustic model/);
  });

  it("reports a missing program as not retryable", async () => {
    const error = await failure(new PocketsphinxTranscriber({ programPath: join(dir, "nope") }).transcribe(goforward));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/is not installed or not on PATH/);
  });
});

describe("word error rate (bench/wer.ts)", () => {
  it("normalises case and punctuation only", () => {
    expect(normaliseWords("Mr. Dashwood's HOUSE, 'quoted' -- well-known!")).toEqual([
      "mr",
      "dashwood's",
      "house",
      "quoted",
      "well",
      "known",
    ]);
  });

  it("counts substitutions, deletions and insertions", () => {
    expect(wordEdits(["a", "b", "c", "d"], ["a", "x", "c", "d", "e"])).toEqual({
      substitutions: 1,
      deletions: 0,
      insertions: 1,
      referenceWords: 4,
    });
    expect(wordEdits(["a", "b", "c"], ["a", "c"])).toEqual({ substitutions: 0, deletions: 1, insertions: 0, referenceWords: 3 });
    expect(wordEdits([], ["a"])).toEqual({ substitutions: 0, deletions: 0, insertions: 1, referenceWords: 0 });
    expect(wordErrorRate("he might even have been made amiable himself", "he might even have been made a real boy i'm self taught")).toBe(
      6 / 8,
    );
    expect(wordErrorRate("Go forward, ten meters.", "go forward ten meters")).toBe(0);
  });

  it("reads the Sphinx reference format", () => {
    expect(parseReferenceFile("<s> he was here </s> (clip-1)\n<s> gone </s> (clip-2)\n")).toEqual(
      new Map([
        ["clip-1", "he was here"],
        ["clip-2", "gone"],
      ]),
    );
  });
});
