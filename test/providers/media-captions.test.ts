/** Caption parsing (WebVTT, SubRip, YouTube's rolling auto-captions), sentence splitting and WAV headers. */
import { describe, expect, it } from "vitest";
import { parseCaptions, parseTimestamp } from "../../src/providers/media/captions.js";
import { isSpeechWav, parseWavHeader } from "../../src/providers/media/wav.js";
import { splitSentences } from "../../src/providers/transcription/segments.js";

describe("parseCaptions", () => {
  it("parses WebVTT with a header, NOTE and STYLE blocks, cue ids, settings, markup and entities", () => {
    const vtt = `\uFEFFWEBVTT
Kind: captions
Language: en

NOTE made by hand

STYLE
::cue { color: yellow }

intro
00:00.500 --> 00:02.000 align:start position:0%
<v Sam>Hey &amp; welcome</v>

00:00:02.000 --> 00:00:04.250
<i>this is</i> <b>a test</b>
&lt;really&gt;
`;
    expect(parseCaptions(vtt)).toEqual({
      text: "Hey & welcome this is a test <really>",
      segments: [
        { start: 0.5, end: 2, text: "Hey & welcome" },
        { start: 2, end: 4.25, text: "this is a test <really>" },
      ],
    });
  });

  it("parses SubRip with comma decimals, CRLF line ends and {\\an8} tags", () => {
    const srt =
      "1\r\n00:00:01,000 --> 00:00:02,500\r\n{\\an8}First line\r\n\r\n2\r\n01:00:00,100 --> 01:00:03,000\r\nSecond <i>line</i>\r\n";
    expect(parseCaptions(srt).segments).toEqual([
      { start: 1, end: 2.5, text: "First line" },
      { start: 3600.1, end: 3603, text: "Second line" },
    ]);
  });

  it("keeps each word of rolling auto-captions once", () => {
    const rolling = `WEBVTT

00:00:00.240 --> 00:00:02.750 align:start position:0%
 
so<00:00:00.480><c> today</c><00:00:00.919><c> we're</c>

00:00:02.750 --> 00:00:02.760 align:start position:0%
so today we're
 

00:00:02.760 --> 00:00:05.590 align:start position:0%
so today we're
going<00:00:03.760><c> to</c><00:00:04.000><c> bake</c>

00:00:05.590 --> 00:00:05.600 align:start position:0%
going to bake
`;
    expect(parseCaptions(rolling)).toEqual({
      text: "so today we're going to bake",
      segments: [
        { start: 0.24, end: 2.75, text: "so today we're" },
        { start: 2.76, end: 5.59, text: "going to bake" },
      ],
    });
  });

  it("returns nothing for a file without cues", () => {
    expect(parseCaptions("WEBVTT\n\nNOTE nothing here\n")).toEqual({ text: "", segments: [] });
  });

  it("reads timestamps with and without hours", () => {
    expect(parseTimestamp("01:02:03.456")).toBeCloseTo(3723.456, 3);
    expect(parseTimestamp("02:03.4")).toBeCloseTo(123.4, 3);
    expect(parseTimestamp("00:00:01,5")).toBeCloseTo(1.5, 3);
  });
});

describe("splitSentences", () => {
  it("splits at sentence ends and line breaks, not inside URLs, decimals or abbreviations", () => {
    expect(splitSentences("Dr. Smith said 3.5 stars! Really? See brand.com/x.\nNew line without stop\n\n#tag")).toEqual([
      "Dr. Smith said 3.5 stars!",
      "Really?",
      "See brand.com/x.",
      "New line without stop",
      "#tag",
    ]);
  });
});

describe("WAV header", () => {
  function wav(sampleRate: number, channels: number, bits: number, dataBytes: number, extraChunk = false): Buffer {
    const fmt = Buffer.alloc(24);
    fmt.write("fmt ", 0, "ascii");
    fmt.writeUInt32LE(16, 4);
    fmt.writeUInt16LE(1, 8);
    fmt.writeUInt16LE(channels, 10);
    fmt.writeUInt32LE(sampleRate, 12);
    fmt.writeUInt32LE(sampleRate * channels * (bits / 8), 16);
    fmt.writeUInt16LE(channels * (bits / 8), 20);
    fmt.writeUInt16LE(bits, 22);
    const list = Buffer.from("LIST\x05\x00\x00\x00INFOa\x00", "latin1"); // odd size: padded to even
    const data = Buffer.alloc(8 + dataBytes);
    data.write("data", 0, "ascii");
    data.writeUInt32LE(dataBytes, 4);
    const body = Buffer.concat([Buffer.from("WAVE"), fmt, ...(extraChunk ? [list] : []), data]);
    const head = Buffer.alloc(8);
    head.write("RIFF", 0, "ascii");
    head.writeUInt32LE(body.length, 4);
    return Buffer.concat([head, body]);
  }

  it("reads format and duration, skipping other chunks", () => {
    const buf = wav(16000, 1, 16, 32000, true);
    const info = parseWavHeader(buf, buf.length);
    expect(info).toEqual({ audioFormat: 1, sampleRate: 16000, channels: 1, bitsPerSample: 16, dataBytes: 32000, durationSeconds: 1 });
    expect(isSpeechWav(info)).toBe(true);
  });

  it("tells speech-ready WAV from other formats and non-WAV files", () => {
    const stereo = wav(44100, 2, 16, 100);
    expect(isSpeechWav(parseWavHeader(stereo, stereo.length))).toBe(false);
    expect(parseWavHeader(Buffer.from("ID3 not a wav file"), 18)).toBeNull();
  });
});
