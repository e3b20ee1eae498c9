/**
 * A small client for any OpenAI-compatible server (`OPENAI_BASE_URL`, e.g. `https://host/v1`):
 * chat completions that must return a JSON object valid against a zod schema, and audio
 * transcriptions in `verbose_json`. Shared by the transcription, content-analysis and radar
 * query-expansion providers.
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { z } from "zod";
import { ProviderError } from "../errors.js";

export interface OpenAiOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
}

export class OpenAiClient {
  constructor(
    private readonly provider: string,
    private readonly opts: OpenAiOptions,
  ) {}

  private url(path: string): string {
    return `${this.opts.baseUrl.replace(/\/+$/, "")}${path}`;
  }

  private async post(path: string, body: BodyInit, headers: Record<string, string>, signal?: AbortSignal): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await fetch(this.url(path), {
        method: "POST",
        body,
        headers: { ...headers, ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
        signal: combined,
      });
    } catch (e) {
      const reason = timeout.aborted ? `timed out after ${this.opts.timeoutMs} ms` : `could not reach ${this.url(path)} (${(e as Error).message})`;
      throw new ProviderError(this.provider, reason, true, { cause: e });
    }
    const text = await res.text().catch(() => "");
    if (!res.ok) {
      const retryable = res.status >= 500 || res.status === 429 || res.status === 408;
      throw new ProviderError(this.provider, `${path} answered HTTP ${res.status}: ${text.slice(0, 300)}`, retryable);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new ProviderError(this.provider, `${path} answered with a body that is not JSON`, true);
    }
  }

  /**
   * Asks for a JSON object matching `schema` (sent as a JSON-schema response format). An answer
   * that is not JSON or does not match is retried once; a second bad answer fails, not retryable.
   */
  async chatJson<S extends z.ZodType>(args: {
    model: string;
    system: string;
    user: string;
    schemaName: string;
    schema: S;
    signal?: AbortSignal;
  }): Promise<z.infer<S>> {
    const jsonSchema = z.toJSONSchema(args.schema, { target: "draft-7" });
    let lastProblem = "";
    for (let attempt = 1; attempt <= 2; attempt++) {
      const messages = [
        { role: "system", content: args.system },
        { role: "user", content: args.user },
        ...(lastProblem
          ? [{ role: "user", content: `Your previous answer was invalid (${lastProblem}). Answer again with only a JSON object matching the schema.` }]
          : []),
      ];
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
      const content = (body as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
      if (typeof content !== "string") {
        lastProblem = "no message content";
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(content);
      } catch {
        lastProblem = "not valid JSON";
        continue;
      }
      const result = args.schema.safeParse(parsed);
      if (result.success) return result.data;
      lastProblem = result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
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
