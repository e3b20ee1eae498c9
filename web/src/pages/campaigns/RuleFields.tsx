/**
 * A payout rule: its four amounts (CPM, cap per video, fee per video, cap per creator), selected once
 * (`RuleFields_rule`, an inline fragment every campaign document spreads where it reads a rule), said in words,
 * and as form fields typed in major units of the campaign's currency; empty means none.
 */
import { graphql, readInlineData } from "react-relay";
import type { RuleFields_rule$key } from "../../__generated__/RuleFields_rule.graphql";
import type { RuleFields_campaign$key } from "../../__generated__/RuleFields_campaign.graphql";
import { formatMoney, inputToMinor, minorToInput } from "./money";

const ruleFragment = graphql`
  fragment RuleFields_rule on PayoutRule @inline {
    cpmMinor
    capPerVideoMinor
    feePerVideoMinor
    capPerCreatorMinor
  }
`;

/** A rule's amounts in minor units (null: none). */
export const ruleOf = (rule: RuleFields_rule$key) => readInlineData(ruleFragment, rule);

/** A campaign's rules: its own, and each creator's that replaces it. */
const campaignRulesFragment = graphql`
  fragment RuleFields_campaign on Campaign @inline {
    rule {
      ...RuleFields_rule
    }
    creatorRules {
      creator {
        id
      }
      rule {
        ...RuleFields_rule
      }
    }
  }
`;

/** The campaign's rule, and the one a creator is paid by: their own, or null for the campaign's. */
export function campaignRules(campaign: RuleFields_campaign$key) {
  const { rule, creatorRules } = readInlineData(campaignRulesFragment, campaign);
  const ownRule = (creatorId: string | null | undefined) =>
    (creatorId ? creatorRules.find((r) => r.creator?.id === creatorId)?.rule : null) ?? null;
  return { rule, ownRule };
}

/** A payout rule in words: "€2.00 per 1,000 views, at most €50.00 per video; €10.00 per video; at most €300.00 per creator". */
export function ruleInWords(key: RuleFields_rule$key, currency: string): string {
  const rule = ruleOf(key);
  const parts: string[] = [];
  if (rule.cpmMinor != null)
    parts.push(
      `${formatMoney(rule.cpmMinor, currency)} per 1,000 views` +
        (rule.capPerVideoMinor != null ? `, at most ${formatMoney(rule.capPerVideoMinor, currency)} per video` : ""),
    );
  if (rule.feePerVideoMinor != null) parts.push(`${formatMoney(rule.feePerVideoMinor, currency)} per qualifying video`);
  if (rule.capPerCreatorMinor != null) parts.push(`at most ${formatMoney(rule.capPerCreatorMinor, currency)} per creator`);
  return parts.length ? parts.join("; ") : "no payout rule yet";
}

export interface RuleText {
  cpm: string;
  capPerVideo: string;
  feePerVideo: string;
  capPerCreator: string;
}

export const emptyRule: RuleText = { cpm: "", capPerVideo: "", feePerVideo: "", capPerCreator: "" };

/** A rule as the form's fields. */
export function ruleText(key: RuleFields_rule$key, currency: string): RuleText {
  const r = ruleOf(key);
  return {
    cpm: minorToInput(r.cpmMinor, currency),
    capPerVideo: minorToInput(r.capPerVideoMinor, currency),
    feePerVideo: minorToInput(r.feePerVideoMinor, currency),
    capPerCreator: minorToInput(r.capPerCreatorMinor, currency),
  };
}

const LABELS: Record<keyof RuleText, string> = {
  cpm: "Pay per 1,000 views",
  capPerVideo: "At most per video (views part)",
  feePerVideo: "Fixed fee per video",
  capPerCreator: "At most per creator",
};

/** The rule in minor units, or what is wrong with it in words. */
export function ruleInput(
  r: RuleText,
  currency: string,
):
  | { cpmMinor: number | null; capPerVideoMinor: number | null; feePerVideoMinor: number | null; capPerCreatorMinor: number | null }
  | string {
  const out: Record<string, number | null> = {};
  for (const [key, field] of [
    ["cpm", "cpmMinor"],
    ["capPerVideo", "capPerVideoMinor"],
    ["feePerVideo", "feePerVideoMinor"],
    ["capPerCreator", "capPerCreatorMinor"],
  ] as const) {
    const v = inputToMinor(r[key], currency);
    if (v === undefined) return `“${LABELS[key]}” is not an amount of ${currency} (e.g. 2.50).`;
    out[field] = v;
  }
  return out as ReturnType<typeof ruleInput> & object;
}

export function RuleFields({
  value,
  onChange,
  currency,
  idPrefix = "",
}: {
  value: RuleText;
  onChange: (r: RuleText) => void;
  currency: string;
  idPrefix?: string;
}) {
  return (
    <fieldset className="row">
      <legend>{idPrefix}Payout rule (empty: none)</legend>
      {(Object.keys(LABELS) as (keyof RuleText)[]).map((k) => (
        <label key={k}>
          {LABELS[k]} ({currency})
          <input type="text" inputMode="decimal" size={10} value={value[k]} onChange={(e) => onChange({ ...value, [k]: e.target.value })} />
        </label>
      ))}
    </fieldset>
  );
}
