/** /radar/:id: the chosen search under the Radar page (its query comes from the route: app/routes.tsx). */
import { Suspense } from "react";
import { useParams } from "react-router";
import { Loading } from "../../components/Loading";
import { RadarSearchView } from "./RadarSearchView";

export default function RadarSearchRoute() {
  // Another search starts its own status log.
  const { id } = useParams();
  return (
    <Suspense fallback={<Loading what="Loading the search" />}>
      <RadarSearchView key={id} />
    </Suspense>
  );
}
