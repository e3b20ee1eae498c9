/**
 * Query expansion: the user's description of the content sought → `count` distinct search queries.
 *
 * - `offline`: deterministic, no network. Keywords are the description's words minus stop words
 *   (English, Spanish, German, French and Portuguese lists, plus words that describe the search
 *   rather than the content: "videos", "looking", "content"...). Queries are drawn in turn from
 *   these groups, so even `quick` mixes kinds: the core (all keywords), phrases (runs of keywords
 *   not broken by a stop word or punctuation, and their bigrams), hashtag forms (#morningroutine),
 *   the head phrase with discovery modifiers in the requested language ("tips", "ideas"...),
 *   single keywords, then keyword pairs. It cannot translate: queries keep the user's words, and
 *   only the modifiers follow the requested language.
 * - `openai`: an OpenAI-compatible chat model asked for exactly `count` distinct queries in the
 *   requested language (JSON schema `{queries: string[]}`; a bad answer is retried once by the
 *   client, then fails: no fallback to invented queries).
 *
 * Queries count as distinct when they differ once lower-cased with "#" dropped: "#yoga" and "yoga"
 * search for the same thing, "#morningroutine" and "morning routine" do not.
 */
import { z } from "zod";
import { config } from "../../config.ts";
import { OpenAiClient } from "../openai/client.ts";
import { ProviderError } from "../../domain/shared/provider-error.ts";
import type { QueryExpander } from "../../domain/radar/ports.ts";

export type LanguageCode = "en" | "es" | "de" | "fr" | "pt";

/** Longest core query, in words: the catalog requires every word to match. */
const CORE_MAX_WORDS = 6;
const PHRASE_MAX_WORDS = 4;

const words = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

const STOP_WORDS: Record<LanguageCode, Set<string>> = {
  en: words(`a about above after again against all am an and any are aren't as at be because been before being below
    between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from
    further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his how
    how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my myself no nor not of off on
    once only or other ought our ours ourselves out over own same shan't she she'd she'll she's should shouldn't so some
    such than that that's the their theirs them themselves then there there's these they they'd they'll they're they've this
    those through to too under until up very was wasn't we we'd we'll we're we've were weren't what what's when when's where
    where's which while who who's whom why why's with won't would wouldn't you you'd you'll you're you've your yours yourself
    yourselves also just get gets got really like likes lot lots much many will etc via`),
  es: words(`a al algo algunas algunos ante antes como con contra cual cuando de del desde donde durante e el él ella
    ellas ellos en entre era es esa esas ese eso esos esta está estaba estamos están estar estas este esto estos estoy fue
    ha han hasta hay la las le les lo los más me mi mí mis mucho muchos muy nada ni no nos nosotros nuestra nuestras nuestro
    nuestros o os otra otras otro otros para pero poco por porque que qué quien quienes se sea ser si sí sin sobre son su
    sus también tanto te tengo tiene tienen ti tu tú tus un una unas uno unos vosotros y ya yo cómo dónde cuál`),
  de: words(`aber alle allem allen aller alles als also am an andere anderen anderer anderes auch auf aus bei bin bis
    bist da damit dann das dass daß dein deine dem den denn der des dich die dies diese diesem diesen dieser dieses dir doch
    dort du durch ein eine einem einen einer eines er es etwas euch euer eure für gegen gewesen hab habe haben hat hatte
    hatten hier hin ich ihm ihn ihnen ihr ihre ihrem ihren ihrer im in ins ist jede jedem jeden jeder jedes jetzt kann kein
    keine keinem keinen keiner können machen man manche mein meine meinem meinen meiner mich mir mit muss nach nicht nichts
    noch nun nur ob oder ohne sehr sein seine seinem seinen seiner sich sie sind so soll sollte sondern über um und uns
    unser unsere unter viel vom von vor während war waren was weil welche welchem welchen welcher wenn werde werden wie
    wieder will wir wird wo wollen würde zu zum zur zwischen`),
  fr: words(`à au aux avec ce ceci cela celle celles celui ces cet cette comme dans de des du elle elles en est et eux il
    ils je la le les leur leurs lui ma mais me même mes moi mon ne ni nos notre nous on ou où par pas pour plus qu que quel
    quelle quelles quels qui sa sans se ses si son sont sur ta te tes toi ton tous tout toute toutes très tu un une vos
    votre vous y été être avoir ai as a avons avez ont était sommes êtes suis c'est qu'il qu'elle`),
  pt: words(`a à ao aos aquela aquelas aquele aqueles aquilo as às até com como da das de dela delas dele deles depois do
    dos e é ela elas ele eles em entre era eram essa essas esse esses esta está estão estas este estes eu foi for foram há
    isso isto já lhe lhes mais mas me mesmo meu meus minha minhas muito na não nas nem no nos nós nossa nossas nosso nossos
    num numa o os ou para pela pelas pelo pelos por qual quando que quem se sem ser seu seus só sua suas também te tem têm
    teu teus tu tua tuas um uma umas uns você vocês vos`),
};

