/**
 * A labelled choice among fixed options (a platform, a depth, a sort): the label wraps the `<select>`, each
 * option's value and words come from one list (`PLATFORMS`, a page's `DEPTHS`…). `none` adds a first option
 * for no value (the empty string), e.g. "All platforms". A choice among the workspace's items is a Picker.
 */
import type { ReactNode } from "react";

export interface Option<V extends string> {
  readonly value: V;
  readonly label: string;
}

type Props<V extends string> = {
  label: ReactNode;
  value: V | "";
  options: readonly Option<V>[];
} & (
  | {
      /** A first option that chooses nothing, in words; choosing it calls `onChange(null)`. */
      none: string;
      onChange: (value: V | null) => void;
    }
  | { none?: undefined; onChange: (value: V) => void }
);

export function Select<V extends string>({ label, value, options, none, onChange }: Props<V>) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => (onChange as (v: V | null) => void)((e.target.value || null) as V | null)}>
        {none !== undefined && <option value="">{none}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
