/**
 * Videos: track one or many URLs, and the table of tracked videos (sort, platform filter, search,
 * cursor pages), updating live as scrapes land. The list's options live in the URL (?sort=views&
 * order=asc&platform=PLATFORM_A&q=cats), so a view can be bookmarked and the back button works.
 */
import { Suspense, useTransition } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { useSearchParams } from "react-router";
import type { VideosPageQuery } from "../../__generated__/VideosPageQuery.graphql";
import { useFirstLoadFetchPolicy } from "../../relay/preloaded";
import { PageHeader } from "../../components/PageHeader";
import { ListFilters } from "../../components/ListFilters";
import { Loading } from "../../components/Loading";
import { TrackVideosForm } from "./TrackVideosForm";
import { VideosTable } from "./VideosTable";
import { PAGE_SIZE, readOptions, writeOptions, type ListOptions } from "./list-options";

const query = graphql`
  query VideosPageQuery($sort: VideoSort!, $order: SortOrder!, $platform: Platform, $q: String, $first: Int!) {
    ...VideosTable_query @arguments(sort: $sort, order: $order, platform: $platform, q: $q, first: $first)
  }
`;

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
        <ListFilters options={options} onChange={change} placeholder="Words of the description or the username" />
        <Suspense fallback={<Loading what="Loading the videos" />}>
          <VideosList options={options} onChange={change} pending={pending} />
        </Suspense>
      </section>
    </>
  );
}

function VideosList({ options, onChange, pending }: { options: ListOptions; onChange: (o: Partial<ListOptions>) => void; pending: boolean }) {
  const variables = { ...options, first: PAGE_SIZE };
  const data = useLazyLoadQuery<VideosPageQuery>(query, variables, { fetchPolicy: useFirstLoadFetchPolicy(query, variables) });
  return <VideosTable query={data} options={options} onChange={onChange} pending={pending} />;
}
