/**
 * The `openai` transcription and content-analysis providers (and the shared client) against a local
 * OpenAI-compatible stand-in server: happy paths, malformed and schema-violating answers, HTTP
 * errors, timeouts and cancellation.
 */
import "../setup/visual-on.js"; // first: the visual stage on, as deployed, before the configuration is read
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CTA_TYPE_VALUES, HOOK_STYLE_VALUES, UGC_FIT_VALUES } from "../../src/domain/analysis/vocabulary.js";
import { createContentAnalysisProvider } from "../../src/main/providers.js";
import { modelSees, OpenAiAnalysisProvider } from "../../src/providers/analysis/openai.js";
import type { ContentInput } from "../../src/domain/analysis/ports.js";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import { languageCode, OpenAiTranscriber } from "../../src/providers/transcription/openai.js";

interface Recorded {
  path: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}
type Handler = (req: Recorded, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let calls: Recorded[];
let handlers: Handler[];
let dir: string;
let wavPath: string;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
    calls.push(recorded);
    // One handler per call, in order; the last one answers any further calls.
    const handler = handlers[Math.min(calls.length - 1, handlers.length - 1)];
    if (handler) handler(recorded, res);
    else res.writeHead(500).end("no handler");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  dir = await mkdtemp(join(tmpdir(), "openai-"));
  wavPath = join(dir, "audio.wav");
  await writeFile(wavPath, Buffer.alloc(3000, 7));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  calls = [];
  handlers = [];
});

const json =
  (status: number, body: unknown): Handler =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
const chatAnswer = (content: unknown): Handler =>
  json(200, {
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  });

const GOOD = {
  hookStyle: "question",
  hookPhrase: "Did you know this?",
  ugcFit: "high",
  ugcConfidence: 82,
  ctaType: "link_in_bio",
  ctaDestinationUrl: "https://example.com/shop",
  hookSource: "speech",
  reasons: ["hookStyle question: said at 0.2 s"],
};

const INPUT: ContentInput = {
  platform: "platformA",
  transcript: "Did you know this? I tried it for a week. Link in bio.",
  segments: [{ start: 0.2, end: 1.6, text: "Did you know this?" }],
  description: "My honest take #skincare",
  hashtags: ["skincare"],
};

