/**
 * Who takes part in a campaign: creators (with all their accounts) and single accounts without a creator,
 * each removable by an owner; an owner adds any creator or tracked account (pickers/: found by words, page by
 * page; their query is the campaign route's, for owners: app/routes.tsx). A creator's accounts take part through
 * the creator, so they are not offered again as single accounts.
 */
import { graphql, useFragment } from "react-relay";
import { Link } from "react-router";
import type { CampaignMembers_campaign$data, CampaignMembers_campaign$key } from "../../__generated__/CampaignMembers_campaign.graphql";
import type { CampaignMembersQuery } from "../../__generated__/CampaignMembersQuery.graphql";
import type { CampaignMembersAddMutation } from "../../__generated__/CampaignMembersAddMutation.graphql";
import type { CampaignMembersRemoveMutation } from "../../__generated__/CampaignMembersRemoveMutation.graphql";
import { Outcome } from "../../components/Outcome";
import { Time } from "../../components/Time";
import { accountName, plural } from "../../lib/format";
import { paths } from "../../lib/paths";
import { AccountChoice } from "../../pickers/AccountChoice";
import { CreatorChoice } from "../../pickers/CreatorChoice";
import { perItem, useAction } from "../../relay/action";
import { useRouteQuery } from "../../relay/route-query";
import { Panel } from "../../components/Panel";

const campaignFragment = graphql`
  fragment CampaignMembers_campaign on Campaign {
    id
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
  }
`;

/** The creators and accounts an owner may add: a query of the campaign's route. */
export const campaignMembersQuery = graphql`
  query CampaignMembersQuery {
    ...CreatorChoice_query
    ...AccountChoice_query
  }
`;

const addMembers = graphql`
  mutation CampaignMembersAddMutation($campaignId: ID!, $creatorIds: [ID!], $accountIds: [ID!]) {
    addCampaignMembers(campaignId: $campaignId, creatorIds: $creatorIds, accountIds: $accountIds) {
      ...action_bulkItem @relay(mask: false)
    }
  }
`;
const removeMembers = graphql`
  mutation CampaignMembersRemoveMutation($campaignId: ID!, $creatorIds: [ID!], $accountIds: [ID!]) {
    removeCampaignMembers(campaignId: $campaignId, creatorIds: $creatorIds, accountIds: $accountIds)
  }
`;

type Member = CampaignMembers_campaign$data["members"][number];

const memberName = (m: Member) => (m.creator ? m.creator.name : m.account ? accountName(m.account) : "A removed item");
const TAKES_PART = "takes part already";

interface Props {
  campaign: CampaignMembers_campaign$key;
  canEdit: boolean;
  onChanged: () => void;
}

export function CampaignMembers({ campaign, canEdit, onChanged }: Props) {
  const c = useFragment(campaignFragment, campaign);
  const add = useAction<CampaignMembersAddMutation>(addMembers);
  const remove = useAction<CampaignMembersRemoveMutation>(removeMembers);
  const inCampaign = new Set(c.members.flatMap((m) => [m.creator?.id ?? m.account?.id, ...(m.creator?.accounts.map((a) => a?.id) ?? [])]));
  const taken = (item: { id: string }) => (inCampaign.has(item.id) ? TAKES_PART : undefined);

  async function addOne(kind: "creator" | "account", id: string) {
    remove.clear();
    const title = `Could not add the ${kind}`;
    const said = kind === "creator" ? "Added the creator (all their accounts) to the campaign." : "Added the account to the campaign.";
    const r = await add.run(kind === "creator" ? { campaignId: c.id, creatorIds: [id] } : { campaignId: c.id, accountIds: [id] }, {
      failed: title,
      done: (d) => perItem(d.addCampaignMembers, () => said, title),
    });
    if (r) onChanged();
  }

  async function removeOne(m: Member) {
    add.clear();
    const name = memberName(m);
    const r = await remove.run(
      m.creator ? { campaignId: c.id, creatorIds: [m.creator.id] } : { campaignId: c.id, accountIds: [m.account!.id] },
      { failed: `Could not remove ${name}`, done: () => `Removed ${name} from the campaign.` },
    );
    if (r) onChanged();
  }

  return (
    <Panel title="Who takes part">
      {c.members.length === 0 ? (
        <p className="muted">No creator or account yet{canEdit ? ": add them below." : "."}</p>
      ) : (
        <ul className="plain-list">
          {c.members.map((m) => (
            <li key={m.creator?.id ?? m.account?.id ?? m.addedAt} className="row">
              <span>
                {m.kind === "CREATOR" ? "Creator" : "Account"}:{" "}
                {m.account ? <Link to={paths.account(m.account.uuid)}>{memberName(m)}</Link> : memberName(m)}
                {m.creator && <span className="muted"> ({plural(m.creator.accounts.length, "account")})</span>}{" "}
                <span className="muted">
                  added <Time value={m.addedAt} />
                </span>
              </span>
              {canEdit && (
                <button
                  type="button"
                  disabled={remove.pending}
                  onClick={() => void removeOne(m)}
                  aria-label={`Remove ${memberName(m)} from the campaign`}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canEdit && <AddMembers taken={taken} adding={add.pending} onAdd={(kind, id) => void addOne(kind, id)} />}
      <Outcome outcome={add.outcome ?? remove.outcome} />
    </Panel>
  );
}

/** The owner's pickers: any creator or tracked account not taking part yet. */
function AddMembers({
  taken,
  adding,
  onAdd,
}: {
  taken: (item: { id: string }) => string | undefined;
  adding: boolean;
  onAdd: (kind: "creator" | "account", id: string) => void;
}) {
  const choices = useRouteQuery<CampaignMembersQuery>(campaignMembersQuery);
  return (
    <>
      <CreatorChoice query={choices} label="Creator" unavailable={taken}>
        {(creator) => (
          <button type="button" disabled={!creator || adding} onClick={() => creator && onAdd("creator", creator.id)}>
            Add creator
          </button>
        )}
      </CreatorChoice>
      <AccountChoice query={choices} label="Single account" unavailable={taken} empty={null}>
        {(account) => (
          <button type="button" disabled={!account || adding} onClick={() => account && onAdd("account", account.id)}>
            Add account
          </button>
        )}
      </AccountChoice>
    </>
  );
}
