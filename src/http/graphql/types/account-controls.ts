/**
 * GraphQL: a workspace's controls over an account it tracks: its rules and what they
 * skipped, pause and resume, retry of a failed sync; the same domain functions as REST
 * (src/domain/tracking/account-controls.ts), the rules validated by the same schema (`accountRules`).
 */
import { builder } from "../builder.ts";
import { entityId, pagedConnection } from "../connections.ts";
import { parseInput } from "../../../domain/shared/inputs.ts";
import { accountRules } from "../../../domain/tracking/inputs.ts";
import { storedRules, type AccountRules } from "../../../domain/tracking/rules.ts";
import {
  listSkippedVideos,
  pauseAccount,
  resumeAccount,
  retryAccountSync,
  setAccountRules,
  SKIPPED_VIDEOS_ORDER,
  type SkippedVideo,
  type SyncRetry,
} from "../../../domain/tracking/account-controls.ts";
import { AccountRef, AccountTrackingRef } from "./tracking.ts";

const RULES_NOTE =
  "They apply where the account's listing becomes tracked videos: a video they refuse is not tracked, takes no slot of the plan, and " +
  "is listed in `skippedVideos` with the reason. Exclusions are checked first, then inclusions, duration and posting day; what the " +
  "listing does not give (duration, posting time) does not refuse a video. They choose among the newest videoLimit videos of each listing.";

const SkippedVideoRuleEnum = builder.enumType("AccountRule", {
  description: "A rule of AccountRules (the field's name).",
  values: {
    INCLUDE_HASHTAGS: { value: "includeHashtags" },
    EXCLUDE_HASHTAGS: { value: "excludeHashtags" },
    INCLUDE_WORDS: { value: "includeWords" },
    EXCLUDE_WORDS: { value: "excludeWords" },
    MIN_DURATION_SECONDS: { value: "minDurationSeconds" },
    POSTED_AFTER: { value: "postedAfter" },
  } as const,
});

const AccountRulesRef = builder.objectRef<AccountRules>("AccountRules").implement({
  description: `The workspace's rules on the videos a tracked account brings. ${RULES_NOTE}`,
  fields: (t) => ({
    includeHashtags: t.exposeStringList("includeHashtags", {
      description: "Only videos with at least one of these hashtags (lower-cased, without #); empty: no such rule.",
    }),
    excludeHashtags: t.exposeStringList("excludeHashtags", { description: "Never videos with any of these hashtags." }),
    includeWords: t.exposeStringList("includeWords", {
      description: "Only videos whose description has at least one of these words or phrases (whole words, case-insensitive).",
    }),
    excludeWords: t.exposeStringList("excludeWords", { description: "Never videos whose description has any of these words or phrases." }),
    minDurationSeconds: t.exposeInt("minDurationSeconds", {
      nullable: true,
      description: "Only videos lasting at least this many seconds; null: no such rule.",
    }),
    postedAfter: t.exposeString("postedAfter", {
      nullable: true,
      description: "YYYY-MM-DD: only videos posted on or after 00:00 UTC of that day; null: no such rule.",
    }),
  }),
});

const AccountRulesInput = builder.inputType("AccountRulesInput", {
  description: "The rules, replaced whole: a field left out is emptied. Hashtags with or without #; at most 20 items per list.",
  fields: (t) => ({
    includeHashtags: t.stringList({ description: "Only videos with at least one of these hashtags." }),
    excludeHashtags: t.stringList({ description: "Never videos with any of these hashtags." }),
    includeWords: t.stringList({ description: "Only videos whose description has at least one of these words or phrases." }),
    excludeWords: t.stringList({ description: "Never videos whose description has any of these words or phrases." }),
    minDurationSeconds: t.int({ description: "1 to 86400; null: no such rule." }),
    postedAfter: t.string({ description: "YYYY-MM-DD; null: no such rule." }),
  }),
});

