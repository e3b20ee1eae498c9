/**
 * The `catalog` search provider on a hand-made catalog in this file's own database (migrated with
 * the real migrations, so the generated tsvector and its indexes are the production ones).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, prisma } from "../../src/infra/db.js";
import { ProviderError } from "../../src/domain/shared/provider-error.js";
import { asAlternatives, CatalogSearchProvider, catalogQuery, chooseAccessPath } from "../../src/domain/radar/catalog.js";
import { filtersFor, type MinViewsOption, type TimePeriod } from "../../src/domain/radar/filters.js";
import type { Platform } from "../../src/domain/shared/platform.js";
import type { SearchRequest } from "../../src/domain/radar/ports.js";

const NOW = new Date();
const START_OF_TODAY = new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth(), NOW.getUTCDate()));
const DAY = 24 * 60 * 60 * 1000;

interface Seed {
  id: string;
  platform?: Platform;
  description?: string;
  hashtags?: string[];
  username?: string;
  language?: string | null;
  views?: number | null;
  postedAt?: Date | null;
}

const CATALOG: Seed[] = [
  { id: "en-runs", description: "She runs along the river every morning", language: "en", views: 50_000 },
  { id: "unknown-lang", description: "Running shoes haul", language: null, views: 20_000 },
  { id: "es-corre", description: "Mi rutina: corre por la playa cada mañana", language: "es", views: 30_000 },
  { id: "tagged", description: "5 minute start to the day", hashtags: ["MorningRoutine", "fitness"], language: "en", views: 40_000 },
  { id: "routine-b", platform: "platformB", description: "My morning routine as a nurse", language: "en", views: 70_000 },
  { id: "routine-a", description: "My morning routine as a teacher", language: "en", views: 60_000 },
  { id: "coffee", description: "Morning routine with coffee first", language: "en", views: 10_000 },
  { id: "nine-k", description: "Sourdough starter feeding schedule", language: "en", views: 9_999 },
  { id: "ten-k", description: "Sourdough starter for beginners", language: "en", views: 10_000 },
  { id: "no-views", description: "Sourdough starter mistakes", language: "en", views: null },
  { id: "today", description: "Pancake recipe fluffy", language: "en", postedAt: new Date(START_OF_TODAY.getTime() + 60_000) },
  { id: "yesterday", description: "Pancake recipe vegan", language: "en", postedAt: new Date(START_OF_TODAY.getTime() - 1) },
  { id: "last-week", description: "Pancake recipe banana", language: "en", postedAt: new Date(NOW.getTime() - 6 * DAY) },
  { id: "undated", description: "Pancake recipe classic", language: "en", postedAt: null },
  { id: "creator", description: "Weekend vlog", username: "anna_bakes", language: "en", views: 1_000 },
  { id: "strong", description: "Knitting knitting knitting: a knitting pattern", hashtags: ["knitting"], language: "en", views: 5_000 },
  { id: "weak", description: "A long video about many hobbies, one of them is knitting", language: "en", views: 5_000 },
];

async function insert(seeds: Seed[]): Promise<void> {
  for (const s of seeds) {
    await prisma.video.create({
      data: {
        platform: s.platform ?? "platformA",
        platformVideoId: s.id,
        url: `https://example.invalid/${s.id}`,
        description: s.description ?? "",
        hashtags: s.hashtags ?? [],
        username: s.username ?? "someone",
        language: s.language === undefined ? "en" : s.language,
        viewCount: s.views === undefined ? 1_000 : s.views,
        postedAt: s.postedAt === undefined ? new Date(NOW.getTime() - 3 * DAY) : s.postedAt,
      },
    });
  }
}

const provider = new CatalogSearchProvider();

function request(
  text: string,
  extra: Partial<SearchRequest> & { minViewsOption?: MinViewsOption; period?: TimePeriod } = {},
): SearchRequest {
  const { minViewsOption = "any", period = "any", ...rest } = extra;
  const filters = filtersFor({ minViews: minViewsOption, timePeriod: period }, NOW);
  return { text, platform: "platformA", language: "English", limit: 50, ...filters, ...rest };
}

async function ids(text: string, extra: Parameters<typeof request>[1] = {}): Promise<string[]> {
  return (await provider.search(request(text, extra))).map((c) => c.platformVideoId).sort();
}

beforeAll(async () => {
  await insert(CATALOG);
});

afterAll(async () => {
  await closeDb();
});

describe("text matching", () => {
  it("stems in the searcher's language: 'running' finds an English video saying 'runs'", async () => {
    expect(await ids("running")).toEqual(["en-runs", "unknown-lang"]);
  });

  it("finds a video of unknown language by the exact word only (its vector is 'simple')", async () => {
    expect(await ids("runs")).toEqual(["en-runs"]);
  });

  it("uses the requested language's stemmer: Spanish 'corriendo' finds 'corre', English does not", async () => {
    expect(await ids("corriendo", { language: "Spanish" })).toEqual(["es-corre"]);
    expect(await ids("corriendo", { language: "English" })).toEqual([]);
    expect(await ids("corriendo", { language: "es" })).toEqual(["es-corre"]);
  });

  it("matches hashtags, hashtag forms included, and creators' handles", async () => {
    expect(await ids("#morningroutine")).toEqual(["tagged"]);
    expect(await ids("fitness")).toEqual(["tagged"]);
    expect(await ids("anna")).toEqual(["creator"]);
  });

  it("understands websearch syntax: quoted phrases and -exclusions (its plain words are then all required)", async () => {
    expect(await ids('"morning routine" -coffee')).toEqual(["routine-a"]);
    expect(await ids('"morning routine"')).toEqual(["coffee", "routine-a"]);
    expect(await ids("morning routine -nothing")).toEqual(["coffee", "routine-a"]);
  });

  it("takes a plain query's words as alternatives, the videos with more of them ranked first", async () => {
    const ranked = (await provider.search(request("morning routine"))).map((c) => c.platformVideoId);
    expect(ranked.slice(0, 2).sort()).toEqual(["coffee", "routine-a"]);
    expect(ranked).toContain("en-runs"); // "every morning": one of the words
    // A natural query with a word no video has still finds what matches the others.
    expect((await provider.search(request("knitting pattern tutorial"))).map((c) => c.platformVideoId)).toEqual(["strong", "weak"]);
    expect(await ids("sourdough beginners")).toEqual(["nine-k", "no-views", "ten-k"]);
    expect((await provider.search(request("sourdough beginners")))[0]!.platformVideoId).toBe("ten-k");
  });

  it("asAlternatives: plain words joined by `or`; websearch syntax kept as written", () => {
    expect(asAlternatives("cloud bread recipe")).toBe("cloud or bread or recipe");
    expect(asAlternatives("  bread  ")).toBe("  bread  ");
    expect(asAlternatives('"cloud bread" recipe')).toBe('"cloud bread" recipe');
    expect(asAlternatives("bread -cloud")).toBe("bread -cloud");
    expect(asAlternatives("bread or cake")).toBe("bread or cake");
  });

  it("treats user text as data, never as SQL", async () => {
    expect(await ids("'); DROP TABLE videos; --")).toEqual([]);
    expect(await ids("%' OR 1=1 --")).toEqual([]);
    expect(await prisma.video.count()).toBe(CATALOG.length);
  });

  it("returns nothing for empty text or a zero limit", async () => {
    expect(await ids("   ")).toEqual([]);
    expect(await ids("morning", { limit: 0 })).toEqual([]);
  });
});

describe("filters in SQL", () => {
  it("searches only the requested platform", async () => {
    expect(await ids("nurse")).toEqual([]);
    expect(await ids("nurse", { platform: "platformB" })).toEqual(["routine-b"]);
  });

  it("a 9,999-view video never passes 10k; 10,000 does; unknown views only pass any", async () => {
    expect(await ids("sourdough starter", { minViewsOption: "10k" })).toEqual(["ten-k"]);
    expect(await ids("sourdough starter", { minViewsOption: "any" })).toEqual(["nine-k", "no-views", "ten-k"]);
    expect(await ids("sourdough starter", { minViewsOption: "25k" })).toEqual([]);
  });

  it("today excludes yesterday's posts (even one millisecond before midnight UTC)", async () => {
    expect(await ids("pancake recipe", { period: "today" })).toEqual(["today"]);
    expect(await ids("pancake recipe", { period: "week" })).toEqual(["last-week", "today", "yesterday"]);
    expect(await ids("pancake recipe", { period: "any" })).toEqual(["last-week", "today", "undated", "yesterday"]);
  });
});

describe("ranking", () => {
  it("orders by text relevance, normalised so the best match has textRank 1", async () => {
    const found = await provider.search(request("knitting"));
    expect(found.map((c) => c.platformVideoId)).toEqual(["strong", "weak"]);
    expect(found[0]!.textRank).toBe(1);
    expect(found[1]!.textRank).toBeGreaterThan(0);
    expect(found[1]!.textRank).toBeLessThan(1);
  });

  it("respects the limit and maps rows to candidates with the catalog's ids and numbers", async () => {
    const found = await provider.search(request("morning", { limit: 2 }));
    expect(found).toHaveLength(2);
    const row = await prisma.video.findFirstOrThrow({ where: { platformVideoId: found[0]!.platformVideoId } });
    expect(found[0]).toMatchObject({
      videoId: row.id,
      platform: "platformA",
      url: row.url,
      description: row.description,
      viewCount: Number(row.viewCount),
      likeCount: null,
      postedAt: row.postedAt,
    });
  });
});

describe("access paths", () => {
  it("narrow and broad paths return the same rows in the same order", async () => {
    for (const [text, extra] of [
      ["morning", {}],
      ["sourdough starter", {}],
      ["sourdough starter", { minViewsOption: "10k" }],
      ["pancake recipe", { period: "week" }],
    ] as const) {
      const req = request(text, extra);
      const narrow = await prisma.$queryRaw<{ id: string }[]>(catalogQuery(req, text, 50, "narrow"));
      const broad = await prisma.$queryRaw<{ id: string }[]>(catalogQuery(req, text, 50, "broad"));
      expect(broad.map((r) => r.id)).toEqual(narrow.map((r) => r.id));
      expect(narrow.length).toBeGreaterThan(0);
    }
  });

  it("picks the path that reads fewer rows, from PostgreSQL's estimates", async () => {
    expect(chooseAccessPath({ matches: 100, walked: 500_000 }, 200)).toBe("narrow");
    expect(chooseAccessPath({ matches: 100_000, walked: 500_000 }, 200)).toBe("broad");
    expect(chooseAccessPath({ matches: 0, walked: 500_000 }, 200)).toBe("narrow");
    const estimate = await provider.estimate(request("morning"), "morning");
    expect(estimate.matches).toBeGreaterThan(0);
    expect(estimate.walked).toBeGreaterThan(0);
  });
});

describe("failures", () => {
  it("a database it cannot reach is a retryable ProviderError, never an empty result", async () => {
    const unreachable = new pg.Pool({ connectionString: "postgresql://root@127.0.0.1:1/none", connectionTimeoutMillis: 2000 });
    try {
      const failure = await new CatalogSearchProvider(unreachable).search(request("morning")).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ProviderError);
      expect((failure as ProviderError).retryable).toBe(true);
      expect((failure as ProviderError).message).toMatch(/^catalog: /);
    } finally {
      await unreachable.end();
    }
  });
});
