/**
 * A campaign's owner tools: who takes part (creators, or single accounts without a creator), videos
 * added or excluded by hand, the payout rule and the budget, and Close (with a confirmation in words:
 * closing freezes the figures). Members see who takes part and the videos by hand, read-only. Each
 * action's outcome is said in words (components/Outcome.tsx); the page is read again after it.
 */
import { useState, type FormEvent } from "react";
import { graphql, useFragment } from "react-relay";
import { Link } from "react-router";
import type { CampaignManage_campaign$data, CampaignManage_campaign$key } from "../../__generated__/CampaignManage_campaign.graphql";
import type { CampaignManage_query$data, CampaignManage_query$key } from "../../__generated__/CampaignManage_query.graphql";
import type { CampaignManageAddMembersMutation } from "../../__generated__/CampaignManageAddMembersMutation.graphql";
import type { CampaignManageRemoveMembersMutation } from "../../__generated__/CampaignManageRemoveMembersMutation.graphql";
import type { CampaignManageAddVideosMutation } from "../../__generated__/CampaignManageAddVideosMutation.graphql";
import type { CampaignManageExcludeVideosMutation } from "../../__generated__/CampaignManageExcludeVideosMutation.graphql";
import type { CampaignManageResetVideosMutation } from "../../__generated__/CampaignManageResetVideosMutation.graphql";
import type { CampaignManageUpdateMutation } from "../../__generated__/CampaignManageUpdateMutation.graphql";
import type { CampaignManageCloseMutation } from "../../__generated__/CampaignManageCloseMutation.graphql";
import type { CampaignManageCreatorRuleMutation } from "../../__generated__/CampaignManageCreatorRuleMutation.graphql";
import { paths } from "../../lib/paths";
import { ConfirmButton } from "../../components/ConfirmButton";
import { FirstOf } from "../../components/FirstOf";
import { Outcome } from "../../components/Outcome";
import { Time } from "../../components/Time";
import { videoTitle } from "../../lib/format";
import { refused, useAction, type ActionOutcome } from "../../relay/action";
import { formatMoney, inputToMinor, minorToInput } from "./money";
import { OwnersOnlyNote } from "./parts";
import { RuleFields, ruleInput, ruleText, type RuleText } from "./RuleFields";

const campaignFragment = graphql`
  fragment CampaignManage_campaign on Campaign {
    id
    name
    status
    currency
    budgetMinor
    totals {
      payout
    }
    rule {
      cpmMinor
      capPerVideoMinor
      feePerVideoMinor
      capPerCreatorMinor
    }
    creatorRules {
      creator {
        id
        name
      }
      rule {
        cpmMinor
        capPerVideoMinor
        feePerVideoMinor
        capPerCreatorMinor
      }
    }
    members {
      kind
      addedAt
      creator {
        id
        name
        accounts {
          id
        }
      }
      account {
        id
        uuid
        username
        displayName
      }
    }
    videosByHand {
      at
      mode
      videoId
      video {
        id
        uuid
        description
        username
      }
    }
  }
`;

const queryFragment = graphql`
  fragment CampaignManage_query on Query {
    creators(first: 100) {
      totalCount
      edges {
        node {
          id
          name
        }
      }
    }
    accounts(first: 100) {
      totalCount
      edges {
        node {
          id
          username
          displayName
        }
      }
    }
    videos(first: 100) {
      totalCount
      edges {
        node {
          id
          description
          username
        }
      }
    }
  }
`;

