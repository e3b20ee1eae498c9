/** The radar's filter vocabulary, scoring and merging: pure functions. */
import { describe, expect, it } from "vitest";
import { filtersFor, MIN_VIEWS, postedAfterFor, QUERIES_PER_DEPTH, TIME_PERIODS } from "../../src/domain/radar/filters.js";
import { passesFilters } from "../../src/domain/radar/ports.js";
import {
  compareRanked,
  candidateEngagementRate,
  MAX_RESULTS,
  mergeAndRank,
  recencySignal,
  SCORE_WEIGHTS,
  scoreCandidate,
  termOverlap,
  viewsSignal,
  type QueryResults,
} from "../../src/domain/radar/ranking.js";
import type { SearchCandidate } from "../../src/domain/radar/ports.js";

const NOW = new Date("2026-03-31T10:30:00.000Z");
const DAY = 24 * 60 * 60 * 1000;

function candidate(id: string, extra: Partial<SearchCandidate> = {}): SearchCandidate {
  return {
    videoId: null,
    platform: "platformA",
    platformVideoId: id,
    url: `https://example.invalid/${id}`,
    description: "",
    username: "",
    viewCount: 1000,
    likeCount: 50,
    commentCount: 5,
    shareCount: 5,
    postedAt: new Date(NOW.getTime() - 2 * DAY),
    thumbnailUrl: "",
    textRank: 0.5,
    ...extra,
  };
}

const ANY = { minViews: 0, postedAfter: null };

describe("vocabulary", () => {
  it("has the spec's options and counts", () => {
    expect(MIN_VIEWS).toEqual({ any: 0, "10k": 10_000, "25k": 25_000, "50k": 50_000, "100k": 100_000 });
    expect(QUERIES_PER_DEPTH).toEqual({ quick: 3, standard: 6, deep: 12 });
    expect(TIME_PERIODS).toEqual(["any", "today", "week", "last month", "month", "year"]);
    expect(MAX_RESULTS).toBe(50);
  });
});

describe("time periods", () => {
  it("today starts at 00:00 UTC of the current day, not 24 hours ago", () => {
    expect(postedAfterFor("today", NOW)?.toISOString()).toBe("2026-03-31T00:00:00.000Z");
    const lateYesterday = candidate("y", { postedAt: new Date("2026-03-30T23:59:59.999Z") });
    const earlyToday = candidate("t", { postedAt: new Date("2026-03-31T00:00:00.000Z") });
    const filters = filtersFor({ minViews: "any", timePeriod: "today" }, NOW);
    expect(passesFilters(lateYesterday, filters)).toBe(false);
    expect(passesFilters(earlyToday, filters)).toBe(true);
  });

  it("today just after midnight still excludes yesterday", () => {
    const justAfter = new Date("2026-04-01T00:00:05.000Z");
    const filters = filtersFor({ minViews: "any", timePeriod: "today" }, justAfter);
    expect(passesFilters(candidate("y", { postedAt: new Date("2026-03-31T23:59:00.000Z") }), filters)).toBe(false);
  });

  it("week is the last 7 × 24 hours", () => {
    expect(postedAfterFor("week", NOW)?.toISOString()).toBe("2026-03-24T10:30:00.000Z");
  });

  it("last month and month go back one calendar month, clamped to the month's last day", () => {
    expect(postedAfterFor("last month", NOW)?.toISOString()).toBe("2026-02-28T10:30:00.000Z");
    expect(postedAfterFor("month", new Date("2026-11-22T08:00:00Z"))?.toISOString()).toBe("2026-10-22T08:00:00.000Z");
    expect(postedAfterFor("month", new Date("2026-01-15T00:00:00Z"))?.toISOString()).toBe("2025-12-15T00:00:00.000Z");
  });

  it("year goes back one calendar year (29 February → 28 February)", () => {
    expect(postedAfterFor("year", new Date("2028-02-29T12:00:00Z"))?.toISOString()).toBe("2027-02-28T12:00:00.000Z");
    expect(postedAfterFor("year", NOW)?.toISOString()).toBe("2025-03-31T10:30:00.000Z");
  });

  it("any has no bound, and lets an unknown posting time through", () => {
    expect(postedAfterFor("any", NOW)).toBeNull();
    expect(passesFilters(candidate("n", { postedAt: null }), ANY)).toBe(true);
  });

  it("an unknown posting time never passes a period", () => {
    expect(passesFilters(candidate("n", { postedAt: null }), filtersFor({ minViews: "any", timePeriod: "year" }, NOW))).toBe(false);
  });
});

