/**
 * The workspace's tracking of one account: pause and resume it, retry a failed sync, its
 * rules on the videos it brings (hashtags and words to include or exclude, a minimum duration, a
 * first posting day) and the videos those rules skipped, with the reason. The rules are validated by
 * the service (src/domain/tracking/inputs.ts accountRules); its refusal is shown in its words.
 */
import { useState, type FormEvent } from "react";
import { graphql, useFragment } from "react-relay";
import type { AccountTracking_account$data, AccountTracking_account$key } from "../../__generated__/AccountTracking_account.graphql";
import type { AccountTrackingPauseMutation } from "../../__generated__/AccountTrackingPauseMutation.graphql";
import type { AccountTrackingResumeMutation } from "../../__generated__/AccountTrackingResumeMutation.graphql";
import type { AccountTrackingRetryMutation } from "../../__generated__/AccountTrackingRetryMutation.graphql";
import type { AccountTrackingRulesMutation } from "../../__generated__/AccountTrackingRulesMutation.graphql";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { Time } from "../../components/Time";
import { VideoCell } from "../../components/VideoCell";
import { formatWhole } from "../../lib/format";
import { useAction } from "../../relay/action";
import { Submit } from "../../components/Submit";
import { Panel } from "../../components/Panel";

const fragment = graphql`
  fragment AccountTracking_account on Account {
    id
    scrapeStatus
    scrapeError
    tracking {
      pausedAt
      rules {
        includeHashtags
        excludeHashtags
        includeWords
        excludeWords
        minDurationSeconds
        postedAfter
      }
      skippedVideos(first: 20) {
        totalCount
        edges {
          node {
            videoId
            url
            description
            reason
            skippedAt
          }
        }
      }
    }
  }
`;

const rulesMutation = graphql`
  mutation AccountTrackingRulesMutation($id: ID!, $rules: AccountRulesInput!) {
    setAccountRules(id: $id, rules: $rules) {
      ...AccountTracking_account
    }
  }
`;

// Pausing, resuming and retrying change the summary's next scrape and status too: each answer selects what both show.
const pauseMutation = graphql`
  mutation AccountTrackingPauseMutation($id: ID!) {
    pauseAccount(id: $id) {
      ...AccountTracking_account
      ...AccountSummary_account
    }
  }
`;

const resumeMutation = graphql`
  mutation AccountTrackingResumeMutation($id: ID!) {
    resumeAccount(id: $id) {
      ...AccountTracking_account
      ...AccountSummary_account
    }
  }
`;

const retryMutation = graphql`
  mutation AccountTrackingRetryMutation($id: ID!) {
    retryAccountSync(id: $id) {
      queued
      account {
        ...AccountTracking_account
        ...AccountSummary_account
      }
    }
  }
`;

type Tracking = NonNullable<AccountTracking_account$data["tracking"]>;
type Skipped = Tracking["skippedVideos"]["edges"][number]["node"];

const SKIPPED_COLUMNS: Column<Skipped>[] = [
  {
    id: "video",
    header: "Video",
    className: "cell-description",
    cell: (v) => <VideoCell video={{ url: v.url, description: v.description }} />,
  },
  { id: "reason", header: "Why it was skipped", className: "cell-wrap", cell: (v) => v.reason },
  { id: "skipped", header: "Skipped", cell: (v) => <Time value={v.skippedAt} /> },
];

/** "a, b c" → ["a", "b", "c"] for hashtags (spaces or commas); words and phrases are separated by commas only. */
const tagsOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);
const phrasesOf = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

export function AccountTracking({ account }: { account: AccountTracking_account$key }) {
  const a = useFragment(fragment, account);
  if (!a.tracking) return null;
  return (
    <Panel title="Tracking">
      <TrackingState id={a.id} status={a.scrapeStatus} error={a.scrapeError} pausedAt={a.tracking.pausedAt} />
      <RulesForm id={a.id} rules={a.tracking.rules} />
      <h3>Videos the rules skipped</h3>
      <p className="muted">
        They take no tracking slot.{" "}
        {a.tracking.skippedVideos.totalCount > 20 && `The 20 newest of ${formatWhole(a.tracking.skippedVideos.totalCount)}.`}
      </p>
      <DataTable
        label="Videos the rules skipped"
        columns={SKIPPED_COLUMNS}
        rows={a.tracking.skippedVideos.edges.map((e) => e.node)}
        rowKey={(v) => v.videoId}
        empty={
          <EmptyState title="No video skipped.">
            Videos the rules keep out appear here, with the reason, after the account's next scrape.
          </EmptyState>
        }
      />
    </Panel>
  );
}

