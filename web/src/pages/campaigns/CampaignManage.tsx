/**
 * A campaign's owner tools, each part with its own fragment: who takes part (./CampaignMembers.tsx), the
 * videos by hand (./VideosByHand.tsx), the payout rule, budget and creators' own rules (./PayoutRules.tsx) and
 * Close (./CloseCampaign.tsx); the owners' pickers read the route's queries (app/routes.tsx). Members see who takes part and the videos by hand, read-only. Each action's
 * outcome is said in words; the page is read again after it.
 */
import { graphql, useFragment } from "react-relay";
import type { CampaignManage_campaign$key } from "../../__generated__/CampaignManage_campaign.graphql";
import { CampaignMembers } from "./CampaignMembers";
import { CloseCampaign } from "./CloseCampaign";
import { OwnersOnlyNote } from "./parts";
import { PayoutRules } from "./PayoutRules";
import { VideosByHand } from "./VideosByHand";

const campaignFragment = graphql`
  fragment CampaignManage_campaign on Campaign {
    status
    ...CampaignMembers_campaign
    ...VideosByHand_campaign
    ...PayoutRules_campaign
    ...CloseCampaign_campaign
  }
`;

interface Props {
  campaign: CampaignManage_campaign$key;
  isOwner: boolean;
  onChanged: () => void;
}

export function CampaignManage({ campaign, isOwner, onChanged }: Props) {
  const c = useFragment(campaignFragment, campaign);
  const canEdit = isOwner && c.status === "ACTIVE";
  return (
    <>
      <CampaignMembers campaign={c} canEdit={canEdit} onChanged={onChanged} />
      <VideosByHand campaign={c} canEdit={canEdit} onChanged={onChanged} />
      {canEdit && <PayoutRules campaign={c} onChanged={onChanged} />}
      {isOwner && <CloseCampaign campaign={c} onChanged={onChanged} />}
      {!isOwner && <OwnersOnlyNote what="change a campaign's members, videos, rule and budget, or close it" />}
    </>
  );
}
