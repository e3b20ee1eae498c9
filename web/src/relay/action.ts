/**
 * One way to run an action (a mutation) and show its outcome: `const { run, pending, outcome } =
 * useAction<M>(mutation)`; `await run(variables, { done, failed, ...config })` resolves with the
 * response, or null when it failed. `outcome` is what the person reads after it, shown by
 * `<Outcome outcome={outcome} />` (components/Outcome.tsx): success in words (role=status), failure
 * in words with what to do next (role=alert). Optimistic updates (`optimisticResponse`,
 * `optimisticUpdater`) and `updater` pass through, so a list changes at once and is rolled back
 * if the server refuses.
 */
import { useCallback, useState } from "react";
import type { UseMutationConfig } from "react-relay";
import { graphql } from "react-relay";
import type { GraphQLTaggedNode, MutationParameters } from "relay-runtime";
import { ApiError } from "../lib/errors";
import { useMutationAsync } from "./mutations";

export type ActionOutcome = { ok: true; message: string } | { ok: false; title: string; error: unknown };

type Config<M extends MutationParameters> = Omit<UseMutationConfig<M>, "variables" | "onCompleted" | "onError">;

export interface RunOptions<M extends MutationParameters> extends Config<M> {
  /** What succeeded, in words, from the response (null: say nothing, e.g. when leaving the page). */
  done?: (response: M["response"]) => string | ActionOutcome | null;
  /** The heading of a failure ("Could not revoke the key"). */
  failed: string;
}

export function useAction<M extends MutationParameters>(mutation: GraphQLTaggedNode) {
  const [commit, pending] = useMutationAsync<M>(mutation);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const run = useCallback(
    (variables: M["variables"], { done, failed, ...config }: RunOptions<M>): Promise<M["response"] | null> => {
      setOutcome(null);
      return commit(variables, config).then(
        (response) => {
          const said = done?.(response) ?? null;
          setOutcome(typeof said === "string" ? { ok: true, message: said } : said);
          return response;
        },
        (error: unknown) => {
          setOutcome({ ok: false, title: failed, error });
          return null;
        },
      );
    },
    [commit],
  );
  const clear = useCallback(() => setOutcome(null), []);
  return { run, pending, outcome, clear };
}

/**
 * What `perItem` reads of each item of a bulk answer (`BulkItemResult`): every bulk mutation spreads it with
 * `...action_bulkItem @relay(mask: false)`, so its items carry the id, whether it was done, and the refusal.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- relay-compiler only needs the tag (spread with @relay(mask: false))
graphql`
  fragment action_bulkItem on BulkItemResult {
    id
    success
    error
  }
`;

/**
 * An action answered per item (`{ id success error }[]`, the bulk mutations), the one way its outcome reads:
 * every item done, a status in words (`said(n)`); any item refused, an alert headed `title` that says what was
 * done and each refusal in the server's words (`advice` adds what to do about it).
 */
export function perItem(
  results: readonly { success: boolean; error?: string | null }[],
  said: (done: number) => string,
  title: string,
  advice = "",
): ActionOutcome {
  const done = results.length - results.filter((r) => !r.success).length;
  const reasons = [...new Set(results.filter((r) => !r.success).map((r) => r.error || "refused"))];
  if (reasons.length === 0) return { ok: true, message: said(done) };
  const partly = done > 0 ? `${said(done)} ` : "";
  return refused(title, `${partly}Not done: ${reasons.join("; ")}.${advice ? ` ${advice}` : ""}`);
}

/** The server refused one item with a reason (not an error of the request): shown as an alert, in its words. */
export const refused = (title: string, reason: string | null | undefined): ActionOutcome => ({
  ok: false,
  title,
  error: new ApiError("REFUSED", reason || "The service refused it."),
});
