/**
 * The gate of every signed-in page: the viewer query (who is signed in, in which workspaces), loaded
 * by its route (./routes.tsx `viewerLoader`, which also sends a signed-out person to the sign-in
 * page and forgets a stale workspace choice), and its other errors shown in words.
 */
import { Suspense } from "react";
import { graphql } from "react-relay";
import type { SignedInQuery, SignedInQuery$data } from "../__generated__/SignedInQuery.graphql";
import { ErrorBoundary } from "../components/ErrorBoundary";
import { Loading } from "../components/Loading";
import { useRouteQuery } from "../relay/route-query";
import { Shell } from "./Shell";

const query = graphql`
  query SignedInQuery {
    viewer {
      id
      name
      email
      currentWorkspace {
        id
        role
      }
      ...WorkspaceSwitcher_viewer
    }
  }
`;

export type Viewer = NonNullable<SignedInQuery$data["viewer"]>;

export function SignedIn() {
  return (
    <ErrorBoundary what="the dashboard">
      <Suspense fallback={<Loading what="Loading the dashboard" />}>
        <ViewerGate />
      </Suspense>
    </ErrorBoundary>
  );
}

function ViewerGate() {
  const { viewer } = useRouteQuery<SignedInQuery>(query);
  // The loader sent a signed-out person away; a session that ended since is the boundary's UNAUTHORIZED.
  return viewer ? <Shell viewer={viewer} /> : <Loading what="Signing in" />;
}
