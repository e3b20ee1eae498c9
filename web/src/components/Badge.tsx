import type { ReactNode } from "react";

type Tone = "neutral" | "info" | "success" | "warning" | "danger";

export function Badge({ tone = "neutral", title, children }: { tone?: Tone; title?: string; children: ReactNode }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}

const STATUS_TONES: Record<string, Tone> = {
  READY: "success",
  COMPLETED: "success",
  QUEUED: "neutral",
  PENDING: "neutral",
  SCRAPING: "info",
  FAILED: "danger",
};

/** A scrape, analysis or search status as a badge ("Ready", "Scraping" …). */
export function StatusBadge({ status, title }: { status: string; title?: string }) {
  return (
    <Badge tone={STATUS_TONES[status] ?? "info"} title={title}>
      {status.charAt(0) + status.slice(1).toLowerCase()}
    </Badge>
  );
}
