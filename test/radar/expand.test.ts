/**
 * Query expansion: the offline expander (counts per depth, languages, distinctness, determinism)
 * and the OpenAI-compatible one against a local stand-in chat-completions server.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import { expandOffline, languageCode, OfflineQueryExpander, OpenAiQueryExpander, queryKey } from "../../src/providers/search/expand.js";
import { createQueryExpander, createSearchProviders } from "../../src/main/providers.js";
import { QUERIES_PER_DEPTH } from "../../src/domain/radar/filters.js";

const DESCRIPTIONS: [string, string][] = [
  ["Morning routine videos for busy moms who work from home", "English"],
  ["Recetas veganas fáciles para la cena, con pocos ingredientes", "Spanish"],
  ["Schnelle vegane Rezepte für das Abendessen nach der Arbeit", "German"],
  ["Les meilleures astuces pour l'organisation de la maison #rangement", "French"],
  ["Treino de pernas em casa para iniciantes", "Portuguese"],
  ["yoga", "English"],
];

const distinctKeys = (queries: string[]) => new Set(queries.map(queryKey)).size;
const wordsOf = (query: string) => query.toLowerCase().split(/\s+/);

describe("offline expansion", () => {
  it.each(DESCRIPTIONS)("gives exactly the depth's number of distinct queries: %s", (description, language) => {
    for (const count of Object.values(QUERIES_PER_DEPTH)) {
      const queries = expandOffline(description, count, language);
      expect(queries).toHaveLength(count);
      expect(distinctKeys(queries)).toBe(count);
      for (const q of queries) expect(q.trim()).toBe(q);
    }
  });

  it("is deterministic", () => {
    for (const [description, language] of DESCRIPTIONS) {
      expect(expandOffline(description, 12, language)).toEqual(expandOffline(description, 12, language));
    }
  });

  it("starts with the keywords, stop words and search words removed, in each language", () => {
    expect(expandOffline(DESCRIPTIONS[0]![0], 1, "English")).toEqual(["morning routine busy moms work home"]);
    expect(expandOffline(DESCRIPTIONS[1]![0], 1, "Spanish")).toEqual(["recetas veganas fáciles cena pocos ingredientes"]);
    expect(expandOffline(DESCRIPTIONS[2]![0], 1, "German")).toEqual(["schnelle vegane rezepte abendessen arbeit"]);
    expect(expandOffline(DESCRIPTIONS[3]![0], 1, "French")).toEqual(["meilleures astuces organisation maison"]);
    expect(expandOffline(DESCRIPTIONS[4]![0], 1, "Portuguese")).toEqual(["treino pernas casa iniciantes"]);
  });

  it("mixes kinds even at quick depth: core, phrase, hashtag form", () => {
    expect(expandOffline(DESCRIPTIONS[0]![0], QUERIES_PER_DEPTH.quick, "English")).toEqual([
      "morning routine busy moms work home",
      "morning routine",
      "#morningroutine",
    ]);
  });

  it("keeps noun phrases joined by 'de', the user's hashtags, and phrase hashtags", () => {
    const pt = expandOffline(DESCRIPTIONS[4]![0], QUERIES_PER_DEPTH.standard, "Portuguese");
    expect(pt).toContain("treino de pernas");
    expect(pt).toContain("#treinodepernas");
    expect(expandOffline(DESCRIPTIONS[3]![0], QUERIES_PER_DEPTH.quick, "French")).toContain("#rangement");
    const deep = expandOffline(DESCRIPTIONS[0]![0], QUERIES_PER_DEPTH.deep, "English");
    expect(deep).toEqual(expect.arrayContaining(["busy moms", "#busymoms"]));
  });

  it("never leaves a stop word in the keyword queries", () => {
    const stop = new Set(["for", "who", "from", "videos", "para", "la", "con", "für", "das", "nach", "der", "les", "pour", "de", "em"]);
    for (const [description, language] of DESCRIPTIONS) {
      const [core] = expandOffline(description, 1, language);
      expect(wordsOf(core!).filter((w) => stop.has(w))).toEqual([]);
    }
  });

  it("writes the discovery modifiers in the requested language", () => {
    expect(expandOffline("yoga", 3, "English")).toEqual(["yoga", "yoga tips", "yoga ideas"]);
    expect(expandOffline("yoga", 3, "Spanish")).toEqual(["yoga", "consejos yoga", "ideas de yoga"]);
    expect(expandOffline("yoga", 3, "de-DE")).toEqual(["yoga", "yoga tipps", "yoga ideen"]);
    expect(expandOffline("yoga", 3, "Klingon")).toEqual(["yoga", "yoga tips", "yoga ideas"]);
  });

  it("recognises languages by name or code", () => {
    expect(["English", "en", "en-US", "Español", "es", "Deutsch", "français", "pt-BR", "Português"].map(languageCode)).toEqual([
      "en",
      "en",
      "en",
      "es",
      "es",
      "de",
      "fr",
      "pt",
      "pt",
    ]);
    expect(languageCode("Japanese")).toBeNull();
  });

  it("falls back to the description itself when it has no keyword, and to nothing when empty", async () => {
    expect(expandOffline("the and of", 6, "English")).toEqual(["the and of"]);
    expect(expandOffline("   ", 6, "English")).toEqual([]);
    expect(await new OfflineQueryExpander().expand("yoga", 0, "English")).toEqual([]);
  });
});

interface Exchange {
  body: Record<string, unknown>;
  authorization: string | undefined;
}

/** A stand-in OpenAI-compatible server answering chat completions with the next queued content. */
let server: Server;
let baseUrl: string;
const exchanges: Exchange[] = [];
const answers: { status?: number; content?: string }[] = [];

