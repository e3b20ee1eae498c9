/**
 * The root of every route: the Relay environment the router's loaders loaded this state's queries
 * into (./routes.tsx), so a page and its queries always share one environment, also right after a
 * workspace switch (relay/workspace.ts).
 */
import { RelayEnvironmentProvider } from "react-relay";
import { Outlet, useLoaderData } from "react-router";
import type { Environment } from "relay-runtime";

export function Root() {
  const { environment } = useLoaderData() as { environment: Environment };
  return (
    <RelayEnvironmentProvider environment={environment}>
      <Outlet />
    </RelayEnvironmentProvider>
  );
}
