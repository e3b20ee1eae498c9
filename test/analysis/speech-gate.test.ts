/** The transcript's gate (src/domain/analysis/speech.ts): what the content analysis may judge from, and why not. */
import { describe, expect, it } from "vitest";
import { captionsEvidence, recognisedEvidence, silentEvidence, transcriptForJudgement } from "../../src/domain/analysis/speech.js";

const segments = [{ start: 0, end: 2, text: "go forward ten meters" }];

describe("the transcript's gate", () => {
  it("uses platform captions as they are, with the caption track's language and no confidence", () => {
    expect(captionsEvidence({ text: "Hi", segments: [], language: "en-orig" })).toMatchObject({
      transcriptSource: "captions",
      language: "en",
      confidence: null,
      used: true,
      note: null,
    });
  });

  it("uses a recognised transcript at or above the floor", () => {
    const t = { text: "go forward ten meters", segments, language: "en", languageAssumed: true, confidence: 0.815 };
    expect(recognisedEvidence(t, "pocketsphinx", 0.5)).toMatchObject({ used: true, note: null, language: "en", confidence: 0.82 });
  });

  it("sets aside a transcript below the floor: kept, its assumed language dropped, the reason given", () => {
    const t = { text: "to ah we do but we got to topple", segments, language: "en", languageAssumed: true, confidence: 0.446 };
    const e = recognisedEvidence(t, "pocketsphinx", 0.5);
    expect(e).toMatchObject({ transcript: t.text, used: false, language: null, confidence: 0.45 });
    expect(e.note).toBe(
      "Transcript set aside: the speech was recognised (pocketsphinx) with confidence 0.45, below the floor 0.5; it is kept in the record but was not used for any judgement.",
    );
  });

  it("keeps a language the recogniser heard (Whisper) when it sets the transcript aside", () => {
    const t = { text: "Bonjour à tous, une tarte aux pommes.", segments, language: "fr", confidence: 0.3 };
    expect(recognisedEvidence(t, "openai", 0.5)).toMatchObject({ used: false, language: "fr" });
  });

  it("sets aside words the recogniser doubts, and one or two words, whatever their confidence", () => {
    const doubted = {
      text: "oh oh oh and really do",
      segments,
      language: null,
      languageAssumed: true,
      confidence: 0.79,
      doubt: "are mostly fillers",
    };
    expect(recognisedEvidence(doubted, "pocketsphinx", 0.5)).toMatchObject({
      used: false,
      note: expect.stringMatching(/pocketsphinx words are mostly fillers/),
    });
    const few = { text: "luo yeah", segments, language: "en", languageAssumed: true, confidence: 1 };
    expect(recognisedEvidence(few, "pocketsphinx", 0.5)).toMatchObject({
      used: false,
      note: expect.stringMatching(/heard only 2 words \("luo yeah"\)/),
    });
  });

  it("says why a transcript is empty: nothing recognised, or no audio stream", () => {
    expect(recognisedEvidence({ text: "", segments: [], language: "en" }, "pocketsphinx", 0.5)).toMatchObject({
      used: false,
      note: "No speech was recognised (pocketsphinx).",
    });
    expect(silentEvidence("the media has no audio stream")).toMatchObject({
      transcript: "",
      transcriptSource: "none",
      used: false,
      note: expect.stringMatching(/^No transcript: the media has no audio stream/),
    });
  });

  it("hands the content analysis nothing of a set-aside transcript, and an older analysis's transcript as it is", () => {
    expect(transcriptForJudgement({ transcript: "noise", segments, transcriptUsed: false })).toEqual({ transcript: "", segments: null });
    expect(transcriptForJudgement({ transcript: "words", segments, transcriptUsed: null })).toEqual({ transcript: "words", segments });
    expect(transcriptForJudgement({ transcript: "words", segments, transcriptUsed: true })).toEqual({ transcript: "words", segments });
  });
});
