/**
 * The operation's DataLoaders are emptied once its answer is made (src/http/graphql/release-loaders.ts):
 * the nodes a loader was primed with must not outlive the request (they kept every list page's rows
 * alive into the next young-generation collection). A Pothos schema of its own with the project's
 * plugin: after one operation, the same context's loader reads again instead of answering from its cache.
 */
import { describe, expect, it } from "vitest";
import SchemaBuilder from "@pothos/core";
import DataloaderPlugin from "@pothos/plugin-dataloader";
import { createYoga } from "graphql-yoga";
import { releaseLoaders } from "../../src/http/graphql/release-loaders.ts";

interface Item {
  id: string;
}

function server(plugins: (typeof releaseLoaders)[]) {
  const builder = new SchemaBuilder<{ Context: object }>({ plugins: [DataloaderPlugin] });
  const loads: string[][] = [];
  const ItemRef = builder.loadableObject("Item", {
    load: async (ids: string[]) => {
      loads.push(ids);
      return ids.map((id) => ({ id }));
    },
    cacheResolved: (item: Item) => item.id,
    fields: (t) => ({ id: t.exposeID("id") }),
  });
  // The context the resolvers were given (Yoga's, which it builds per operation).
  let context: object = {};
  builder.queryType({
    fields: (t) => ({
      items: t.field({
        type: [ItemRef],
        resolve: (_root, _args, ctx) => {
          context = ctx;
          return [{ id: "a" }, { id: "b" }];
        },
      }),
    }),
  });
  const yoga = createYoga({ schema: builder.toSchema(), plugins, logging: false });
  const ask = async () =>
    (
      await yoga.fetch("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ items { id } }" }),
      })
    ).json();
  return { ask, loads, loaderOf: () => ItemRef.getDataloader(context) };
}

describe("releaseLoaders", () => {
  it("empties the loaders a query primed once its answer is made", async () => {
    const s = server([releaseLoaders]);
    expect(await s.ask()).toEqual({ data: { items: [{ id: "a" }, { id: "b" }] } });
    await s.loaderOf().load("a");
    expect(s.loads).toEqual([["a"]]); // primed by the query, emptied after it: read again
  });

  it("without it, the primed nodes stay in the context's loader (what the plugin prevents)", async () => {
    const s = server([]);
    await s.ask();
    await s.loaderOf().load("a");
    expect(s.loads).toEqual([]);
  });
});