const SkippedVideoRef = builder.objectRef<SkippedVideo>("SkippedVideo").implement({
  description: "A video an account's listing brought that the workspace's rules kept out of its tracking (it took no slot).",
  fields: (t) => ({
    videoId: t.exposeID("videoId", { description: "The video's UUID (not tracked by the workspace)." }),
    url: t.exposeString("url", { description: "Canonical HTTPS link of the video." }),
    description: t.exposeString("description"),
    rule: t.field({ type: SkippedVideoRuleEnum, description: "The rule that refused it.", resolve: (v) => v.rule }),
    reason: t.exposeString("reason", { description: "Why, in words." }),
    skippedAt: t.expose("skippedAt", { type: "DateTime", description: "When a scrape of the account first skipped it." }),
  }),
});

builder.objectFields(AccountTrackingRef, (t) => ({
  rules: t.field({
    type: AccountRulesRef,
    description: `The workspace's rules on the videos the account brings. ${RULES_NOTE}`,
    resolve: (a) => storedRules(a.rules),
  }),
  pausedAt: t.expose("pausedAt", {
    type: "DateTime",
    nullable: true,
    description:
      "Set while the workspace has paused the account's tracking (no scheduled scrape on its behalf, no new video tracked through it); null while tracked.",
  }),
  skippedVideos: t.connection(
    {
      type: SkippedVideoRef,
      description: "The videos the rules refused, newest skipped first (the newest 200 are kept).",
      resolve: (a, args, ctx) =>
        pagedConnection(args, SKIPPED_VIDEOS_ORDER, (window) => listSkippedVideos(ctx.auth.workspaceId, a.accountId, window)),
    },
    { name: "SkippedVideoConnection" },
    { name: "SkippedVideoEdge" },
  ),
}));

const AccountSyncRetryRef = builder.objectRef<SyncRetry>("AccountSyncRetry").implement({
  description: "The outcome of retryAccountSync.",
  fields: (t) => ({
    queued: t.exposeBoolean("queued", {
      description: "True when this call queued a scrape; false when there was nothing to retry (queued, scraping or healthy).",
    }),
    account: t.field({ type: AccountRef, description: "The account as it is now.", resolve: (r) => r.account }),
  }),
});

const accountId = (id: string) => entityId(id, "Account", "id");

builder.mutationFields((t) => ({
  setAccountRules: t.field({
    type: AccountRef,
    description: `Replaces the workspace's rules on a tracked account's videos (REST PUT /accounts/{id}/rules; NOT_FOUND, VALIDATION_ERROR). ${RULES_NOTE}`,
    args: { id: t.arg.id({ required: true }), rules: t.arg({ type: AccountRulesInput, required: true }) },
    resolve: (_r, args, ctx) => {
      const r = args.rules;
      const rules = parseInput(accountRules, {
        includeHashtags: r.includeHashtags ?? undefined,
        excludeHashtags: r.excludeHashtags ?? undefined,
        includeWords: r.includeWords ?? undefined,
        excludeWords: r.excludeWords ?? undefined,
        minDurationSeconds: r.minDurationSeconds ?? null,
        postedAfter: r.postedAfter ?? null,
      });
      return setAccountRules(ctx.auth.workspaceId, accountId(args.id), rules);
    },
  }),
  pauseAccount: t.field({
    type: AccountRef,
    description:
      "Pauses the workspace's tracking of an account (REST POST /accounts/{id}/pause): no scheduled scrape on its behalf and no new video " +
      "tracked through it; its videos already tracked stay tracked. A no-op when paused already.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => pauseAccount(ctx.auth.workspaceId, accountId(args.id)),
  }),
  resumeAccount: t.field({
    type: AccountRef,
    description:
      "Resumes a paused account's tracking (REST POST /accounts/{id}/resume): it is due at once and its scrape queued. A no-op when not paused.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => resumeAccount(ctx.auth.workspaceId, accountId(args.id)),
  }),
  retryAccountSync: t.field({
    type: AccountSyncRetryRef,
    description:
      "Retries an account's failed sync (REST POST /accounts/{id}/retry): when its last scrape failed (scrapeError), one scrape is queued " +
      "and the account is QUEUED again; asked again, or for an account that has not failed, nothing more is queued (queued: false).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => retryAccountSync(ctx.auth.workspaceId, accountId(args.id)),
  }),
}));
