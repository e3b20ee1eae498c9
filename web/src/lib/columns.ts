/**
 * Which columns a list shows: chosen by the person with the column chooser
 * (components/ColumnChooser.tsx), kept in the URL (?columns=video,creator,views: a saved view or a
 * bookmark brings them back) and, for the next visit without one, in this browser (localStorage).
 * Ids are the domain's (src/domain/views/inputs.ts: VIDEO_LIST_COLUMNS, ACCOUNT_LIST_COLUMNS), so a
 * saved view's columns apply as they are. Unknown ids are dropped; none left means every column.
 */
import { useSearchParams } from "react-router";

export interface ColumnChoice {
  id: string;
  label: string;
}

const storageKey = (list: string) => `columns:${list}`;

function parse(value: string | null, all: readonly ColumnChoice[]): string[] | null {
  if (!value) return null;
  const known = new Set(all.map((c) => c.id));
  const ids = [...new Set(value.split(",").filter((id) => known.has(id)))];
  return ids.length ? ids : null;
}

function remembered(list: string): string | null {
  try {
    return localStorage.getItem(storageKey(list));
  } catch {
    return null;
  }
}

/** Remembers the columns in this browser: a list opened without ?columns= shows them (a sort rewrites the URL without it). */
export function rememberColumns(list: string, ids: readonly string[]): void {
  try {
    localStorage.setItem(storageKey(list), ids.join(","));
  } catch {
    // A browser that keeps nothing (private mode): the URL still holds the choice.
  }
}

/** The list's shown columns (in the table's order) and a change that writes them to the URL and remembers them. */
export function useColumns(list: string, all: readonly ColumnChoice[]) {
  const [params, setParams] = useSearchParams();
  const chosen = parse(params.get("columns"), all) ?? parse(remembered(list), all) ?? all.map((c) => c.id);
  const change = (ids: readonly string[]) => {
    const ordered = all.map((c) => c.id).filter((id) => ids.includes(id));
    const next = new URLSearchParams(params);
    next.set("columns", ordered.join(","));
    rememberColumns(list, ordered);
    setParams(next, { replace: true });
  };
  return [chosen, change] as const;
}
