/**
 * A page's owner columns (src/domain/tracking/views.ts, `ownerRead` and `readOwner`): a read of some of the
 * account's own fields selects only their columns, and a row answers an owner only with every column the asker
 * needs. A row read in part (and primed into the Video loader) can never pass for the whole account.
 */
import { describe, expect, it } from "vitest";
import { ownerRead, PARTIAL_OWNER, readOwner } from "../../src/domain/tracking/views.js";

/** A row as the page statement answers it with these owner columns (`account.<field>`). */
const rowWith = (owner: Record<string, unknown>) => ({
  id: "video-1",
  accountId: "acc-1",
  ...Object.fromEntries(Object.entries(owner).map(([k, v]) => [`account.${k}`, v])),
});

const WHOLE = {
  id: "acc-1",
  platform: "platformA",
  username: "creator",
  displayName: "Creator",
  avatarUrl: "https://example.com/a.jpg",
  followerCount: 10,
  videoCount: 2,
  totalViews: 30,
  dataSource: "ytdlp",
  scrapeStatus: "ready",
  scrapeError: null,
  lastScrapedAt: null,
  createdAt: new Date(0),
  nextRefreshAt: null,
  trackedAccountId: null,
  videoLimit: null,
  trackedAt: null,
  rules: null,
  pausedAt: null,
};

describe("owner reads", () => {
  it("selects only the asked columns (and the id), without the workspace's tracking", () => {
    const read = ownerRead(["username", "followerCount"]);
    const text = read.columns.text;
    expect(text).toContain(`a.id AS "account.id"`);
    expect(text).toContain(`a.username AS "account.username"`);
    expect(text).toContain(`a.follower_count AS "account.followerCount"`);
    expect(text).not.toMatch(/avatar_url|ta\./);
    expect(read.tracking).toBe(false);
    expect(ownerRead("all").tracking).toBe(true);
    expect(ownerRead("all").columns.text).toMatch(/ta\.rules/);
    // One read per set of fields, whatever their order.
    expect(ownerRead(["followerCount", "username"])).toBe(read);
  });

  it("a partial row answers a part (branded) for what it holds, and the loader (undefined) for anything more", () => {
    const row = rowWith({ id: "acc-1", username: "creator", followerCount: 10 });
    const part = readOwner(row, ["username"]);
    expect(part).toEqual({ id: "acc-1", username: "creator", [PARTIAL_OWNER]: true });
    expect(readOwner(row, ["username", "avatarUrl"])).toBeUndefined();
    expect(readOwner(row, "all")).toBeUndefined();
    expect(readOwner({ id: "video-1", accountId: "acc-1" }, ["username"])).toBeUndefined();
    // A video without an owner: null, read in part or whole.
    expect(readOwner(rowWith({ id: null, username: null }), ["username"])).toBeNull();
  });

  it("a whole row answers the whole AccountView (not branded) to any asker", () => {
    const row = rowWith(WHOLE);
    for (const fields of ["all", ["username"]] as const) {
      const owner = readOwner(row, fields);
      expect(owner).toEqual(WHOLE);
      expect(owner && PARTIAL_OWNER in owner).toBe(false);
    }
  });
});
