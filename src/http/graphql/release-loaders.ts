/**
 * Empties the operation's DataLoaders once its answer is made (plugin).
 *
 * Why: Pothos keeps a request's loaders in WeakMaps keyed by its context, and the loaders keep every
 * node they were primed with (`cacheResolved`: each video of a list page). V8's young-generation
 * collector keeps a WeakMap's values alive whatever their keys, so each page's rows outlived the
 * request until the next collection, were copied and promoted, and were freed only by a full
 * collection: about half of the GraphQL list's garbage-collection time (bench/RESULTS.md,
 * `PROFILE_ALLOCATIONS=promoted npm run bench:profile -- gql`). Emptied at the end of execution,
 * the rows die young with the rest of the request. A stream (@defer/@stream, a subscription) keeps
 * its loaders until it ends. Nothing reads a loader after that: the answer is plain data by then.
 */
import { clearAllDataLoaders } from "@pothos/plugin-dataloader";
import type { Plugin } from "graphql-yoga";

export const releaseLoaders: Plugin = {
  onExecute() {
    return {
      onExecuteDone({ args, result }) {
        const context = args.contextValue as object;
        if (result && typeof result === "object" && Symbol.asyncIterator in result) return { onEnd: () => clearAllDataLoaders(context) };
        clearAllDataLoaders(context);
        return undefined;
      },
    };
  },
};
