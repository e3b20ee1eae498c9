/**
 * Keeps the workspace's balance current everywhere it is shown. `Credits` has no id (it is a value
 * of the workspace), so Relay cannot merge a `creditsUpdated` payload by itself: this updater
 * copies it onto `workspace.credits` and `credits` at the root.
 */
import { useMemo } from "react";
import { graphql, useSubscription } from "react-relay";
import type { GraphQLSubscriptionConfig, RecordSourceSelectorProxy } from "relay-runtime";
import type { creditsUpdatedSubscription } from "../__generated__/creditsUpdatedSubscription.graphql";

const subscription = graphql`
  subscription creditsUpdatedSubscription {
    creditsUpdated {
      monthlyUsed
      monthlyRemaining
      monthlyTotal
      totalRemaining
      reserved
      cycleResetsAt
    }
  }
`;

function copyCredits(store: RecordSourceSelectorProxy) {
  const fresh = store.getRootField("creditsUpdated");
  if (!fresh) return;
  const root = store.getRoot();
  for (const holder of [root.getLinkedRecord("workspace"), root]) holder?.getLinkedRecord("credits")?.copyFieldsFrom(fresh);
}

/** Subscribes while the calling component is mounted. */
export function useLiveCredits() {
  const config = useMemo<GraphQLSubscriptionConfig<creditsUpdatedSubscription>>(() => ({ subscription, variables: {}, updater: copyCredits }), []);
  useSubscription(config);
}
