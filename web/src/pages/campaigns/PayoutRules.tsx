/**
 * An owner's edit of a campaign's money: its payout rule and budget, and a creator's own rule (it replaces
 * the campaign's rule for that creator, whole; empty fields: none). Amounts are typed in the campaign's
 * currency and checked here before they are sent (./RuleFields.tsx).
 */
import { useState, type FormEvent } from "react";
import { graphql, useFragment } from "react-relay";
import type { PayoutRules_campaign$data, PayoutRules_campaign$key } from "../../__generated__/PayoutRules_campaign.graphql";
import type { PayoutRulesUpdateMutation } from "../../__generated__/PayoutRulesUpdateMutation.graphql";
import type { PayoutRulesCreatorMutation } from "../../__generated__/PayoutRulesCreatorMutation.graphql";
import { Outcome } from "../../components/Outcome";
import { refused, useAction, type ActionOutcome } from "../../relay/action";
import { inputToMinor, minorToInput } from "./money";
import { campaignRules, RuleFields, ruleInput, ruleText, type RuleText } from "./RuleFields";
import { Submit } from "../../components/Submit";
import { Panel } from "../../components/Panel";

const fragment = graphql`
  fragment PayoutRules_campaign on Campaign {
    id
    currency
    budgetMinor
    ...RuleFields_campaign
    members {
      creator {
        id
        name
      }
    }
  }
`;

const update = graphql`
  mutation PayoutRulesUpdateMutation($id: ID!, $input: CampaignInput!) {
    updateCampaign(id: $id, input: $input) {
      id
      budgetMinor
      rule {
        ...RuleFields_rule
      }
    }
  }
`;
const setCreatorRule = graphql`
  mutation PayoutRulesCreatorMutation($campaignId: ID!, $creatorId: ID!, $rule: PayoutRuleInput) {
    setCampaignCreatorRule(campaignId: $campaignId, creatorId: $creatorId, rule: $rule) {
      creator {
        id
      }
    }
  }
`;

type C = PayoutRules_campaign$data;

export function PayoutRules({ campaign, onChanged }: { campaign: PayoutRules_campaign$key; onChanged: () => void }) {
  const c = useFragment(fragment, campaign);
  return (
    <>
      <RuleAndBudget c={c} onChanged={onChanged} />
      <CreatorRule c={c} onChanged={onChanged} />
    </>
  );
}

/** A form's own refusal (an amount that is not one), said like the server's. */
function useInvalid() {
  const [invalid, setInvalid] = useState<ActionOutcome | null>(null);
  return { invalid, refuse: (title: string, why: string) => setInvalid(refused(title, why)), clear: () => setInvalid(null) };
}

function RuleAndBudget({ c, onChanged }: { c: C; onChanged: () => void }) {
  const [budget, setBudget] = useState(() => minorToInput(c.budgetMinor, c.currency));
  const [rule, setRule] = useState<RuleText>(() => ruleText(campaignRules(c).rule, c.currency));
  const check = useInvalid();
  const save = useAction<PayoutRulesUpdateMutation>(update);

  async function submit(event: FormEvent) {
    event.preventDefault();
    save.clear();
    check.clear();
    const budgetMinor = inputToMinor(budget, c.currency);
    const amounts = ruleInput(rule, c.currency);
    if (budgetMinor === undefined) return check.refuse("Could not save", `The budget is not an amount of ${c.currency}.`);
    if (typeof amounts === "string") return check.refuse("Could not save", amounts);
    const r = await save.run(
      { id: c.id, input: { budgetMinor, ...amounts } },
      { failed: "Could not save the rule and budget", done: () => "Saved the payout rule and budget; the figures below follow them." },
    );
    if (r) onChanged();
  }

  return (
    <Panel title="Payout rule and budget">
      <form className="campaign-form" onSubmit={(e) => void submit(e)}>
        <label>
          Budget ({c.currency})
          <input type="text" inputMode="decimal" value={budget} placeholder="none" onChange={(e) => setBudget(e.target.value)} />
        </label>
        <RuleFields value={rule} onChange={setRule} currency={c.currency} />
        <div className="row">
          <Submit action={save}>Save rule and budget</Submit>
        </div>
      </form>
      <Outcome outcome={check.invalid ?? save.outcome} />
    </Panel>
  );
}

/** A creator's own rule, for the creators that take part. */
function CreatorRule({ c, onChanged }: { c: C; onChanged: () => void }) {
  const creators = c.members.flatMap((m) => (m.creator ? [m.creator] : []));
  const [creatorId, setCreatorId] = useState("");
  const chosen = creatorId || creators[0]?.id || "";
  const { rule: campaignRule, ownRule } = campaignRules(c);
  const own = ownRule(chosen);
  const [rule, setRule] = useState<RuleText>(() => ruleText(own ?? campaignRule, c.currency));
  const check = useInvalid();
  const save = useAction<PayoutRulesCreatorMutation>(setCreatorRule);
  if (creators.length === 0) return null;
  const name = creators.find((x) => x.id === chosen)?.name ?? "the creator";

  function choose(id: string) {
    setCreatorId(id);
    setRule(ruleText(ownRule(id) ?? campaignRule, c.currency));
  }

  async function submit(remove: boolean) {
    save.clear();
    check.clear();
    const amounts = remove ? null : ruleInput(rule, c.currency);
    if (typeof amounts === "string") return check.refuse(`Could not save ${name}'s rule`, amounts);
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
    <Panel title="A creator's own rule">
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
                {ownRule(x.id) ? " (own rule)" : ""}
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
      <Outcome outcome={check.invalid ?? save.outcome} />
    </Panel>
  );
}
