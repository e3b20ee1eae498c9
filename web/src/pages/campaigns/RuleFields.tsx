/**
 * The four amounts of a payout rule as form fields (CPM, cap per video, fee per video, cap per
 * creator), typed in major units of the campaign's currency; empty means none.
 */
import { inputToMinor, minorToInput } from "./money";

export interface RuleText {
  cpm: string;
  capPerVideo: string;
  feePerVideo: string;
  capPerCreator: string;
}

export const emptyRule: RuleText = { cpm: "", capPerVideo: "", feePerVideo: "", capPerCreator: "" };

type Rule = {
  cpmMinor?: number | null;
  capPerVideoMinor?: number | null;
  feePerVideoMinor?: number | null;
  capPerCreatorMinor?: number | null;
};

export const ruleText = (r: Rule, currency: string): RuleText => ({
  cpm: minorToInput(r.cpmMinor, currency),
  capPerVideo: minorToInput(r.capPerVideoMinor, currency),
  feePerVideo: minorToInput(r.feePerVideoMinor, currency),
  capPerCreator: minorToInput(r.capPerCreatorMinor, currency),
});

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
