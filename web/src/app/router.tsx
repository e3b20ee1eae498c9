/**
 * The dashboard's data router (React Router's createBrowserRouter over ./routes.tsx), and what it
 * keeps in order as it moves: the queries a router state no longer holds are disposed (Relay may
 * then collect their records), and so are the environments of workspaces left behind. A workspace
 * switch, sign-in or sign-out reads every route again in the new environment (relay/workspace.ts).
 */
import { createBrowserRouter } from "react-router";
import type { OperationType } from "relay-runtime";
import type { PreloadedQuery } from "react-relay";
import { queriesIn } from "../relay/route-query";
import { routes } from "./routes";
import { onWorkspaceChange, retireEnvironments } from "../relay/workspace";

export function createDashboardRouter() {
  const router = createBrowserRouter(routes);
  let held = new Set<PreloadedQuery<OperationType>>();
  router.subscribe((state) => {
    if (state.navigation.state !== "idle" || state.revalidation !== "idle") return;
    const now = queriesIn(state.loaderData);
    for (const ref of held) if (!now.has(ref)) ref.dispose();
    held = now;
    retireEnvironments((state.loaderData.root as { environment?: unknown } | undefined)?.environment);
  });
  onWorkspaceChange(() => void router.revalidate());
  return router;
}
