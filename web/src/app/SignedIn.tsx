/**
 * The gate of every signed-in page: the viewer query (who is signed in, in which workspaces), with
 * its errors handled once for the whole dashboard. Signed out (UNAUTHORIZED, or a viewer of null) →
 * the sign-in page, coming back here after. A remembered workspace the person no longer belongs to
 * (NOT_FOUND) is forgotten, and the server's choice (the session's last) is used instead.
 */
import { Suspense, type ReactNode } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { Navigate } from "react-router";
import type { SignedInQuery, SignedInQuery$data } from "../__generated__/SignedInQuery.graphql";
import { ErrorBoundary } from "../components/ErrorBoundary";
import { Loading } from "../components/Loading";
import { apiErrorOf } from "../lib/errors";
import { paths } from "./paths";
import { useFirstLoadFetchPolicy } from "../relay/preloaded";
import { useWorkspaceChoice } from "./workspace";

const query = graphql`
  query SignedInQuery {
    viewer {
      id
      name
      email
      currentWorkspace {
        id
        name
        role
      }
      ...WorkspaceSwitcher_viewer
    }
  }
`;

export type Viewer = NonNullable<SignedInQuery$data["viewer"]>;

export function SignedIn({ children }: { children: (viewer: Viewer) => ReactNode }) {
  const { workspaceId, chooseWorkspace } = useWorkspaceChoice();
  const forgetStaleWorkspace = (error: unknown) => {
    if (!workspaceId || apiErrorOf(error)?.code !== "NOT_FOUND") return false;
    chooseWorkspace(null);
    return true;
  };
  return (
    <ErrorBoundary what="the dashboard" recover={forgetStaleWorkspace}>
      <Suspense fallback={<Loading what="Loading the dashboard" />}>
        <ViewerGate>{children}</ViewerGate>
      </Suspense>
    </ErrorBoundary>
  );
}

function ViewerGate({ children }: { children: (viewer: Viewer) => ReactNode }) {
  const data = useLazyLoadQuery<SignedInQuery>(query, {}, { fetchPolicy: useFirstLoadFetchPolicy(query, {}) });
  if (!data.viewer) return <Navigate to={paths.signIn(window.location.pathname + window.location.search)} replace />;
  return <>{children(data.viewer)}</>;
}