function analysis(opts: Partial<ConstructorParameters<typeof OpenAiAnalysisProvider>[0]> = {}) {
  return new OpenAiAnalysisProvider({ baseUrl, apiKey: "sk-test", model: "test-model", timeoutMs: 5000, ...opts });
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

const chatBody = (i: number) => JSON.parse(calls[i]!.body.toString("utf8"));

describe("openai content analysis", () => {
  it("asks for a strict JSON schema built from the vocabulary and returns the answer", async () => {
    handlers = [chatAnswer(JSON.stringify(GOOD))];
    expect(await analysis().analyze(INPUT)).toEqual(GOOD);

    expect(calls).toHaveLength(1);
    expect(calls[0]!.path).toBe("/v1/chat/completions");
    expect(calls[0]!.headers.authorization).toBe("Bearer sk-test");
    const body = chatBody(0);
    expect(body.model).toBe("test-model");
    const format = body.response_format;
    expect(format.type).toBe("json_schema");
    expect(format.json_schema.strict).toBe(true);
    const schema = format.json_schema.schema;
    expect(schema.$schema).toBeUndefined();
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual([
      "hookStyle",
      "hookPhrase",
      "ugcFit",
      "ugcConfidence",
      "ctaType",
      "ctaDestinationUrl",
      "hookSource",
      "reasons",
    ]);
    expect(schema.properties.hookSource.anyOf ?? schema.properties.hookSource.enum).toBeDefined();
    expect(schema.properties.hookStyle.enum).toEqual(HOOK_STYLE_VALUES);
    expect(schema.properties.ugcFit.enum).toEqual(UGC_FIT_VALUES);
    expect(schema.properties.ctaType.enum).toEqual(CTA_TYPE_VALUES);
    expect(schema.properties.ugcConfidence).toMatchObject({ type: "integer", minimum: 0, maximum: 100 });
    // The prompt carries the vocabulary's meanings and the video's text, timings included.
    expect(body.messages[0].content).toContain("curiosity_gap:");
    expect(body.messages[1].content).toContain("[0.2-1.6s] Did you know this?");
    expect(body.messages[1].content).toContain("My honest take #skincare");
  });

  it("reads an answer without the fields added with visual analysis (hookSource, reasons) as having none", async () => {
    const { hookSource: _source, reasons: _reasons, ...older } = GOOD;
    handlers = [chatAnswer(JSON.stringify(older))];
    expect(await analysis().analyze(INPUT)).toEqual({ ...older, hookSource: null, reasons: [] });
    expect(calls).toHaveLength(1);
  });

  it("keeps the record consistent: no phrase without a hook, no URL without a CTA, empty URL as null", async () => {
    handlers = [chatAnswer(JSON.stringify({ ...GOOD, hookStyle: "none", hookPhrase: "something", ctaType: "none" }))];
    expect(await analysis().analyze(INPUT)).toMatchObject({ hookPhrase: "", hookSource: null, ctaDestinationUrl: null });
    handlers = [chatAnswer(JSON.stringify({ ...GOOD, ctaType: "follow", ctaDestinationUrl: " " }))];
    expect(await analysis().analyze(INPUT)).toMatchObject({ ctaType: "follow", ctaDestinationUrl: null });
  });

  it("retries a malformed answer once, showing the model what was wrong, and accepts the second", async () => {
    handlers = [chatAnswer("Sure! Here is the analysis: {hookStyle: question"), chatAnswer(JSON.stringify(GOOD))];
    expect(await analysis().analyze(INPUT)).toEqual(GOOD);
    expect(calls).toHaveLength(2);
    const retry = chatBody(1).messages;
    expect(retry).toHaveLength(4);
    expect(retry[2]).toEqual({ role: "assistant", content: "Sure! Here is the analysis: {hookStyle: question" });
    expect(retry[3].content).toMatch(/invalid \(not valid JSON/);
  });

  it("fails after two malformed answers, not retryable", async () => {
    handlers = [chatAnswer("not json at all")];
    const error = await failure(analysis().analyze(INPUT));
    expect(calls).toHaveLength(2);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/^analysis:openai: the model's answer was invalid twice \(not valid JSON/);
  });

  it("fails after two schema-violating answers, with exactly two calls, not retryable", async () => {
    handlers = [chatAnswer(JSON.stringify({ ...GOOD, hookStyle: "clickbait", ugcConfidence: 150 }))];
    const error = await failure(analysis().analyze(INPUT));
    expect(calls).toHaveLength(2);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/invalid twice/);
    expect(error.message).toMatch(/hookStyle/);
    expect(error.message).toMatch(/ugcConfidence/);
  });

  it("treats an answer without content (e.g. a refusal) as invalid", async () => {
    handlers = [json(200, { choices: [{ message: { role: "assistant", content: null, refusal: "I can't help with that." } }] })];
    const error = await failure(analysis().analyze(INPUT));
    expect(calls).toHaveLength(2);
    expect(error.message).toMatch(/the model refused: I can't help with that/);
  });

  it("reports HTTP 500 as retryable, without a second call", async () => {
    handlers = [json(500, { error: { message: "upstream overloaded" } })];
    const error = await failure(analysis().analyze(INPUT));
    expect(calls).toHaveLength(1);
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/\/chat\/completions answered HTTP 500: .*upstream overloaded/);
  });

  it("reports HTTP 401 as not retryable", async () => {
    handlers = [json(401, { error: { message: "bad key" } })];
    const error = await failure(analysis().analyze(INPUT));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/HTTP 401/);
  });

  it("times out a server that does not answer, retryable", async () => {
    handlers = [() => undefined]; // never answers
    const started = Date.now();
    const error = await failure(analysis({ timeoutMs: 300 }).analyze(INPUT));
    expect(error.retryable).toBe(true);
    expect(error.message).toBe("analysis:openai: timed out after 300 ms");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("times out a server that stalls in the middle of its body", async () => {
    handlers = [(_req, res) => void res.writeHead(200, { "content-type": "application/json" }).write('{"choices": [')];
    const error = await failure(analysis({ timeoutMs: 300 }).analyze(INPUT));
    expect(error.message).toBe("analysis:openai: timed out after 300 ms");
    expect(error.retryable).toBe(true);
  });

  it("stops when the job is cancelled", async () => {
    handlers = [() => undefined];
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failure(analysis().analyze(INPUT, { signal: controller.signal }));
    expect(error.message).toBe("analysis:openai: request was cancelled");
  });

  it("reports an unreachable server as retryable", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(analysis({ baseUrl: `http://127.0.0.1:${port}/v1` }).analyze(INPUT));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/could not reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/);
  });

  it("refuses to start without OPENAI_BASE_URL", () => {
    expect(() => new OpenAiAnalysisProvider({ baseUrl: undefined })).toThrow(/ANALYSIS_PROVIDER=openai needs OPENAI_BASE_URL/);
    expect(() => new OpenAiTranscriber({ baseUrl: undefined })).toThrow(/TRANSCRIBE_PROVIDER=openai needs OPENAI_BASE_URL/);
  });

  it("is what the factory builds for ANALYSIS_PROVIDER=openai (when configured)", () => {
    // The test configuration has no OPENAI_BASE_URL, so the factory's provider refuses to start.
    expect(() => createContentAnalysisProvider("openai")).toThrow(ProviderError);
  });
});