async function readBody(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    exchanges.push({ body, authorization: req.headers.authorization });
    const answer = answers.shift() ?? { status: 500 };
    if (req.url !== "/v1/chat/completions") answer.status = 404;
    res.writeHead(answer.status ?? 200, { "content-type": "application/json" });
    res.end(
      answer.status && answer.status !== 200
        ? JSON.stringify({ error: { message: "stand-in failure" } })
        : JSON.stringify({ choices: [{ message: { role: "assistant", content: answer.content } }] }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function expander(): OpenAiQueryExpander {
  return new OpenAiQueryExpander({ baseUrl, apiKey: "sk-test", model: "stand-in-model", timeoutMs: 5_000 });
}

function reset(...queued: { status?: number; content?: string }[]): void {
  exchanges.length = 0;
  answers.length = 0;
  answers.push(...queued);
}

const SIX = [
  "rutina de mañana",
  "mamás ocupadas",
  "#rutinademañana",
  "rutina matutina realista",
  "mañanas productivas",
  "organización familiar",
];

describe("openai expansion (stand-in server)", () => {
  it("asks for exactly `count` distinct queries in the language, with a JSON schema, and returns them", async () => {
    reset({ content: JSON.stringify({ queries: SIX.map((q) => ` ${q} `) }) });
    const queries = await expander().expand("Morning routine videos for busy moms", 6, "Spanish");
    expect(queries).toEqual(SIX);
    expect(exchanges).toHaveLength(1);
    const { body, authorization } = exchanges[0]!;
    expect(authorization).toBe("Bearer sk-test");
    expect(body.model).toBe("stand-in-model");
    const messages = body.messages as { role: string; content: string }[];
    expect(messages[0]!.role).toBe("system");
    expect(messages[1]!.content).toMatch(/exactly 6 distinct search queries in Spanish/);
    expect(messages[1]!.content).toContain("Morning routine videos for busy moms");
    const format = body.response_format as {
      type: string;
      json_schema: { name: string; schema: { properties: { queries: { minItems: number; maxItems: number } } } };
    };
    expect(format.type).toBe("json_schema");
    expect(format.json_schema.name).toBe("radar_queries");
    expect(format.json_schema.schema.properties.queries).toMatchObject({ minItems: 6, maxItems: 6 });
  });

  it("retries a wrong answer once, then accepts a right one", async () => {
    reset({ content: JSON.stringify({ queries: SIX.slice(0, 5) }) }, { content: JSON.stringify({ queries: SIX }) });
    expect(await expander().expand("morning routine", 6, "Spanish")).toEqual(SIX);
    expect(exchanges).toHaveLength(2);
    const retry = (exchanges[1]!.body.messages as { content: string }[]).at(-1)!.content;
    expect(retry).toMatch(/answer was invalid/);
  });

  it("fails, not retryable, when the answer is invalid twice (wrong count, duplicates, not JSON)", async () => {
    for (const bad of [
      JSON.stringify({ queries: SIX.slice(0, 3) }),
      JSON.stringify({ queries: ["yoga", "Yoga", "#yoga", "a", "b", "c"] }),
      "here are your queries: yoga, pilates",
    ]) {
      reset({ content: bad }, { content: bad });
      const failure = await expander()
        .expand("yoga", 6, "English")
        .catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ProviderError);
      expect((failure as ProviderError).retryable).toBe(false);
      expect((failure as ProviderError).message).toMatch(/invalid twice/);
      expect(exchanges).toHaveLength(2);
    }
  });

  it("a server error is a retryable ProviderError", async () => {
    reset({ status: 503 });
    const failure = await expander()
      .expand("yoga", 3, "English")
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).retryable).toBe(true);
    expect((failure as ProviderError).message).toMatch(/HTTP 503/);
  });
});

describe("factories", () => {
  it("expands offline when no OpenAI-compatible server is configured", () => {
    expect(process.env.OPENAI_BASE_URL).toBeUndefined();
    expect(createQueryExpander().name).toBe("offline");
    expect(() => new OpenAiQueryExpander()).toThrow(ProviderError);
  });

  it("creates each configured search provider once, in order", () => {
    expect(createSearchProviders().map((p) => p.name)).toEqual(["catalog"]);
    expect(createSearchProviders(["ytdlp", "catalog", "ytdlp"]).map((p) => p.name)).toEqual(["ytdlp", "catalog"]);
  });
});
