/**
 * The rules of the transcript as evidence: whether the content analysis may judge from it, and the reason
 * when not. Mirrors on-screen text's confidence floor (./visual/text.ts):
 *
 * - platform captions are used as they are (their language is the caption track's; they carry no confidence);
 * - a recognised transcript below the confidence floor (SPEECH_CONFIDENCE_FLOOR, 0.5 by default), or one whose
 *   recogniser doubts its words (the offline recogniser knows English only: other languages, singing and music
 *   come out as English-looking noise), is kept in the record, marked `used: false`, and judged by nothing:
 *   the hook, CTA and UGC judgements and the first-person count see no transcript; the reasons say why;
 * - fewer than three recognised words are set aside too (music and noise give a word or two);
 * - no sound (the media has no audio stream) gives an empty transcript with the reason.
 *
 * What it cannot do: a confident recogniser that is wrong (clear English speech misheard) passes; the floor is a
 * mean over words, so a short transcript with one clear word can pass with noise around it.
 */
import { config } from "../../config.ts";
import type { Transcript } from "./ports.ts";
import type { TranscriptData } from "./service.ts";

/**
 * Fewer recognised words than this are no evidence: a hook needs at least three, and one or two words in a
 * clip are what music and noise give a recogniser (a word or two at full confidence, e.g. "luo yeah" over a
 * film's score).
 */
const MIN_RECOGNISED_WORDS = 3;

/** The floor in force (SPEECH_CONFIDENCE_FLOOR). */
export const speechConfidenceFloor = () => config.speech.confidenceFloor;

/** Platform captions as the transcript: used, with the caption track's language. */
export function captionsEvidence(captions: { text: string; segments: Transcript["segments"]; language: string | null }): TranscriptData {
  return {
    transcript: captions.text,
    segments: captions.segments,
    transcriptSource: "captions",
    language: captions.language ? captions.language.replace(/-orig$/i, "") : null,
    confidence: null,
    used: true,
    note: null,
  };
}

/** No sound to transcribe: an empty transcript, not used, with the reason. */
export function silentEvidence(why: string): TranscriptData {
  return {
    transcript: "",
    segments: [],
    transcriptSource: "none",
    language: null,
    confidence: null,
    used: false,
    note: `No transcript: ${why}; the analysis judged from what the video shows and its description.`,
  };
}

/** A recogniser's transcript with the gate applied: below the floor or doubted, kept and marked not used. */
export function recognisedEvidence(t: Transcript, source: string, floor = speechConfidenceFloor()): TranscriptData {
  const confidence = t.confidence == null ? null : Math.round(Math.min(1, Math.max(0, t.confidence)) * 100) / 100;
  const base = { transcript: t.text, segments: t.segments, transcriptSource: source, language: t.language, confidence };
  if (!t.text.trim()) return { ...base, used: false, note: `No speech was recognised (${source}).` };
  const aside = (why: string) => ({
    ...base,
    // An assumed language ("en" from an English-only recogniser) says nothing of speech it could not read.
    language: t.languageAssumed ? null : t.language,
    used: false,
    note: `Transcript set aside: ${why}; it is kept in the record but was not used for any judgement.`,
  });
  if (t.doubt) return aside(`the ${source} words ${t.doubt}`);
  const words = t.text.split(/\s+/).filter(Boolean).length;
  if (words < MIN_RECOGNISED_WORDS) {
    return aside(
      `the recogniser (${source}) heard only ${words} word${words === 1 ? "" : "s"} ("${t.text}"), too few to tell speech from noise`,
    );
  }
  if (confidence != null && confidence < floor) {
    return aside(`the speech was recognised (${source}) with confidence ${confidence}, below the floor ${floor}`);
  }
  return { ...base, used: true, note: null };
}

/** The transcript as the content analysis may use it: nothing when it was set aside (or is from before the gate, used). */
export function transcriptForJudgement<S>(a: { transcript: string | null; segments: S | null; transcriptUsed: boolean | null }): {
  transcript: string;
  segments: S | null;
} {
  if (a.transcriptUsed === false) return { transcript: "", segments: null };
  return { transcript: a.transcript ?? "", segments: a.segments };
}
