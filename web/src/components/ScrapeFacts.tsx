/** What a video's and an account's pages both show of a scraped item: its scrape times and link, a failed scrape, its numbers. */
import { Time } from "./Time";

export function ScrapeTimes({
  lastScrapedAt,
  nextRefreshAt,
  url,
}: {
  lastScrapedAt: string | null | undefined;
  nextRefreshAt: string | null | undefined;
  url: string;
}) {
  return (
    <>
      <span>
        Scraped <Time value={lastScrapedAt} fallback="not yet" />
      </span>
      {nextRefreshAt && (
        <span>
          Next scrape <Time value={nextRefreshAt} />
        </span>
      )}
      <a href={url} target="_blank" rel="noreferrer noopener">
        Open on the platform
      </a>
    </>
  );
}

export function ScrapeFailure({ status, error }: { status: string; error: string | null | undefined }) {
  if (status !== "FAILED" || !error) return null;
  return (
    <p className="notice notice-error" role="alert">
      The last scrape failed: {error}
    </p>
  );
}

/** Numbers as label and value (the exact count on hover). */
export function Stats({ stats }: { stats: [label: string, value: string, exact?: string][] }) {
  return (
    <dl className="stats" aria-label="Metrics">
      {stats.map(([label, value, exact]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd title={exact}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
