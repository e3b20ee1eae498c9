/**
 * The column chooser of a table (lib/columns.ts): a disclosure ("Columns") holding one checkbox per
 * column, in a fieldset; the last shown column cannot be hidden. Native <details>: Enter or Space
 * opens it, Tab walks the boxes, on a phone it opens in the page's flow. The boxes exist only while
 * it is open, so a closed chooser adds no second control named like the page's own ("Platform").
 */
import { useState } from "react";
import type { ColumnChoice } from "../lib/columns";

interface Props {
  columns: readonly ColumnChoice[];
  shown: readonly string[];
  onChange: (ids: string[]) => void;
}

export function ColumnChooser({ columns, shown, onChange }: Props) {
  const [open, setOpen] = useState(false);
  const toggle = (id: string) => onChange(shown.includes(id) ? shown.filter((x) => x !== id) : [...shown, id]);
  return (
    <details className="column-chooser" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        Columns{" "}
        <span className="muted">
          ({shown.length} of {columns.length})
        </span>
      </summary>
      {open && (
        <fieldset>
          <legend>Columns shown</legend>
          {columns.map((c) => {
            const on = shown.includes(c.id);
            return (
              <label key={c.id}>
                <input type="checkbox" checked={on} disabled={on && shown.length === 1} onChange={() => toggle(c.id)} /> {c.label}
              </label>
            );
          })}
        </fieldset>
      )}
    </details>
  );
}
