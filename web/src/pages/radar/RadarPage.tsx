/**
 * Radar: start a search (every option of createRadarSearch, its 100-credit cost and the balance
 * shown first), the history of searches, and the chosen search (/radar/:id) with its live status
 * and ranked results.
 */
import { Suspense } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { useParams } from "react-router";
import type { RadarPageQuery } from "../../__generated__/RadarPageQuery.graphql";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { useLiveCredits } from "../../relay/credits";
import { RadarHistory } from "./RadarHistory";
import { RadarSearchForm } from "./RadarSearchForm";
import { RadarSearchView } from "./RadarSearchView";

const query = graphql`
  query RadarPageQuery {
    credits {
      totalRemaining
    }
    ...RadarHistory_query
  }
`;

export default function RadarPage() {
  const { id } = useParams();
  const data = useLazyLoadQuery<RadarPageQuery>(query, {}, { fetchPolicy: "store-and-network" });
  useLiveCredits();
  return (
    <>
      <PageHeader title="Radar" />
      <RadarSearchForm balance={data.credits.totalRemaining} />
      {id && (
        <Suspense fallback={<Loading what="Loading the search" />}>
          <RadarSearchView key={id} id={id} />
        </Suspense>
      )}
      <RadarHistory query={data} selected={id} />
    </>
  );
}