const addMembers = graphql`
  mutation CampaignManageAddMembersMutation($campaignId: ID!, $creatorIds: [ID!], $accountIds: [ID!]) {
    addCampaignMembers(campaignId: $campaignId, creatorIds: $creatorIds, accountIds: $accountIds) {
      id
      success
      error
    }
  }
`;
const removeMembers = graphql`
  mutation CampaignManageRemoveMembersMutation($campaignId: ID!, $creatorIds: [ID!], $accountIds: [ID!]) {
    removeCampaignMembers(campaignId: $campaignId, creatorIds: $creatorIds, accountIds: $accountIds)
  }
`;
const addVideos = graphql`
  mutation CampaignManageAddVideosMutation($campaignId: ID!, $videoIds: [ID!]!) {
    addCampaignVideos(campaignId: $campaignId, videoIds: $videoIds) {
      id
      success
      error
    }
  }
`;
const excludeVideos = graphql`
  mutation CampaignManageExcludeVideosMutation($campaignId: ID!, $videoIds: [ID!]!) {
    excludeCampaignVideos(campaignId: $campaignId, videoIds: $videoIds) {
      id
      success
      error
    }
  }
`;
const resetVideos = graphql`
  mutation CampaignManageResetVideosMutation($campaignId: ID!, $videoIds: [ID!]!) {
    resetCampaignVideos(campaignId: $campaignId, videoIds: $videoIds)
  }
`;
const update = graphql`
  mutation CampaignManageUpdateMutation($id: ID!, $input: CampaignInput!) {
    updateCampaign(id: $id, input: $input) {
      id
      budgetMinor
      rule {
        cpmMinor
        capPerVideoMinor
        feePerVideoMinor
        capPerCreatorMinor
      }
    }
  }
`;
const setCreatorRule = graphql`
  mutation CampaignManageCreatorRuleMutation($campaignId: ID!, $creatorId: ID!, $rule: PayoutRuleInput) {
    setCampaignCreatorRule(campaignId: $campaignId, creatorId: $creatorId, rule: $rule) {
      creator {
        id
      }
    }
  }
`;
const close = graphql`
  mutation CampaignManageCloseMutation($id: ID!) {
    closeCampaign(id: $id) {
      id
      status
      closedAt
      totals {
        payout
        frozen
      }
    }
  }
`;

/** Per-id answers: what was done, or the first refusal in the server's words. */
const said = (title: string, results: readonly { success: boolean; error?: string | null }[], done: string): ActionOutcome => {
  const failed = results.filter((r) => !r.success);
  return failed.length ? refused(title, failed.map((r) => r.error ?? "failed").join("; ")) : { ok: true, message: done };
};

interface Props {
  campaign: CampaignManage_campaign$key;
  query: CampaignManage_query$key;
  isOwner: boolean;
  onChanged: () => void;
}

export function CampaignManage({ campaign, query, isOwner, onChanged }: Props) {
  const c = useFragment(campaignFragment, campaign);
  const q = useFragment(queryFragment, query);
  const active = c.status === "ACTIVE";
  const canEdit = isOwner && active;
  return (
    <>
      <Members c={c} q={q} canEdit={canEdit} onChanged={onChanged} />
      <VideosByHand c={c} q={q} canEdit={canEdit} onChanged={onChanged} />
      {canEdit && <RuleAndBudget c={c} onChanged={onChanged} />}
      {canEdit && <CreatorRule c={c} onChanged={onChanged} />}
      {isOwner && <CloseCampaign c={c} onChanged={onChanged} />}
      {!isOwner && <OwnersOnlyNote what="change a campaign's members, videos, rule and budget, or close it" />}
    </>
  );
}

type C = CampaignManage_campaign$data;
type Q = CampaignManage_query$data;