describe("minimum views", () => {
  const tenK = filtersFor({ minViews: "10k", timePeriod: "any" }, NOW);

  it("is inclusive: 9,999 never passes 10k, 10,000 does", () => {
    expect(passesFilters(candidate("a", { viewCount: 9_999 }), tenK)).toBe(false);
    expect(passesFilters(candidate("b", { viewCount: 10_000 }), tenK)).toBe(true);
  });

  it("unknown views pass any, never a minimum above 0", () => {
    expect(passesFilters(candidate("a", { viewCount: null }), ANY)).toBe(true);
    expect(passesFilters(candidate("a", { viewCount: null }), tenK)).toBe(false);
  });
});

describe("scoreCandidate", () => {
  it("weights sum to 1 and scores stay within 0-1", () => {
    expect(Object.values(SCORE_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    const best = candidate("x", { textRank: 1, viewCount: 1e9, likeCount: 1e9, commentCount: 0, shareCount: 0, postedAt: NOW });
    const worst = candidate("y", {
      textRank: 0,
      viewCount: null,
      likeCount: null,
      commentCount: null,
      shareCount: null,
      postedAt: null,
      description: "",
    });
    expect(scoreCandidate(best, "q", NOW)).toBeCloseTo(1, 10);
    expect(scoreCandidate(worst, "q", NOW)).toBe(0);
  });

  it("rises with relevance, views, engagement and recency, each alone", () => {
    const base = candidate("b");
    const score = (c: SearchCandidate) => scoreCandidate(c, "cookies", NOW);
    expect(score({ ...base, textRank: 0.9 })).toBeGreaterThan(score(base));
    expect(score({ ...base, viewCount: 100_000, likeCount: 5_000, commentCount: 500, shareCount: 500 })).toBeGreaterThan(score(base));
    expect(score({ ...base, likeCount: 200 })).toBeGreaterThan(score(base));
    expect(score({ ...base, postedAt: new Date(NOW.getTime() - DAY) })).toBeGreaterThan(score(base));
  });

  it("scales views logarithmically and recency by a 30-day half-life", () => {
    expect(viewsSignal(9_999)).toBeCloseTo(0.5, 2);
    expect(viewsSignal(1_000_000)).toBeCloseTo(0.75, 2);
    expect(viewsSignal(null)).toBe(0);
    expect(recencySignal(new Date(NOW.getTime() - 30 * DAY), NOW)).toBeCloseTo(0.5, 10);
    expect(recencySignal(new Date(NOW.getTime() + DAY), NOW)).toBe(1);
  });

  it("uses the words of the query when the source gives no relevance", () => {
    expect(termOverlap("#morning routine", "My MORNING routines before work")).toBe(1);
    expect(termOverlap("morning routine", "evening routine")).toBe(0.5);
    const noRank = candidate("n", { textRank: null, description: "Morning routine for moms" });
    expect(scoreCandidate(noRank, "morning routine", NOW)).toBeGreaterThan(
      scoreCandidate({ ...noRank, description: "cats" }, "morning routine", NOW),
    );
  });

  it("uses the service's one engagement rate (saves included; unknown counts as 0, no views gives 0)", () => {
    expect(candidateEngagementRate(candidate("e", { viewCount: 1000, likeCount: 80, commentCount: null, shareCount: 20 }))).toBeCloseTo(
      10,
      10,
    );
    expect(
      candidateEngagementRate(candidate("e", { viewCount: 1000, likeCount: 80, commentCount: 0, shareCount: 20, bookmarkCount: 50 })),
    ).toBeCloseTo(15, 10);
    expect(candidateEngagementRate(candidate("e", { viewCount: 0 }))).toBe(0);
    expect(candidateEngagementRate(candidate("e", { likeCount: null, commentCount: null, shareCount: null }))).toBe(0);
  });
});

describe("mergeAndRank", () => {
  it("keeps one entry per platform and id: the best score and the query that gave it", () => {
    const results: QueryResults[] = [
      { query: "first", candidates: [candidate("v1", { textRank: 0.2 })] },
      { query: "second", candidates: [candidate("v1", { textRank: 0.9 }), candidate("v1", { platform: "platformB", textRank: 0.1 })] },
    ];
    const ranked = mergeAndRank(results, 10, { filters: ANY, now: NOW });
    expect(ranked).toHaveLength(2);
    const a = ranked.find((r) => r.platform === "platformA")!;
    expect(a.matchedQuery).toBe("second");
    expect(a.score).toBeCloseTo(scoreCandidate(candidate("v1", { textRank: 0.9 }), "second", NOW), 10);
  });

  it("on equal scores keeps the earlier query, and borrows a catalog videoId from a duplicate", () => {
    const ranked = mergeAndRank(
      [
        { query: "one", candidates: [candidate("v1")] },
        { query: "two", candidates: [candidate("v1", { videoId: "11111111-1111-1111-1111-111111111111" })] },
      ],
      10,
      { filters: ANY, now: NOW },
    );
    expect(ranked).toHaveLength(1);
    expect(ranked[0]).toMatchObject({ matchedQuery: "one", videoId: "11111111-1111-1111-1111-111111111111" });
  });

  it("filters again: a 9k-view video never passes 10k, unknown views never pass a minimum, old posts never pass a period", () => {
    const filters = filtersFor({ minViews: "10k", timePeriod: "week" }, NOW);
    const ranked = mergeAndRank(
      [
        {
          query: "q",
          candidates: [
            candidate("nine-k", { viewCount: 9_000 }),
            candidate("unknown", { viewCount: null }),
            candidate("old", { viewCount: 50_000, postedAt: new Date(NOW.getTime() - 8 * DAY) }),
            candidate("undated", { viewCount: 50_000, postedAt: null }),
            candidate("ok", { viewCount: 10_000 }),
          ],
        },
      ],
      10,
      { filters, now: NOW },
    );
    expect(ranked.map((r) => r.platformVideoId)).toEqual(["ok"]);
  });

  it("sorts by score, then views, then platform and id, and keeps the best N", () => {
    const same = { textRank: 0.5, likeCount: 0, commentCount: 0, shareCount: 0, postedAt: null };
    const candidates = [
      candidate("c", { ...same, viewCount: 100 }),
      candidate("a", { ...same, viewCount: 100 }),
      candidate("b", { ...same, viewCount: 100, platform: "platformB" }),
      candidate("top", { ...same, textRank: 1, viewCount: 100 }),
    ];
    const forward = mergeAndRank([{ query: "q", candidates }], 3, { filters: ANY, now: NOW });
    const backward = mergeAndRank([{ query: "q", candidates: [...candidates].reverse() }], 3, { filters: ANY, now: NOW });
    expect(forward.map((r) => `${r.platform}:${r.platformVideoId}`)).toEqual(["platformA:top", "platformA:a", "platformA:c"]);
    expect(backward).toEqual(forward);
    for (let i = 1; i < forward.length; i++) expect(compareRanked(forward[i - 1]!, forward[i]!)).toBeLessThan(0);
  });

  it("keeps MAX_RESULTS by default and reports engagement in percent", () => {
    const many = Array.from({ length: 80 }, (_, i) =>
      candidate(`v${i}`, { viewCount: 1000 + i, likeCount: 100, commentCount: 0, shareCount: 0 }),
    );
    const ranked = mergeAndRank([{ query: "q", candidates: many }], undefined, { filters: ANY, now: NOW });
    expect(ranked).toHaveLength(MAX_RESULTS);
    for (const r of ranked) expect(r.engagementRate).toBeCloseTo((100 / r.viewCount!) * 100, 3);
    expect(mergeAndRank([{ query: "q", candidates: many }], 0, { filters: ANY, now: NOW })).toEqual([]);
  });
});
