import { useEffect, useState, type ReactNode } from "react";
import type { Platform } from "../__generated__/VideosPageQuery.graphql";
import { PLATFORMS } from "../lib/format";

interface Filters {
  platform: Platform | null;
  q: string | null;
}

/**
 * A list's platform filter and search (the search applies 300 ms after typing stops, or on Enter);
 * `children` are the list's other filters (e.g. the tag filter, pages/tags/TagFilter.tsx).
 */
export function ListFilters({ options, onChange, placeholder, children }: { options: Filters; onChange: (o: Partial<Filters>) => void; placeholder: string; children?: ReactNode }) {
  const [q, setQ] = useState(options.q ?? "");
  useEffect(() => {
    const trimmed = q.trim() || null;
    if (trimmed === options.q) return;
    const timer = setTimeout(() => onChange({ q: trimmed }), 300);
    return () => clearTimeout(timer);
  }, [q, options.q, onChange]);

  return (
    <form className="filters" role="search" onSubmit={(e) => (e.preventDefault(), onChange({ q: q.trim() || null }))}>
      <label>
        Platform
        <select value={options.platform ?? ""} onChange={(e) => onChange({ platform: (e.target.value || null) as Platform | null })}>
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