function Members({ c, q, canEdit, onChanged }: { c: C; q: Q; canEdit: boolean; onChanged: () => void }) {
  const add = useAction<CampaignManageAddMembersMutation>(addMembers);
  const remove = useAction<CampaignManageRemoveMembersMutation>(removeMembers);
  const [creatorId, setCreatorId] = useState("");
  const [accountId, setAccountId] = useState("");
  // A creator's accounts take part through the creator: they are not offered again as single accounts.
  const inCampaign = new Set(c.members.flatMap((m) => [m.creator?.id ?? m.account?.id, ...(m.creator?.accounts.map((a) => a?.id) ?? [])]));
  const creators = q.creators.edges.map((e) => e.node).filter((n) => !inCampaign.has(n.id));
  const accounts = q.accounts.edges.map((e) => e.node).filter((n) => !inCampaign.has(n.id));

  async function addOne(kind: "creator" | "account", event: FormEvent) {
    event.preventDefault();
    remove.clear();
    const id = kind === "creator" ? creatorId || creators[0]?.id : accountId || accounts[0]?.id;
    if (!id) return;
    const title = `Could not add the ${kind}`;
    const r = await add.run(kind === "creator" ? { campaignId: c.id, creatorIds: [id] } : { campaignId: c.id, accountIds: [id] }, {
      failed: title,
      done: (d) =>
        said(
          title,
          d.addCampaignMembers,
          kind === "creator" ? "Added the creator (all their accounts) to the campaign." : "Added the account to the campaign.",
        ),
    });
    if (r) onChanged();
  }

  async function removeOne(m: C["members"][number]) {
    add.clear();
    const name = m.creator?.name ?? `@${m.account?.username}`;
    const r = await remove.run(
      m.creator ? { campaignId: c.id, creatorIds: [m.creator.id] } : { campaignId: c.id, accountIds: [m.account!.id] },
      {
        failed: `Could not remove ${name}`,
        done: () => `Removed ${name} from the campaign.`,
      },
    );
    if (r) onChanged();
  }

  return (
    <section aria-labelledby="members-heading" className="panel">
      <h2 id="members-heading">Who takes part</h2>
      {c.members.length === 0 ? (
        <p className="muted">No creator or account yet{canEdit ? ": add them below." : "."}</p>
      ) : (
        <ul className="plain-list">
          {c.members.map((m) => {
            const name = m.creator
              ? m.creator.name
              : m.account
                ? m.account.displayName
                  ? `${m.account.displayName} (@${m.account.username})`
                  : `@${m.account.username}`
                : "A removed item";
            return (
              <li key={m.creator?.id ?? m.account?.id ?? m.addedAt} className="row">
                <span>
                  {m.kind === "CREATOR" ? "Creator" : "Account"}:{" "}
                  {m.account ? <Link to={paths.account(m.account.uuid)}>{name}</Link> : name}
                  {m.creator && (
                    <span className="muted">
                      {" "}
                      ({m.creator.accounts.length} {m.creator.accounts.length === 1 ? "account" : "accounts"})
                    </span>
                  )}{" "}
                  <span className="muted">
                    added <Time value={m.addedAt} />
                  </span>
                </span>
                {canEdit && (
                  <button
                    type="button"
                    disabled={remove.pending}
                    onClick={() => void removeOne(m)}
                    aria-label={`Remove ${name} from the campaign`}
                  >
                    Remove
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {canEdit && (
        <>
          {creators.length > 0 ? (
            <form className="row picker-row" onSubmit={(e) => void addOne("creator", e)}>
              <label>
                Creator
                <select value={creatorId || creators[0]!.id} onChange={(e) => setCreatorId(e.target.value)}>
                  {creators.map((n) => (
                    <option key={n.id} value={n.id}>
                      {n.name}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" disabled={add.pending}>
                Add creator
              </button>
              <FirstOf
                shown={q.creators.edges.length}
                total={q.creators.totalCount}
                what="creators, by name"
                rest="Add the others through the API."
              />
            </form>
          ) : (
            <p className="muted">
              Every creator takes part already, or there is none: make one on the <Link to={paths.creators()}>Creators</Link> page.
            </p>
          )}
          {accounts.length > 0 && (
            <form className="row picker-row" onSubmit={(e) => void addOne("account", e)}>
              <label>
                Single account
                <select value={accountId || accounts[0]!.id} onChange={(e) => setAccountId(e.target.value)}>
                  {accounts.map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.displayName ? `${a.displayName} (@${a.username})` : `@${a.username}`}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" disabled={add.pending}>
                Add account
              </button>
              <FirstOf
                shown={q.accounts.edges.length}
                total={q.accounts.totalCount}
                what="tracked accounts, newest first"
                rest="Add the others through the API."
              />
            </form>
          )}
        </>
      )}
      <Outcome outcome={add.outcome} />
      <Outcome outcome={remove.outcome} />
    </section>
  );
}

function VideosByHand({ c, q, canEdit, onChanged }: { c: C; q: Q; canEdit: boolean; onChanged: () => void }) {
  const [videoId, setVideoId] = useState("");
  const addA = useAction<CampaignManageAddVideosMutation>(addVideos);
  const exclude = useAction<CampaignManageExcludeVideosMutation>(excludeVideos);
  const reset = useAction<CampaignManageResetVideosMutation>(resetVideos);
  const videos = q.videos.edges.map((e) => e.node);
  const clear = () => [addA, exclude, reset].forEach((a) => a.clear());

  async function mark(mode: "add" | "exclude") {
    clear();
    const id = videoId || videos[0]?.id;
    if (!id) return;
    const r =
      mode === "add"
        ? await addA.run(
            { campaignId: c.id, videoIds: [id] },
            {
              failed: "Could not add the video",
              done: (d) =>
                said(
                  "Could not add the video",
                  d.addCampaignVideos,
                  "Added the video by hand: it counts whatever its account or posting time.",
                ),
            },
          )
        : await exclude.run(
            { campaignId: c.id, videoIds: [id] },
            {
              failed: "Could not exclude the video",
              done: (d) => said("Could not exclude the video", d.excludeCampaignVideos, "Excluded the video by hand: it never counts."),
            },
          );
    if (r) onChanged();
  }

  async function undo(id: string) {
    clear();
    const r = await reset.run(
      { campaignId: c.id, videoIds: [id] },
      { failed: "Could not undo", done: () => "Undone: the video counts by the campaign's filters again." },
    );
    if (r) onChanged();
  }

  return (
    <section aria-labelledby="by-hand-heading" className="panel">
      <h2 id="by-hand-heading">Videos added or excluded by hand</h2>
      {c.videosByHand.length === 0 ? (
        <p className="muted">None: the campaign's filters alone decide which videos count.</p>
      ) : (
        <ul className="plain-list">
          {c.videosByHand.map((v) => {
            const title = v.video ? videoTitle(v.video).slice(0, 80) : v.videoId;
            return (
              <li key={v.videoId} className="row">
                <span>
                  {v.mode === "ADDED" ? "Added" : "Excluded"}: {v.video ? <Link to={paths.video(v.video.uuid)}>{title}</Link> : title}{" "}
                  <span className="muted">
                    <Time value={v.at} />
                  </span>
                </span>
                {canEdit && (
                  <button
                    type="button"
                    disabled={reset.pending}
                    onClick={() => void undo(v.videoId)}
                    aria-label={`Undo: let “${title}” count by the filters again`}
                  >
                    Undo
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {canEdit && videos.length > 0 && (
        <form
          className="row picker-row"
          onSubmit={(e) => {
            e.preventDefault();
            void mark("add");
          }}
        >
          <label>
            Tracked video
            <select value={videoId || videos[0]!.id} onChange={(e) => setVideoId(e.target.value)}>
              {videos.map((v) => (
                <option key={v.id} value={v.id}>
                  {videoTitle(v).slice(0, 80)} (@{v.username})
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={addA.pending}>
            Add by hand
          </button>
          <button type="button" disabled={exclude.pending} onClick={() => void mark("exclude")}>
            Exclude
          </button>
          <FirstOf
            shown={videos.length}
            total={q.videos.totalCount}
            what="tracked videos, newest first"
            rest="Others can be added through the API."
          />
        </form>
      )}
      <Outcome outcome={addA.outcome} />
      <Outcome outcome={exclude.outcome} />
      <Outcome outcome={reset.outcome} />
    </section>
  );
}

function RuleAndBudget({ c, onChanged }: { c: C; onChanged: () => void }) {
  const [budget, setBudget] = useState(() => minorToInput(c.budgetMinor, c.currency));
  const [rule, setRule] = useState<RuleText>(() => ruleText(c.rule, c.currency));
  const [invalid, setInvalid] = useState<ActionOutcome | null>(null);
  const save = useAction<CampaignManageUpdateMutation>(update);

  async function submit(event: FormEvent) {
    event.preventDefault();
    save.clear();
    setInvalid(null);
    const budgetMinor = inputToMinor(budget, c.currency);
    const amounts = ruleInput(rule, c.currency);
    if (budgetMinor === undefined) return setInvalid(refused("Could not save", `The budget is not an amount of ${c.currency}.`));
    if (typeof amounts === "string") return setInvalid(refused("Could not save", amounts));
    const r = await save.run(
      { id: c.id, input: { budgetMinor, ...amounts } },
      { failed: "Could not save the rule and budget", done: () => "Saved the payout rule and budget; the figures below follow them." },
    );
    if (r) onChanged();
  }

  return (
    <section aria-labelledby="rule-heading" className="panel">
      <h2 id="rule-heading">Payout rule and budget</h2>
      <form className="campaign-form" onSubmit={(e) => void submit(e)}>
        <label>
          Budget ({c.currency})
          <input type="text" inputMode="decimal" value={budget} placeholder="none" onChange={(e) => setBudget(e.target.value)} />
        </label>
        <RuleFields value={rule} onChange={setRule} currency={c.currency} />
        <div className="row">
          <button type="submit" className="button-primary" disabled={save.pending}>
            Save rule and budget
          </button>
        </div>
      </form>
      <Outcome outcome={invalid ?? save.outcome} />
    </section>
  );
}

/** A creator's own rule: it replaces the campaign's rule for that creator, whole (empty fields: none). */
function CreatorRule({ c, onChanged }: { c: C; onChanged: () => void }) {
  const creators = c.members.flatMap((m) => (m.creator ? [m.creator] : []));
  const [creatorId, setCreatorId] = useState("");
  const chosen = creatorId || creators[0]?.id || "";
  const own = c.creatorRules.find((r) => r.creator?.id === chosen);
  const [rule, setRule] = useState<RuleText>(() => ruleText(own?.rule ?? c.rule, c.currency));
  const [invalid, setInvalid] = useState<ActionOutcome | null>(null);
  const save = useAction<CampaignManageCreatorRuleMutation>(setCreatorRule);
  if (creators.length === 0) return null;
  const name = creators.find((x) => x.id === chosen)?.name ?? "the creator";

  function choose(id: string) {
    setCreatorId(id);
    const theirs = c.creatorRules.find((r) => r.creator?.id === id);
    setRule(ruleText(theirs?.rule ?? c.rule, c.currency));
  }

  async function submit(remove: boolean) {
    save.clear();
    setInvalid(null);
    const amounts = remove ? null : ruleInput(rule, c.currency);
    if (typeof amounts === "string") return setInvalid(refused(`Could not save ${name}'s rule`, amounts));
    const r = await save.run(
      { campaignId: c.id, creatorId: chosen, rule: amounts },
      {
        failed: `Could not save ${name}'s rule`,
        done: () => (remove ? `${name} is paid by the campaign's rule again.` : `Saved ${name}'s own rule.`),
      },
    );
    if (r) onChanged();
  }

  return (
    <section aria-labelledby="creator-rule-heading" className="panel">
      <h2 id="creator-rule-heading">A creator's own rule</h2>
      <p className="muted">It replaces the campaign's rule for that creator, whole.</p>
      <form
        className="campaign-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(false);
        }}
      >
        <label className="picker-row">
          Creator
          <select value={chosen} onChange={(e) => choose(e.target.value)}>
            {creators.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
                {c.creatorRules.some((r) => r.creator?.id === x.id) ? " (own rule)" : ""}
              </option>
            ))}
          </select>
        </label>
        <RuleFields value={rule} onChange={setRule} currency={c.currency} />
        <div className="row">
          <button type="submit" disabled={save.pending}>
            Save {name}'s rule
          </button>
          {own && (
            <button type="button" disabled={save.pending} onClick={() => void submit(true)}>
              Back to the campaign's rule
            </button>
          )}
        </div>
      </form>
      <Outcome outcome={invalid ?? save.outcome} />
    </section>
  );
}

function CloseCampaign({ c, onChanged }: { c: C; onChanged: () => void }) {
  const run = useAction<CampaignManageCloseMutation>(close);
  async function confirm() {
    const r = await run.run(
      { id: c.id },
      {
        failed: "Could not close the campaign",
        done: (d) => `Closed “${c.name}”: its figures are frozen at ${formatMoney(d.closeCampaign.totals.payout, c.currency)} owed.`,
      },
    );
    if (r) onChanged();
  }
  return (
    <section aria-labelledby="close-heading" className="panel">
      <h2 id="close-heading">Close the campaign</h2>
      {c.status === "CLOSED" ? (
        <p>This campaign is closed: its figures are frozen.</p>
      ) : (
        <>
          <p>
            Closing freezes today's figures ({formatMoney(c.totals.payout, c.currency)} owed so far): later scrapes no longer change them,
            and the campaign can no longer be edited.
          </p>
          <ConfirmButton
            question={`Close “${c.name}”? Its payouts are frozen as they are now (${formatMoney(c.totals.payout, c.currency)} owed): later scrapes will not change them, and it cannot be reopened or edited.`}
            confirmLabel="Close and freeze the figures"
            onConfirm={() => void confirm()}
            disabled={run.pending}
          >
            Close campaign
          </ConfirmButton>
        </>
      )}
      <Outcome outcome={run.outcome} />
    </section>
  );
}
