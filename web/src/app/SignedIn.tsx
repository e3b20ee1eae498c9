/**
 * The gate of every signed-in page: the viewer query (./Shell.tsx), loaded by its route
 * (./routes.tsx `viewerLoader`, which also sends a signed-out person to the sign-in page and forgets
 * a stale workspace choice), with its other errors shown in words.
 */
import { Suspense } from "react";
import { ErrorBoundary } from "../components/ErrorBoundary";
import { Loading } from "../components/Loading";
import { Shell } from "./Shell";

export function SignedIn() {
  return (
    <ErrorBoundary what="the dashboard">
      <Suspense fallback={<Loading what="Loading the dashboard" />}>
        <Shell />
      </Suspense>
    </ErrorBoundary>
  );
}