describe("openai content analysis of what was seen", () => {
  let frames: string[];
  beforeAll(() => {
    frames = [0, 1].map((i) => {
      const path = join(dir, `frame-${i}.jpg`);
      execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `color=c=${i ? "red" : "blue"}:s=64x112`, "-frames:v", "1", path]);
      return path;
    });
  });

  const seen = (): ContentInput => ({
    ...INPUT,
    transcript: "",
    segments: [],
    visual: {
      durationSeconds: 8,
      keyframes: frames.map((imagePath, i) => ({
        seconds: i * 4,
        reason: i ? "scene" : "first",
        text: i ? "Link in bio" : "POV: you finally slept 8 hours",
        face: i === 1,
        thumbnail: Buffer.alloc(0),
        imagePath,
      })),
      onScreenText: [
        { text: "POV: you finally slept 8 hours", firstSeconds: 0, lastSeconds: 0, language: "en", confidence: 0.9, used: true },
        { text: "Link in bio", firstSeconds: 4, lastSeconds: 4, language: "en", confidence: 0.9, used: true },
      ],
      textHook: "POV: you finally slept 8 hours",
      cutCount: 1,
      cutsPerMinute: 7.5,
      firstCutSeconds: 4,
      faceShare: 0.5,
      providers: { keyframes: "ffmpeg", text: "tesseract", faces: "face-api" },
      skipped: [],
      setAside: [],
      cutTimes: [1],
    },
  });

  it("sends a vision model the keyframes as images, labelled with their times, beside the on-screen text", async () => {
    handlers = [
      chatAnswer(
        JSON.stringify({ ...GOOD, hookStyle: "direct_address", hookPhrase: "POV: you finally slept 8 hours", hookSource: "screen" }),
      ),
    ];
    expect(await analysis({ model: "gpt-4o-mini", vision: "auto" }).analyze(seen())).toMatchObject({
      hookSource: "screen",
      hookStyle: "direct_address",
    });
    const content = chatBody(0).messages[1].content as { type: string; text?: string; image_url?: { url: string; detail: string } }[];
    expect(Array.isArray(content)).toBe(true);
    expect(content[0]!.text).toContain("Text hook (on screen in the first 3 s): POV: you finally slept 8 hours");
    expect(content[0]!.text).toContain("[4.0-4.0s] Link in bio");
    expect(content[0]!.text).toContain("Cuts: 1 (7.5 per minute), first at 4 s");
    expect(content[0]!.text).toContain("Face on camera: in 50 % of keyframes");
    expect(
      content
        .filter((p) => p.type === "text")
        .map((p) => p.text)
        .slice(1),
    ).toEqual(["Keyframe 1 at 0.0 s:", "Keyframe 2 at 4.0 s:"]);
    const images = content.filter((p) => p.type === "image_url");
    expect(images).toHaveLength(2);
    for (const [i, image] of images.entries()) {
      expect(image.image_url!.detail).toBe("low");
      const [prefix, data] = image.image_url!.url.split(",");
      expect(prefix).toBe("data:image/jpeg;base64");
      expect(Buffer.from(data!, "base64")).toEqual(await readFile(frames[i]!));
    }
  });

  it("sends only the on-screen text to a model that cannot see, or when OPENAI_VISION=false", async () => {
    for (const opts of [
      { model: "test-model", vision: "auto" as const },
      { model: "gpt-4o", vision: "false" as const },
    ]) {
      calls = [];
      handlers = [chatAnswer(JSON.stringify(GOOD))];
      await analysis(opts).analyze(seen());
      const content = chatBody(0).messages[1].content;
      expect(typeof content).toBe("string");
      expect(content).toContain("[0.0-0.0s] POV: you finally slept 8 hours");
      expect(content).not.toContain("data:image");
    }
    expect(modelSees("llava-1.6", "auto")).toBe(true);
    expect(modelSees("qwen2.5-vl-7b-instruct", "auto")).toBe(true);
    expect(modelSees("llama-3.1-8b", "auto")).toBe(false);
    expect(modelSees("llama-3.1-8b", "true")).toBe(true);
  });

  it("fails clearly when the server refuses the images, naming OPENAI_VISION, not retryable", async () => {
    handlers = [json(400, { error: { message: "Invalid content type. image_url is only supported by certain models." } })];
    const error = await failure(analysis({ model: "gpt-4o-mini", vision: "true" }).analyze(seen()));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/answered HTTP 400: .*image_url.*set OPENAI_VISION=false if model gpt-4o-mini cannot take images/);
  });

  it("fails clearly on an unusable answer about images, after one retry", async () => {
    handlers = [chatAnswer("I see a blue square and a red square.")];
    const error = await failure(analysis({ model: "gpt-4o-mini", vision: "true" }).analyze(seen()));
    expect(calls).toHaveLength(2);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/the model's answer was invalid twice \(not valid JSON/);
  });
});

