import { useEffect, useState, type ReactNode } from "react";
import { PLATFORMS, type PlatformValue } from "../lib/format";

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
      <label>
        Platform
        <select value={options.platform ?? ""} onChange={(e) => onChange({ platform: (e.target.value || null) as PlatformValue | null })}>
          <option value="">All platforms</option>
          {PLATFORMS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Search
        <input type="search" value={q} placeholder={placeholder} onChange={(e) => setQ(e.target.value)} />
      </label>
      {children}
    </form>
  );
}
