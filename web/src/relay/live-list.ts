/**
 * A list kept live by a workspace's change stream (`trackedVideosChanged`, `trackedAccountsChanged`): an UPDATED
 * item arrives with its fields and Relay merges it by id (its row re-renders by itself); ADDED and REMOVED change
 * which rows the list holds, so the list is read again (at most every 500 ms while changes keep coming).
 */
import { useEffect, useMemo, useRef } from "react";
import { useSubscription } from "react-relay";
import type { GraphQLSubscriptionConfig, GraphQLTaggedNode, OperationType } from "relay-runtime";

export function useLiveList<S extends OperationType>(
  subscription: GraphQLTaggedNode,
  kindOf: (payload: S["response"]) => string | undefined,
  reload: () => void,
) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const config = useMemo<GraphQLSubscriptionConfig<S>>(
    () => ({
      subscription,
      variables: {},
      onNext: (payload) => {
        if (!payload || kindOf(payload) === "UPDATED" || timer.current) return;
        timer.current = setTimeout(() => {
          timer.current = null;
          reload();
        }, 500);
      },
    }),
    [subscription, kindOf, reload],
  );
  useSubscription(config);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
}