/** Words that describe the search, not the content sought ("find me videos of…"). */
const SEARCH_WORDS: Record<LanguageCode, Set<string>> = {
  en: words(`video videos clip clips content contents find finding looking look search searching show shows showing want
    wanted need something someone anyone people person creator creators post posts`),
  es: words(`video videos vídeo vídeos clip clips contenido contenidos busco buscar buscando quiero muestra mostrar
    personas persona gente alguien creador creadores publicación publicaciones`),
  de: words(`video videos clip clips inhalt inhalte suche suchen zeigen zeigt leute person personen jemand creator`),
  fr: words(`vidéo vidéos video videos clip clips contenu contenus cherche chercher montrer montre personnes personne gens
    créateur créateurs`),
  pt: words(`vídeo vídeos video videos clipe clipes conteúdo conteúdos procuro procurar mostrar mostra pessoas pessoa
    gente alguém criador criadores`),
};

/** Discovery modifiers per language; "{}" is the head phrase. */
const MODIFIERS: Record<LanguageCode, string[]> = {
  en: [
    "{} tips",
    "{} ideas",
    "{} tutorial",
    "best {}",
    "{} for beginners",
    "{} challenge",
    "{} hacks",
    "{} review",
    "{} inspiration",
    "{} trend",
  ],
  es: [
    "consejos {}",
    "ideas de {}",
    "tutorial {}",
    "mejores {}",
    "{} para principiantes",
    "reto {}",
    "trucos {}",
    "{} reseña",
    "inspiración {}",
    "tendencia {}",
  ],
  de: [
    "{} tipps",
    "{} ideen",
    "{} anleitung",
    "beste {}",
    "{} für anfänger",
    "{} challenge",
    "{} hacks",
    "{} test",
    "{} inspiration",
    "{} trend",
  ],
  fr: [
    "astuces {}",
    "idées {}",
    "tuto {}",
    "meilleurs {}",
    "{} débutant",
    "défi {}",
    "{} hacks",
    "{} avis",
    "inspiration {}",
    "tendance {}",
  ],
  pt: [
    "dicas de {}",
    "ideias de {}",
    "tutorial {}",
    "melhores {}",
    "{} para iniciantes",
    "desafio {}",
    "truques {}",
    "{} review",
    "inspiração {}",
    "tendência {}",
  ],
};

const LANGUAGE_NAMES: Record<string, LanguageCode> = {
  en: "en",
  english: "en",
  inglés: "en",
  englisch: "en",
  anglais: "en",
  inglês: "en",
  es: "es",
  spanish: "es",
  español: "es",
  espanol: "es",
  castellano: "es",
  spanisch: "es",
  espagnol: "es",
  espanhol: "es",
  de: "de",
  german: "de",
  deutsch: "de",
  alemán: "de",
  allemand: "de",
  alemão: "de",
  fr: "fr",
  french: "fr",
  français: "fr",
  francais: "fr",
  francés: "fr",
  französisch: "fr",
  francês: "fr",
  pt: "pt",
  portuguese: "pt",
  português: "pt",
  portugues: "pt",
  portugués: "pt",
  portugiesisch: "pt",
  portugais: "pt",
};

/** "English", "pt-BR", "Español" → a language with stop words here, or null. */
export function languageCode(language: string): LanguageCode | null {
  const key =
    language
      .trim()
      .toLowerCase()
      .split(/[-_\s]/)[0] ?? "";
  return LANGUAGE_NAMES[key] ?? null;
}

