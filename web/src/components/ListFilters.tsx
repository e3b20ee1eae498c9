import { useEffect, useState, type ReactNode } from "react";
import { PLATFORMS, type PlatformValue } from "../lib/format";
import { Select } from "./Select";

interface Filters {
  platform: PlatformValue | null;
  q: string | null;
}

/**
 * A list's platform filter and search (the search applies 300 ms after typing stops, or on Enter);
 * `children` are the list's other filters (e.g. the tag filter, pages/tags/TagFilter.tsx).
 * Words set from elsewhere (a saved view applied, the back button) replace what the box holds; the
 * echo of the box's own change does not (it may have been typed further meanwhile).
 */
export function ListFilters({
  options,
  onChange,
  placeholder,
  children,
}: {
  options: Filters;
  onChange: (o: Partial<Filters>) => void;
  placeholder: string;
  children?: ReactNode;
}) {
  const [q, setQ] = useState(options.q ?? "");
  const [sent, setSent] = useState(options.q);
  const [seen, setSeen] = useState(options.q);
  if (options.q !== seen) {
    setSeen(options.q);
    if (options.q !== sent) {
      setQ(options.q ?? "");
      setSent(options.q);
    }
  }
  useEffect(() => {
    const trimmed = q.trim() || null;
    if (trimmed === options.q) return;
    const timer = setTimeout(() => {
      setSent(trimmed);
      onChange({ q: trimmed });
    }, 300);
    return () => clearTimeout(timer);
  }, [q, options.q, onChange]);

  const submit = () => {
    const trimmed = q.trim() || null;
    setSent(trimmed);
    onChange({ q: trimmed });
  };

  return (
    <form className="filters" role="search" onSubmit={(e) => (e.preventDefault(), submit())}>
      <Select
        label="Platform"
        value={options.platform ?? ""}
        options={PLATFORMS}
        none="All platforms"
        onChange={(platform) => onChange({ platform })}
      />
      <label>
        Search
        <input type="search" value={q} placeholder={placeholder} onChange={(e) => setQ(e.target.value)} />
      </label>
      {children}
    </form>
  );
}
