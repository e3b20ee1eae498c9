/**
 * `useMutation` as a promise: `const [track, tracking] = useMutationAsync<M>(mutation)`, then
 * `await track(variables)` resolves with the response or rejects with an ApiError (lib/errors.ts).
 * Updaters and optimistic responses pass through `config`. Pages use `useAction` (./action.ts),
 * built on this, which also keeps the outcome to show; this alone is for a form that answers each
 * of many calls on its own line (pages/videos/TrackVideosForm.tsx).
 */
import { useCallback } from "react";
import { useMutation, type UseMutationConfig } from "react-relay";
import type { GraphQLTaggedNode, MutationParameters } from "relay-runtime";
import { fromGraphQLErrors } from "../lib/errors";

type Extra<M extends MutationParameters> = Omit<UseMutationConfig<M>, "variables" | "onCompleted" | "onError">;

export function useMutationAsync<M extends MutationParameters>(mutation: GraphQLTaggedNode) {
  const [commit, inFlight] = useMutation<M>(mutation);
  const run = useCallback(
    (variables: M["variables"], config: Extra<M> = {}) =>
      new Promise<M["response"]>((resolve, reject) => {
        commit({
          ...config,
          variables,
          onCompleted: (response, errors) => (errors?.length ? reject(fromGraphQLErrors(errors, 200)) : resolve(response)),
          onError: reject,
        });
      }),
    [commit],
  );
  return [run, inFlight] as const;
}
