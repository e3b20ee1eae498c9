/**
 * A video in a list: its thumbnail, its title (the description, or the one fallback of
 * lib/format.ts `videoTitle`) linking to its page (or, for a video not tracked, to the platform),
 * and its creator. Every table of videos uses it (components/DataTable.tsx).
 */
import type { ReactNode } from "react";
import { Link } from "react-router";
import { paths } from "../lib/paths";
import { formatCount, formatPercent, formatWhole, platformName, videoTitle } from "../lib/format";
import type { Column } from "./DataTable";
import { Time } from "./Time";

interface Video {
  readonly uuid?: string;
  readonly url?: string;
  readonly description?: string | null;
  readonly username?: string | null;
  readonly thumbnailUrl?: string | null;
  readonly type?: string;
}

export function Thumbnail({ src, avatar = false }: { src: string | null | undefined; avatar?: boolean }) {
  const className = avatar ? "thumb avatar" : "thumb";
  return src ? (
    <img className={className} src={src} alt="" loading="lazy" referrerPolicy="no-referrer" />
  ) : (
    <span className={`${className} thumb-empty`} />
  );
}

/** `creator`: show "@username · Platform" under the title (lists of several creators' videos). */
export function VideoCell({ video: v, creator = false, children }: { video: Video; creator?: boolean; children?: ReactNode }) {
  const title = videoTitle(v);
  return (
    <div className="video-cell">
      {"thumbnailUrl" in v && <Thumbnail src={v.thumbnailUrl} />}
      <span>
        {v.uuid ? (
          <Link className="description" to={paths.video(v.uuid)}>
            {title}
          </Link>
        ) : (
          <a className="description" href={v.url} target="_blank" rel="noreferrer noopener">
            {title}
          </a>
        )}
        {creator && v.username && (
          <span className="muted">
            {" "}
            @{v.username}
            {v.type && ` · ${platformName(v.type)}`}
          </span>
        )}{" "}
        {children}
      </span>
    </div>
  );
}

interface VideoMetrics {
  readonly viewCount?: number | null;
  readonly likeCount?: number | null;
  readonly engagementRate?: number | null;
  readonly postedAt?: string | null;
}

/**
 * The metric columns every table of videos shows the same way (views with the exact count on hover,
 * likes, engagement, posted), by column id; `sorts` gives the server's sort key of those that sort.
 */
export function videoMetricColumns<T extends VideoMetrics, S extends string = string>(
  sorts: Partial<Record<"views" | "likes" | "engagement" | "posted", S>> = {},
) {
  return {
    views: {
      id: "views",
      header: "Views",
      sort: sorts.views,
      cell: (v) => <span title={formatWhole(v.viewCount)}>{formatCount(v.viewCount)}</span>,
    },
    likes: { id: "likes", header: "Likes", sort: sorts.likes, cell: (v) => formatCount(v.likeCount) },
    engagement: { id: "engagement", header: "Engagement", sort: sorts.engagement, cell: (v) => formatPercent(v.engagementRate) },
    posted: { id: "posted", header: "Posted", sort: sorts.posted, cell: (v) => <Time value={v.postedAt} /> },
  } satisfies Record<string, Column<T, S>>;
}
