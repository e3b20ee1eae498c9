/**
 * The dashboard's Relay environment keeps a connection's totalCount true by itself (web/src/relay/connections.ts
 * `countingHandlers`): a mutation with `@appendNode` or `@deleteEdge` moves the count by the edges it really
 * added or removed, with no updater of its own; a node already in the list adds nothing. Runs the dashboard's
 * compiled mutations (web/src/__generated__, written by relay-compiler) against Relay's real store, with the
 * server's answer given by the network function.
 */
import { describe, expect, it } from "vitest";
import { commitLocalUpdate, commitMutation, Environment, Network, RecordSource, Store, type GraphQLResponse } from "relay-runtime";
import { countingHandlers, removeNodes } from "../../web/src/relay/connections.js";
import CreateKey from "../../web/src/__generated__/ApiKeysSectionCreateMutation.graphql.js";
import RemoveMember from "../../web/src/__generated__/MembersSectionRemoveMutation.graphql.js";

const CONNECTION = "client:root:__Test_list_connection";

/** An environment whose network answers every operation with `answer`, and a list of `ids` counted `total`. */
function environmentWith(answer: GraphQLResponse, ids: string[], total: number, handlers = true) {
  const environment = new Environment({
    network: Network.create(async () => answer),
    store: new Store(new RecordSource()),
    ...(handlers ? { handlerProvider: countingHandlers } : {}),
  });
  commitLocalUpdate(environment, (store) => {
    const connection = store.create(CONNECTION, "ApiKeyConnection");
    connection.setValue(total, "totalCount");
    const edges = ids.map((id) => {
      const node = store.create(id, "ApiKey");
      node.setValue(id, "id");
      const edge = store.create(`${id}:edge`, "ApiKeyEdge");
      edge.setLinkedRecord(node, "node");
      return edge;
    });
    connection.setLinkedRecords(edges, "edges");
  });
  return environment;
}

const read = (environment: Environment) => {
  const connection = environment.getStore().getSource().get(CONNECTION);
  return { total: connection?.totalCount, edges: (connection?.edges as { __refs: string[] } | undefined)?.__refs.length };
};

function commit(environment: Environment, mutation: typeof CreateKey | typeof RemoveMember, variables: Record<string, unknown>) {
  return new Promise<void>((resolve, reject) =>
    commitMutation(environment, { mutation, variables, onCompleted: () => resolve(), onError: reject } as never),
  );
}

const newKey = (id: string): GraphQLResponse => ({
  data: {
    createApiKey: {
      secret: "svc_sk_x",
      apiKey: { id, name: id, prefix: "svc_sk_x", createdAt: "2026-01-01T00:00:00Z", lastUsedAt: null, revokedAt: null },
    },
  },
});

describe("connections keep their totalCount", () => {
  it("@appendNode adds one to the count, and nothing for a node already listed", async () => {
    const environment = environmentWith(newKey("key-3"), ["key-1", "key-2"], 7);
    await commit(environment, CreateKey, { name: "key-3", connections: [CONNECTION] });
    expect(read(environment)).toEqual({ total: 8, edges: 3 });

    const again = environmentWith(newKey("key-2"), ["key-1", "key-2"], 7);
    await commit(again, CreateKey, { name: "key-2", connections: [CONNECTION] });
    expect(read(again)).toEqual({ total: 7, edges: 2 });
  });

  it("@deleteEdge takes one from the count, and nothing for a node not listed", async () => {
    const environment = environmentWith({ data: { removeMember: "key-1" } }, ["key-1", "key-2"], 2);
    await commit(environment, RemoveMember, { id: "key-1", connections: [CONNECTION] });
    expect(read(environment)).toEqual({ total: 1, edges: 1 });

    const elsewhere = environmentWith({ data: { removeMember: "key-9" } }, ["key-1", "key-2"], 2);
    await commit(elsewhere, RemoveMember, { id: "key-9", connections: [CONNECTION] });
    expect(read(elsewhere)).toEqual({ total: 2, edges: 2 });
  });

  it("Relay alone moves the edges but not the count (what the handlers are for)", async () => {
    const environment = environmentWith(newKey("key-3"), ["key-1"], 1, false);
    await commit(environment, CreateKey, { name: "key-3", connections: [CONNECTION] });
    expect(read(environment)).toEqual({ total: 1, edges: 2 });
  });

  it("removeNodes takes the nodes out of the list and its count", () => {
    const environment = environmentWith({ data: {} }, ["a", "b", "c"], 10);
    commitLocalUpdate(environment, (store) => removeNodes([CONNECTION], ["a", "c", "zz"])(store as never));
    expect(read(environment)).toEqual({ total: 8, edges: 1 });
  });
});
