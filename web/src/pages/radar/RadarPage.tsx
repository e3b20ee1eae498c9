/**
 * Radar: start a search (every option of createRadarSearch, its 100-credit cost and the balance
 * shown first), the history of searches, and the chosen search (/radar/:id, a child route: its query
 * starts with this page's, and this page, with what is typed in its form, stays when another search
 * is opened) with its live status and ranked results.
 */
import { graphql } from "react-relay";
import { Outlet, useParams } from "react-router";
import type { RadarPageQuery } from "../../__generated__/RadarPageQuery.graphql";
import { PageHeader } from "../../components/PageHeader";
import { useLiveCredits } from "../../relay/credits";
import { useRouteQuery } from "../../relay/route-query";
import { RadarHistory } from "./RadarHistory";
import { RadarSearchForm } from "./RadarSearchForm";

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
  const data = useRouteQuery<RadarPageQuery>(query);
  useLiveCredits();
  return (
    <>
      <PageHeader title="Radar" />
      <RadarSearchForm balance={data.credits.totalRemaining} />
      <Outlet />
      <RadarHistory query={data} selected={id} />
    </>
  );
}
