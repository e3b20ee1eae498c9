/**
 * A campaign's summary: what is owed, spend against budget, views earned and qualifying videos as cards,
 * then the campaign in words (its period, which videos count, its payout rule).
 */
import { graphql, useFragment } from "react-relay";
import type { CampaignSummary_campaign$key } from "../../__generated__/CampaignSummary_campaign.graphql";
import { formatWhole } from "../../lib/format";
import { formatMoney } from "./money";
import { Period } from "./parts";
import { campaignRules, ruleInWords } from "./RuleFields";
import { SpendBar } from "./SpendBar";
import { Panel } from "../../components/Panel";

const fragment = graphql`
  fragment CampaignSummary_campaign on Campaign {
    startsAt
    endsAt
    timeZone
    currency
    hashtag
    tag {
      name
    }
    ...RuleFields_campaign
    totals {
      payout
      frozen
      videos
      viewsEarned
      ...SpendBar_totals
    }
  }
`;

export function CampaignSummary({ campaign }: { campaign: CampaignSummary_campaign$key }) {
  const c = useFragment(fragment, campaign);
  return (
    <>
      <section aria-labelledby="summary-heading" className="cards">
        <h2 id="summary-heading" className="visually-hidden">
          Summary
        </h2>
        <div className="card" data-testid="campaign-owed">
          <p className="card-label">Owed{c.totals.frozen ? " (frozen)" : " so far"}</p>
          <p className="card-value">{formatMoney(c.totals.payout, c.currency)}</p>
        </div>
        <div className="card" data-testid="campaign-spend">
          <p className="card-label">Spend against budget</p>
          <SpendBar totals={c.totals} />
        </div>
        <div className="card">
          <p className="card-label">Views earned</p>
          <p className="card-value">{formatWhole(c.totals.viewsEarned)}</p>
        </div>
        <div className="card">
          <p className="card-label">Qualifying videos</p>
          <p className="card-value">{formatWhole(c.totals.videos)}</p>
        </div>
      </section>
      <Panel title="The campaign">
        <dl className="campaign-facts">
          <dt>Period</dt>
          <dd>
            <Period startsAt={c.startsAt} endsAt={c.endsAt} timeZone={c.timeZone} />
          </dd>
          <dt>Which videos count</dt>
          <dd>
            Posted within the period by its creators and accounts
            {c.hashtag ? `, with the hashtag #${c.hashtag.replace(/^#/, "")}` : ""}
            {c.tag ? `, tagged “${c.tag.name}”` : ""}, plus those added by hand, minus those excluded by hand.
          </dd>
          <dt>Payout rule</dt>
          <dd>
            {ruleInWords(campaignRules(c).rule, c.currency)}. Each video's payout is rounded half-up to whole minor units; totals are the
            sums of the rows.
          </dd>
        </dl>
      </Panel>
    </>
  );
}