/** Paused or tracked, with the button that changes it; a failed sync with its reason and a retry. */
function TrackingState({
  id,
  status,
  error,
  pausedAt,
}: {
  id: string;
  status: string;
  error: string | null | undefined;
  pausedAt: string | null | undefined;
}) {
  const pause = useAction<AccountTrackingPauseMutation>(pauseMutation);
  const resume = useAction<AccountTrackingResumeMutation>(resumeMutation);
  const retry = useAction<AccountTrackingRetryMutation>(retryMutation);
  const failed = Boolean(error) && (status === "FAILED" || status === "READY");
  return (
    <div className="stack">
      <div className="row">
        {pausedAt ? (
          <>
            <span>
              Tracking paused <Time value={pausedAt} />: no scrape is scheduled and no new video is tracked.
            </span>
            <button
              type="button"
              onClick={() =>
                void resume.run({ id }, { done: () => "Tracking resumed: the account is scraped now.", failed: "Could not resume" })
              }
              disabled={resume.pending}
            >
              Resume tracking
            </button>
          </>
        ) : (
          <>
            <span>Tracked: scraped on its schedule, its new videos tracked.</span>
            <button
              type="button"
              onClick={() => void pause.run({ id }, { done: () => "Tracking paused.", failed: "Could not pause" })}
              disabled={pause.pending}
            >
              Pause tracking
            </button>
          </>
        )}
      </div>
      {failed && (
        <div className="row">
          <p className="notice notice-error">The last sync failed: {error}</p>
          <button
            type="button"
            onClick={() =>
              void retry.run(
                { id },
                {
                  done: (r) =>
                    r.retryAccountSync.queued
                      ? "Retry queued: the account is scraped again within a few minutes."
                      : "A retry is already queued.",
                  failed: "Could not retry",
                },
              )
            }
            disabled={retry.pending}
          >
            Retry sync
          </button>
        </div>
      )}
      <Outcome outcome={retry.outcome ?? pause.outcome ?? resume.outcome} />
    </div>
  );
}

function RulesForm({ id, rules }: { id: string; rules: Tracking["rules"] }) {
  const [includeTags, setIncludeTags] = useState(rules.includeHashtags.map((t) => `#${t}`).join(" "));
  const [excludeTags, setExcludeTags] = useState(rules.excludeHashtags.map((t) => `#${t}`).join(" "));
  const [includeWords, setIncludeWords] = useState(rules.includeWords.join(", "));
  const [excludeWords, setExcludeWords] = useState(rules.excludeWords.join(", "));
  const [minDuration, setMinDuration] = useState(rules.minDurationSeconds?.toString() ?? "");
  const [postedAfter, setPostedAfter] = useState(rules.postedAfter ?? "");
  const save = useAction<AccountTrackingRulesMutation>(rulesMutation);

  function submit(e: FormEvent) {
    e.preventDefault();
    void save.run(
      {
        id,
        rules: {
          includeHashtags: tagsOf(includeTags),
          excludeHashtags: tagsOf(excludeTags),
          includeWords: phrasesOf(includeWords),
          excludeWords: phrasesOf(excludeWords),
          minDurationSeconds: minDuration.trim() ? Number(minDuration) : null,
          postedAfter: postedAfter || null,
        },
      },
      { done: () => "Rules saved: the account's next scrape applies them.", failed: "Could not save the rules" },
    );
  }

  return (
    <form onSubmit={submit} className="stack" aria-labelledby="account-rules-heading">
      <h3 id="account-rules-heading">Rules for its videos</h3>
      <p className="muted">Only the account's videos that pass every rule are tracked; leave a field empty for no such rule.</p>
      <div className="row">
        <label className="grow">
          Only videos with one of these hashtags
          <input value={includeTags} onChange={(e) => setIncludeTags(e.target.value)} placeholder="#brandname" spellCheck={false} />
        </label>
        <label className="grow">
          Never videos with these hashtags
          <input value={excludeTags} onChange={(e) => setExcludeTags(e.target.value)} placeholder="#ad #sponsored" spellCheck={false} />
        </label>
      </div>
      <div className="row">
        <label className="grow">
          Only videos mentioning one of (comma-separated)
          <input value={includeWords} onChange={(e) => setIncludeWords(e.target.value)} placeholder="recipe, how to" />
        </label>
        <label className="grow">
          Never videos mentioning (comma-separated)
          <input value={excludeWords} onChange={(e) => setExcludeWords(e.target.value)} placeholder="giveaway" />
        </label>
      </div>
      <div className="row">
        <label>
          Minimum duration (seconds)
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={86400}
            value={minDuration}
            onChange={(e) => setMinDuration(e.target.value)}
          />
        </label>
        <label>
          Only videos posted from
          <input type="date" value={postedAfter} onChange={(e) => setPostedAfter(e.target.value)} />
        </label>
      </div>
      <div className="row">
        <Submit action={save}>Save rules</Submit>
      </div>
      <Outcome outcome={save.outcome} />
    </form>
  );
}
