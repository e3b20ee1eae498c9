/**
 * Account tracking rules judged (src/domain/tracking/rules.ts, pure): each rule, in the order they
 * are checked, whole words only, and what a listing does not give never refusing a video. The
 * rules as every door validates them (src/domain/tracking/inputs.ts accountRules).
 */
import { describe, expect, it } from "vitest";
import { accountRules } from "../../src/domain/tracking/inputs.js";
import { hasRules, judgeVideo, NO_RULES, storedRules } from "../../src/domain/tracking/rules.js";

const video = (o: Partial<Parameters<typeof judgeVideo>[1]> = {}) => ({
  description: "Sourdough at dawn #bread #ad",
  hashtags: ["bread", "ad"],
  durationSeconds: 42,
  postedAt: new Date("2026-11-20T08:00:00Z"),
  ...o,
});
const rules = (r: object) => accountRules.parse(r);

describe("account tracking rules", () => {
  it("no rule lets everything in", () => {
    expect(hasRules(NO_RULES)).toBe(false);
    expect(judgeVideo(NO_RULES, video())).toBeNull();
    expect(storedRules({ surprise: true })).toEqual(NO_RULES);
  });

  it("hashtags: excluded ones refuse, required ones must be there (any of them); stored without # and lower-cased", () => {
    const r = rules({ excludeHashtags: ["#AD"], includeHashtags: ["Bread", "#cake"] });
    expect(r.excludeHashtags).toEqual(["ad"]);
    expect(judgeVideo(r, video())).toEqual({ rule: "excludeHashtags", reason: "Has #ad, which this account's rules exclude." });
    expect(judgeVideo(r, video({ hashtags: ["bread"] }))).toBeNull();
    expect(judgeVideo(r, video({ hashtags: ["pie"] }))).toEqual({
      rule: "includeHashtags",
      reason: "Has none of #bread, #cake, which this account's rules require.",
    });
    expect(judgeVideo(r, video({ hashtags: [] }))?.rule).toBe("includeHashtags");
  });

  it("words: whole words or phrases of the description, case-insensitively", () => {
    const never = rules({ excludeWords: ["Giveaway", "link in bio"] });
    expect(judgeVideo(never, video({ description: "Big GIVEAWAY today" }))?.reason).toBe(
      'Mentions "giveaway", which this account\'s rules exclude.',
    );
    expect(judgeVideo(never, video({ description: "giveaways are over" }))).toBeNull();
    expect(judgeVideo(never, video({ description: "the Link in bio!" }))?.rule).toBe("excludeWords");
    const only = rules({ includeWords: ["recipe"] });
    expect(judgeVideo(only, video({ description: "My recipe, step by step" }))).toBeNull();
    expect(judgeVideo(only, video({ description: "recipes galore" }))?.rule).toBe("includeWords");
  });

  it("duration and posting day refuse only what the listing says; unknown values pass", () => {
    const r = rules({ minDurationSeconds: 60, postedAfter: "2026-11-21" });
    expect(judgeVideo(r, video())).toEqual({ rule: "minDurationSeconds", reason: "Lasts 42 s, shorter than the rules' minimum of 60 s." });
    expect(judgeVideo(r, video({ durationSeconds: 90 }))).toEqual({
      rule: "postedAfter",
      reason: "Posted on 2026-11-20, before 2026-11-21, the first day the rules take.",
    });
    expect(judgeVideo(r, video({ durationSeconds: 90, postedAt: new Date("2026-11-21T00:00:00Z") }))).toBeNull();
    expect(judgeVideo(r, video({ durationSeconds: null, postedAt: null }))).toBeNull();
  });

  it("exclusions are checked before inclusions", () => {
    const r = rules({ includeHashtags: ["bread"], excludeWords: ["dawn"] });
    expect(judgeVideo(r, video())?.rule).toBe("excludeWords");
  });

  it("refuses what no door may store", () => {
    for (const bad of [
      { excludeHashtags: ["two words"] },
      { includeWords: [""] },
      { minDurationSeconds: 1.5 },
      { postedAfter: "21/11/2026" },
      { other: 1 },
      { excludeHashtags: Array(21).fill("x") },
    ]) {
      expect(accountRules.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