describe("openai transcription", () => {
  function transcriber(opts: Partial<ConstructorParameters<typeof OpenAiTranscriber>[0]> = {}) {
    return new OpenAiTranscriber({ baseUrl, apiKey: "sk-test", model: "whisper-test", timeoutMs: 5000, ...opts });
  }

  it("uploads the WAV for verbose_json and maps text, segments and language", async () => {
    handlers = [
      json(200, {
        task: "transcribe",
        language: "english",
        duration: 2.8,
        text: " Go forward ten meters. ",
        segments: [
          { id: 0, start: 0.0, end: 1.2, text: " Go forward", avg_logprob: -0.2 },
          { id: 1, start: 1.2, end: 2.8, text: " ten meters. " },
          { id: 2, start: 2.8, end: 2.8, text: " " },
        ],
      }),
    ];
    expect(await transcriber().transcribe(wavPath)).toEqual({
      text: "Go forward ten meters.",
      segments: [
        { start: 0, end: 1.2, text: "Go forward" },
        { start: 1.2, end: 2.8, text: "ten meters." },
      ],
      language: "en",
      // exp(avg_logprob) of the one segment that gives it: the server's own measure of how sure it was.
      confidence: Math.round(Math.exp(-0.2) * 1000) / 1000,
    });

    expect(calls[0]!.path).toBe("/v1/audio/transcriptions");
    expect(calls[0]!.headers.authorization).toBe("Bearer sk-test");
    const form = await new Response(new Uint8Array(calls[0]!.body), {
      headers: { "content-type": calls[0]!.headers["content-type"]! },
    }).formData();
    expect(form.get("model")).toBe("whisper-test");
    expect(form.get("response_format")).toBe("verbose_json");
    const file = form.get("file") as File;
    expect(file.name).toBe("audio.wav");
    expect(file.size).toBe(3000);
  });

  it("returns no segments when the server gives none, rather than making some up", async () => {
    handlers = [json(200, { text: "hello there" })];
    expect(await transcriber().transcribe(wavPath)).toEqual({ text: "hello there", segments: [], language: null, confidence: null });
  });

  it("carries the language the model heard (French speech: fr) and a low confidence when its segments are unsure", async () => {
    handlers = [
      json(200, {
        language: "french",
        text: "Bonjour à tous.",
        segments: [
          { start: 0, end: 1, text: "Bonjour", avg_logprob: -0.1 },
          { start: 1, end: 4, text: "à tous.", avg_logprob: -1.5 },
        ],
      }),
    ];
    const t = await transcriber().transcribe(wavPath);
    expect(t.language).toBe("fr");
    // (exp(-0.1) × 1 s + exp(-1.5) × 3 s) / 4 s
    expect(t.confidence).toBeCloseTo((Math.exp(-0.1) + 3 * Math.exp(-1.5)) / 4, 3);
  });

  it("rejects an answer that is not verbose_json, not retryable", async () => {
    handlers = [json(200, { transcript: "wrong shape" })];
    const error = await failure(transcriber().transcribe(wavPath));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/^transcription:openai: the transcription answer is not verbose_json \(text:/);
  });

  it("reports a body that is not JSON as retryable", async () => {
    handlers = [(_req, res) => void res.writeHead(200, { "content-type": "text/html" }).end("<html>gateway</html>")];
    const error = await failure(transcriber().transcribe(wavPath));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/not JSON: <html>gateway/);
  });

  it("reports HTTP 500 as retryable and times out a silent server", async () => {
    handlers = [json(503, { error: "busy" })];
    expect((await failure(transcriber().transcribe(wavPath))).retryable).toBe(true);
    handlers = [() => undefined];
    const error = await failure(transcriber({ timeoutMs: 300 }).transcribe(wavPath));
    expect(error.message).toBe("transcription:openai: timed out after 300 ms");
    expect(error.retryable).toBe(true);
  });

  it("maps language names to ISO codes and keeps codes and unknown names", () => {
    expect(languageCode("english")).toBe("en");
    expect(languageCode("German")).toBe("de");
    expect(languageCode("pt")).toBe("pt");
    expect(languageCode("klingon")).toBe("klingon");
  });
});