/** Search key of a query: what makes two queries the same search. */
export function queryKey(query: string): string {
  return query.toLowerCase().replace(/#/g, "").replace(/\s+/g, " ").trim();
}

interface Token {
  word: string;
  hashtag: boolean;
}

/** Words (apostrophes inside kept) and #hashtags, lower-cased; punctuation becomes a break (null). */
function tokenize(text: string): (Token | null)[] {
  const out: (Token | null)[] = [];
  const pattern = /(#?)([\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*)|([.,;:!?()[\]{}"“”«»|/\\\n–—]+)/gu;
  for (const m of text.normalize("NFC").matchAll(pattern)) {
    if (m[3] !== undefined) out.push(null);
    else out.push({ word: m[2]!.toLowerCase().replace(/’/g, "'"), hashtag: m[1] === "#" });
  }
  return out;
}

/** The language whose stop words the text uses most, if any. */
function detectLanguage(tokens: (Token | null)[]): LanguageCode | null {
  let best: LanguageCode | null = null;
  let bestHits = 0;
  for (const code of Object.keys(STOP_WORDS) as LanguageCode[]) {
    const hits = tokens.filter((t) => t && STOP_WORDS[code].has(t.word)).length;
    if (hits > bestHits) [best, bestHits] = [code, hits];
  }
  return best;
}

/** The content word inside an elided or possessive form ("l'école" → "école", "mom's" → "mom"). */
function contentWord(word: string): string {
  const elided = /^(?:l|d|j|m|n|s|t|c|qu)'(.+)$/.exec(word);
  if (elided) return elided[1]!;
  return word.replace(/'s$/, "");
}

/** Genitive linkers that join two nouns into one phrase ("treino de pernas", "organisation de la maison"). */
const LINKERS = words("of de del da do das dos du des la d'");

interface Analysis {
  keywords: string[];
  /** Runs of consecutive keywords, in order. */
  runs: string[][];
  /** Keyword + linkers + keyword, as written. */
  linked: string[];
  hashtags: string[];
}

type Item = { kind: "keyword"; word: string } | { kind: "stop"; word: string } | { kind: "break" };

function classify(description: string, language: LanguageCode | null): { items: Item[]; hashtags: string[] } {
  const tokens = tokenize(description);
  const languages = new Set([language, detectLanguage(tokens)].filter((l): l is LanguageCode => l !== null));
  if (languages.size === 0) languages.add("en");
  const isStop = (w: string) => [...languages].some((l) => STOP_WORDS[l].has(w) || SEARCH_WORDS[l].has(w));
  const items: Item[] = [];
  const hashtags: string[] = [];
  for (const token of tokens) {
    if (token === null) items.push({ kind: "break" });
    else if (token.hashtag) {
      hashtags.push(`#${token.word.replace(/'/g, "")}`);
      items.push({ kind: "break" });
    } else {
      const elision = /^([a-z]{1,2})'/.exec(token.word)?.[1];
      const word = contentWord(token.word);
      if (elision && word !== token.word) items.push({ kind: "stop", word: `${elision}'` });
      const tooShort = word.length < 2 && !/\p{N}/u.test(word);
      items.push(isStop(token.word) || isStop(word) || tooShort ? { kind: "stop", word } : { kind: "keyword", word });
    }
  }
  return { items, hashtags };
}

function analyse(description: string, language: LanguageCode | null): Analysis {
  const { items, hashtags } = classify(description, language);
  const keywords = [...new Set(items.flatMap((i) => (i.kind === "keyword" ? [i.word] : [])))];
  const runs: string[][] = [];
  let run: string[] = [];
  for (const item of [...items, { kind: "break" } as Item]) {
    if (item.kind === "keyword") {
      run.push(item.word);
    } else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  }
  return { keywords, runs, linked: linkedPhrases(items), hashtags };
}

function linkedPhrases(items: Item[]): string[] {
  const phrases: string[] = [];
  items.forEach((item, i) => {
    if (item.kind !== "keyword") return;
    let j = i + 1;
    const linkers: string[] = [];
    while (j < items.length && linkers.length < 2) {
      const next = items[j]!;
      if (next.kind !== "stop" || !LINKERS.has(next.word)) break;
      linkers.push(next.word);
      j++;
    }
    const right = items[j];
    if (linkers.length > 0 && right?.kind === "keyword") {
      phrases.push([item.word, ...linkers, right.word].join(" ").replace(/' /g, "'"));
    }
  });
  return phrases;
}

const hashtagOf = (phrase: string) => `#${phrase.replace(/[^\p{L}\p{N}]/gu, "")}`;

/** The groups queries are drawn from, each in its own order of preference. */
function candidateGroups(a: Analysis, language: LanguageCode): string[][] {
  const phrases = a.runs.filter((r) => r.length >= 2).map((r) => r.slice(0, PHRASE_MAX_WORDS).join(" "));
  const bigrams = a.runs.flatMap((r) => r.slice(0, -1).map((w, i) => `${w} ${r[i + 1]}`));
  const multiWord = [...phrases, ...a.linked, ...bigrams];
  // Longer words first: they are usually the more specific ones.
  const singles = [...a.keywords].sort((x, y) => y.length - x.length || a.keywords.indexOf(x) - a.keywords.indexOf(y));
  const head = multiWord[0] ?? a.keywords[0] ?? "";
  const pairs = a.keywords.flatMap((x, i) => a.keywords.slice(i + 1).map((y) => `${x} ${y}`));
  return [
    [a.keywords.slice(0, CORE_MAX_WORDS).join(" ")],
    multiWord,
    [...a.hashtags, ...multiWord.map(hashtagOf), ...singles.filter((w) => w.length >= 4).map(hashtagOf)],
    head ? modifiedQueries(head, language) : [],
    singles,
    pairs,
  ];
}

/**
 * The head phrase with each modifier (except modifiers that repeat one of its words), then their
 * hashtag forms (#yogatips), so even a one-word description gives a deep search its 12 queries.
 */
function modifiedQueries(head: string, language: LanguageCode): string[] {
  const headWords = new Set(head.split(" "));
  const plain = MODIFIERS[language]
    .filter(
      (m) =>
        !m
          .replace("{}", " ")
          .split(/\s+/)
          .some((w) => headWords.has(w)),
    )
    .map((m) => m.replace("{}", head));
  return [...plain, ...plain.map(hashtagOf)];
}

/** Round-robin over the groups, skipping queries already taken (by search key), up to `count`. */
function drawDistinct(groups: string[][], count: number): string[] {
  const taken = new Set<string>();
  const queries: string[] = [];
  const cursors = groups.map(() => 0);
  let progressed = true;
  while (queries.length < count && progressed) {
    progressed = false;
    for (const [g, group] of groups.entries()) {
      while (cursors[g]! < group.length) {
        const query = group[cursors[g]!++]!.trim();
        const key = queryKey(query);
        if (key === "" || taken.has(key)) continue;
        taken.add(key);
        queries.push(query);
        progressed = true;
        break;
      }
      if (queries.length === count) break;
    }
  }
  return queries;
}

/**
 * The offline expansion: `count` distinct queries whenever the description has at least one
 * keyword (the modifiers and their hashtag forms alone give twenty), else the trimmed description
 * itself, once.
 */
export function expandOffline(description: string, count: number, language: string): string[] {
  const wanted = Math.max(0, Math.floor(count));
  if (wanted === 0) return [];
  const code = languageCode(language);
  const analysis = analyse(description, code);
  const queries = drawDistinct(candidateGroups(analysis, code ?? "en"), wanted);
  if (queries.length > 0) return queries;
  const fallback = description.replace(/\s+/g, " ").trim();
  return fallback ? [fallback] : [];
}

export class OfflineQueryExpander implements QueryExpander {
  readonly name = "offline" as const;

  async expand(description: string, count: number, language: string): Promise<string[]> {
    return expandOffline(description, count, language);
  }
}

export interface OpenAiExpanderOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

/** The answer's shape: exactly `count` non-empty, distinct queries. */
function queriesSchema(count: number) {
  return z.object({
    queries: z
      .array(z.string().trim().min(1).max(200))
      .length(count)
      .refine((qs) => new Set(qs.map(queryKey)).size === qs.length, "the queries must be distinct"),
  });
}

const SYSTEM_PROMPT = [
  "You write search queries for discovering social videos (short-form and long-form) about what a user describes.",
  'Answer with a JSON object {"queries": [...]} and nothing else.',
  "Each query is what a person would type into a video platform's search box: 1 to 6 words, or one hashtag starting with #.",
  "No numbering, no quotes, no platform or brand names. Every query must differ from the others.",
  "Cover different angles: the main topic, narrower sub-topics, synonyms and the words creators use, and popular hashtags.",
].join("\n");

export class OpenAiQueryExpander implements QueryExpander {
  readonly name = "openai" as const;
  private readonly client: OpenAiClient;
  private readonly model: string;

  constructor(options: Partial<OpenAiExpanderOptions> = {}) {
    const baseUrl = options.baseUrl ?? config.openai.baseUrl;
    if (!baseUrl) throw new ProviderError("openai", "LLM query expansion needs OPENAI_BASE_URL", false);
    this.client = new OpenAiClient("openai", {
      baseUrl,
      apiKey: options.apiKey ?? config.openai.apiKey,
      timeoutMs: options.timeoutMs ?? config.openai.timeoutMs,
    });
    this.model = options.model ?? config.openai.model;
  }

  async expand(description: string, count: number, language: string): Promise<string[]> {
    const wanted = Math.max(0, Math.floor(count));
    if (wanted === 0) return [];
    const answer = await this.client.chatJson({
      model: this.model,
      system: SYSTEM_PROMPT,
      user: `Write exactly ${wanted} distinct search queries in ${language}.\n\nWhat the user is looking for:\n${description}`,
      schemaName: "radar_queries",
      schema: queriesSchema(wanted),
    });
    return answer.queries.map((q) => q.replace(/\s+/g, " "));
  }
}
