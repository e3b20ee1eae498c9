/**
 * Videos: track one or many URLs, and the table of tracked videos (sort, platform filter, search,
 * cursor pages), updating live as scrapes land. The list's options live in the URL (?sort=views&
 * order=asc&platform=PLATFORM_A&q=cats), so a view can be bookmarked and the back button works.
 */
import { Suspense, useTransition } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { useSearchParams } from "react-router";
import type { VideosPageQuery, Platform, SortOrder, VideoSort } from "../../__generated__/VideosPageQuery.graphql";
import { PageHeader } from "../../components/PageHeader";
import { Loading } from "../../components/Loading";
import { TrackVideosForm } from "./TrackVideosForm";
import { VideosFilters } from "./VideosFilters";
import { VideosTable } from "./VideosTable";

const query = graphql`
  query VideosPageQuery($sort: VideoSort!, $order: SortOrder!, $platform: Platform, $q: String, $first: Int!) {
    ...VideosTable_query @arguments(sort: $sort, order: $order, platform: $platform, q: $q, first: $first)
  }
`;

export const PAGE_SIZE = 50;
const SORTS: VideoSort[] = ["TRACKED_AT", "POSTED_AT", "VIEWS", "ENGAGEMENT", "VIEWS_24H", "OUTLIER"];
const PLATFORMS: Platform[] = ["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"];

/** The list's options, read from the URL (unknown values fall back to the defaults). */
export interface ListOptions {
  sort: VideoSort;
  order: SortOrder;
  platform: Platform | null;
  q: string | null;
}

function readOptions(params: URLSearchParams): ListOptions {
  const sort = params.get("sort")?.toUpperCase() as VideoSort;
  const platform = params.get("platform") as Platform;
  return {
    sort: SORTS.includes(sort) ? sort : "TRACKED_AT",
    order: params.get("order") === "asc" ? "ASC" : "DESC",
    platform: PLATFORMS.includes(platform) ? platform : null,
    q: params.get("q")?.trim() || null,
  };
}

function writeOptions(o: ListOptions): URLSearchParams {
  const p = new URLSearchParams();
  if (o.sort !== "TRACKED_AT") p.set("sort", o.sort.toLowerCase());
  if (o.order === "ASC") p.set("order", "asc");
  if (o.platform) p.set("platform", o.platform);
  if (o.q) p.set("q", o.q);
  return p;
}

export default function VideosPage() {
  const [params, setParams] = useSearchParams();
  const [pending, startTransition] = useTransition();
  const options = readOptions(params);
  const change = (next: Partial<ListOptions>) => startTransition(() => setParams(writeOptions({ ...options, ...next }), { replace: true }));
  return (
    <>
      <PageHeader title="Videos" />
      <TrackVideosForm />
      <section aria-labelledby="tracked-heading" className="panel">
        <h2 id="tracked-heading">Tracked videos</h2>
        <VideosFilters options={options} onChange={change} />
        <Suspense fallback={<Loading what="Loading the videos" />}>
          <VideosList options={options} onChange={change} pending={pending} />
        </Suspense>
      </section>
    </>
  );
}

function VideosList({ options, onChange, pending }: { options: ListOptions; onChange: (o: Partial<ListOptions>) => void; pending: boolean }) {
  const data = useLazyLoadQuery<VideosPageQuery>(query, { ...options, first: PAGE_SIZE }, { fetchPolicy: "store-and-network" });
  return <VideosTable query={data} options={options} onChange={onChange} pending={pending} />;
}
