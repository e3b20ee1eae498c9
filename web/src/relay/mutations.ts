/**
 * `useMutation` as a promise: `const [track, tracking] = useMutationAsync<M>(mutation)`, then
 * `await track(variables)` resolves with the response or rejects with an ApiError (lib/errors.ts)
 * for the caller to show in words. Updaters and optimistic responses pass through `config`.
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
