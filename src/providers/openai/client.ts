/**
 * A small client for any OpenAI-compatible server (`OPENAI_BASE_URL`, e.g. `https://host/v1`):
 * chat completions that must return a JSON object valid against a zod schema, and audio
 * transcriptions in `verbose_json`. Shared by the transcription, content-analysis and radar
 * query-expansion providers.
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { z } from "zod";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import { describeDetails, issuesToDetails } from "../../domain/shared/inputs.ts";

/** A part of a user message: text, or an image (a `data:` URL) for a vision-capable model. */
export type ContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: "low" | "high" | "auto" } };

export interface OpenAiOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
}

export class OpenAiClient {
  private readonly provider: string;
  private readonly opts: OpenAiOptions;
  constructor(provider: string, opts: OpenAiOptions) {
    this.provider = provider;
    this.opts = opts;
  }

  private url(path: string): string {
    return `${this.opts.baseUrl.replace(/\/+$/, "")}${path}`;
  }

  private async post(path: string, body: BodyInit, headers: Record<string, string>, signal?: AbortSignal): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    // Why a request failed, worded for the operator: the timeout also covers reading the body.
    const failure = (e: unknown) => {
      const reason = timeout.aborted
        ? `timed out after ${this.opts.timeoutMs} ms`
        : signal?.aborted
          ? "request was cancelled"
          : `could not reach ${this.url(path)} (${(e as Error).message})`;
      return new ProviderError(this.provider, reason, true, { cause: e });
    };
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.url(path), {
        method: "POST",
        body,
        headers: { ...headers, ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
        signal: combined,
      });
      text = await res.text();
    } catch (e) {
      throw failure(e);
    }
    if (!res.ok) {
      const retryable = res.status >= 500 || res.status === 429 || res.status === 408;
      throw new ProviderError(this.provider, `${path} answered HTTP ${res.status}: ${text.slice(0, 300)}`, retryable);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new ProviderError(this.provider, `${path} answered with a body that is not JSON: ${text.slice(0, 200)}`, true);
    }
  }

  /**
   * Asks for a JSON object matching `schema` (sent as a strict JSON-schema response format). An
   * answer that is not JSON or does not match is retried once, showing the model its answer and
   * what was wrong with it; a second bad answer fails, not retryable (the same prompt would most
   * likely fail the same way).
   */
  async chatJson<S extends z.ZodType>(args: {
    model: string;
    system: string;
    /** Text, or parts (text and images) for a vision-capable model. */
    user: string | ContentPart[];
    schemaName: string;
    schema: S;
    /** Reads the answer instead of `schema` when given: the same shape, more lenient (e.g. fields added later, defaulted). */
    accept?: S;
    signal?: AbortSignal;
  }): Promise<z.infer<S>> {
    const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(args.schema, { target: "draft-7" });
    const messages: { role: "system" | "user" | "assistant"; content: string | ContentPart[] }[] = [
      { role: "system", content: args.system },
      { role: "user", content: args.user },
    ];
    let lastProblem = "";
    for (let attempt = 1; attempt <= 2; attempt++) {
      const body = await this.post(
        "/chat/completions",
        JSON.stringify({
          model: args.model,
          messages,
          temperature: 0,
          response_format: { type: "json_schema", json_schema: { name: args.schemaName, strict: true, schema: jsonSchema } },
        }),
        { "content-type": "application/json" },
        args.signal,
      );
      const answer = readAnswer(body);
      if (answer.problem === null) {
        const result = (args.accept ?? args.schema).safeParse(answer.value);
        if (result.success) return result.data;
        lastProblem = describeDetails(issuesToDetails(result.error));
      } else {
        lastProblem = answer.problem;
      }
      messages.push(
        { role: "assistant", content: answer.content },
        { role: "user", content: `That answer was invalid (${lastProblem}). Answer again with only a JSON object matching the schema.` },
      );
    }
    throw new ProviderError(this.provider, `the model's answer was invalid twice (${lastProblem})`, false);
  }

  /** POST /audio/transcriptions with `response_format=verbose_json`. */
  async transcribe(wavPath: string, model: string, signal?: AbortSignal): Promise<unknown> {
    const form = new FormData();
    form.append("file", new Blob([await readFile(wavPath)], { type: "audio/wav" }), basename(wavPath));
    form.append("model", model);
    form.append("response_format", "verbose_json");
    form.append("timestamp_granularities[]", "segment");
    return this.post("/audio/transcriptions", form, {}, signal);
  }
}

/** The first choice's content parsed as JSON, or what is wrong with it. */
function readAnswer(body: unknown): { content: string; value: unknown; problem: string | null } {
  const message = (body as { choices?: { message?: { content?: unknown; refusal?: unknown } }[] })?.choices?.[0]?.message;
  if (typeof message?.refusal === "string" && message.refusal) {
    return { content: "", value: undefined, problem: `the model refused: ${message.refusal.slice(0, 200)}` };
  }
  const content = message?.content;
  if (typeof content !== "string") return { content: "", value: undefined, problem: "no message content" };
  try {
    return { content, value: JSON.parse(content), problem: null };
  } catch {
    return { content, value: undefined, problem: `not valid JSON: ${JSON.stringify(content.slice(0, 80))}` };
  }
}
