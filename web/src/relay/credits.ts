/**
 * Keeps the workspace's balance current everywhere it is shown. `Credits` has no id (it is a value
 * of the workspace), so Relay cannot merge a `creditsUpdated` payload by itself: this updater
 * copies it onto `workspace.credits` and `credits` at the root.
 */
import { useMemo } from "react";
import { graphql, useFragment, useSubscription } from "react-relay";
import type { GraphQLSubscriptionConfig, RecordSourceSelectorProxy } from "relay-runtime";
import type { creditsUpdatedSubscription } from "../__generated__/creditsUpdatedSubscription.graphql";
import type { credits_balance$key } from "../__generated__/credits_balance.graphql";

/** The balance as pages show it: spread it where credits are read, read it with `useBalance`. */
const balance = graphql`
  fragment credits_balance on Credits {
    monthlyUsed
    monthlyRemaining
    monthlyTotal
    totalRemaining
    reserved
    cycleResetsAt
  }
`;

const subscription = graphql`
  subscription creditsUpdatedSubscription {
    creditsUpdated {
      ...credits_balance
    }
  }
`;

export const useBalance = (credits: credits_balance$key) => useFragment(balance, credits);

function copyCredits(store: RecordSourceSelectorProxy) {
  const fresh = store.getRootField("creditsUpdated");
  if (!fresh) return;
  const root = store.getRoot();
  for (const holder of [root.getLinkedRecord("workspace"), root]) holder?.getLinkedRecord("credits")?.copyFieldsFrom(fresh);
}

/** Subscribes while the calling component is mounted. */
export function useLiveCredits() {
  const config = useMemo<GraphQLSubscriptionConfig<creditsUpdatedSubscription>>(
    () => ({ subscription, variables: {}, updater: copyCredits }),
    [],
  );
  useSubscription(config);
}
