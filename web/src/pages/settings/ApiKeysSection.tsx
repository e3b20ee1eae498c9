/**
 * API keys (owners): create one by name (its secret shown once), the list with prefix, creation and
 * last use, revoke after a confirmation. Keys are for integrations (REST, GraphQL, MCP); people use
 * their session. The names "Key name" and "Create key" are the contract's (docs/contract/decisions.md).
 */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import type { ApiKeysSectionPaginationQuery } from "../../__generated__/ApiKeysSectionPaginationQuery.graphql";
import type { ApiKeysSection_query$data, ApiKeysSection_query$key } from "../../__generated__/ApiKeysSection_query.graphql";
import type { ApiKeysSectionCreateMutation } from "../../__generated__/ApiKeysSectionCreateMutation.graphql";
import type { ApiKeysSectionRevokeMutation } from "../../__generated__/ApiKeysSectionRevokeMutation.graphql";
import { Badge } from "../../components/Badge";
import { ConfirmButton } from "../../components/ConfirmButton";
import { actionsColumn, DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { Time } from "../../components/Time";
import { useAction } from "../../relay/action";
import { OwnersOnly } from "./OwnersOnly";
import { ShownOnce } from "./ShownOnce";
import { Submit } from "../../components/Submit";
import { Panel } from "../../components/Panel";
import { useRouteConnection } from "../../relay/paged";

const query = graphql`
  query ApiKeysSectionQuery {
    ...ApiKeysSection_query
  }
`;

const fragment = graphql`
  fragment ApiKeysSection_query on Query
  @refetchable(queryName: "ApiKeysSectionPaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 50 }, after: { type: "String" }) {
    apiKeys(first: $first, after: $after) @connection(key: "ApiKeysSection_apiKeys") {
      __id
      totalCount
      edges {
        node {
          ...ApiKeysSection_key @relay(mask: false)
        }
      }
    }
  }
`;

// The fields of a key row; the create mutation asks for the same, so the new row is complete at once.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- relay-compiler only needs the tag (spread with @relay(mask: false))
graphql`
  fragment ApiKeysSection_key on ApiKey {
    id
    name
    prefix
    createdAt
    lastUsedAt
    revokedAt
  }
`;

const createMutation = graphql`
  mutation ApiKeysSectionCreateMutation($name: String!, $connections: [ID!]!) {
    createApiKey(name: $name) {
      secret
      apiKey @appendNode(connections: $connections, edgeTypeName: "ApiKeyEdge") {
        ...ApiKeysSection_key @relay(mask: false)
      }
    }
  }
`;

const revokeMutation = graphql`
  mutation ApiKeysSectionRevokeMutation($id: ID!) {
    revokeApiKey(id: $id) {
      id
      revokedAt
    }
  }
`;

export function ApiKeysSection({ isOwner }: { isOwner: boolean }) {
  return (
    <Panel title="API keys">
      <p className="muted">
        Integrations (scripts, the REST API under /api/v1, GraphQL, MCP) send a key as <code>Authorization: Bearer &lt;key&gt;</code>. A key
        acts as an owner of this workspace; at most 5 are active at a time. To try the API as yourself, open the{" "}
        <a href="/graphql">GraphQL explorer</a>: it uses your session.
      </p>
      {isOwner ? <ApiKeys /> : <OwnersOnly what="API keys" />}
    </Panel>
  );
}

type Key = ApiKeysSection_query$data["apiKeys"]["edges"][number]["node"];

function ApiKeys() {
  const { data, rows, paging } = useRouteConnection<ApiKeysSectionPaginationQuery, ApiKeysSection_query$key, Key>(
    query,
    fragment,
    (d) => d.apiKeys,
    "keys",
  );
  const create = useAction<ApiKeysSectionCreateMutation>(createMutation);
  const revoke = useAction<ApiKeysSectionRevokeMutation>(revokeMutation);
  const [name, setName] = useState("");
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    revoke.clear();
    const connections = [data.apiKeys.__id];
    const r = await create.run({ name: name.trim(), connections }, { failed: "Could not create the key" });
    if (!r) return;
    setCreated({ name: r.createApiKey.apiKey.name, secret: r.createApiKey.secret });
    setName("");
  }

  function doRevoke(k: Key) {
    create.clear();
    // Shown revoked at once; back to active if the server refuses.
    void revoke.run(
      { id: k.id },
      {
        optimisticResponse: { revokeApiKey: { id: k.id, revokedAt: new Date().toISOString() } },
        done: () => `Revoked “${k.name}”: it is refused from now on.`,
        failed: "Could not revoke the key",
      },
    );
  }

  const columns: Column<Key>[] = [
    { id: "name", header: "Name", className: "cell-wrap", cell: (k) => k.name },
    { id: "prefix", header: "Prefix", cell: (k) => <code>{k.prefix}…</code> },
    { id: "created", header: "Created", cell: (k) => <Time value={k.createdAt} /> },
    { id: "used", header: "Last used", cell: (k) => <Time value={k.lastUsedAt} fallback="Never" /> },
    {
      id: "status",
      header: "Status",
      cell: (k) =>
        k.revokedAt ? (
          <Badge tone="danger">
            Revoked <Time value={k.revokedAt} />
          </Badge>
        ) : (
          <Badge tone="success">Active</Badge>
        ),
    },
    actionsColumn(
      (k) =>
        !k.revokedAt && (
          <ConfirmButton
            question={`Revoke the key “${k.name}”? Every request made with it is refused from now on; this cannot be undone.`}
            confirmLabel="Revoke key"
            onConfirm={() => doRevoke(k)}
            disabled={revoke.pending}
          >
            Revoke<span className="visually-hidden"> {k.name}</span>
          </ConfirmButton>
        ),
    ),
  ];

  return (
    <>
      <form className="row settings-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="key-name">Key name</label>
          <input
            id="key-name"
            name="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={100}
            placeholder="e.g. Reporting script"
          />
        </div>
        <Submit action={create}>Create key</Submit>
      </form>
      {created && (
        <ShownOnce
          title={`Your new API key “${created.name}”`}
          value={created.secret}
          note="Store it where your integration reads its secrets; if it is lost, create another and revoke this one."
          onDone={() => setCreated(null)}
        />
      )}
      <Outcome outcome={create.outcome} />
      <Outcome outcome={revoke.outcome} />
      <DataTable
        label="API keys of this workspace"
        columns={columns}
        rows={rows}
        empty={
          <EmptyState title="No API keys yet.">Name one above (what will use it, e.g. “Reporting script”) and press Create key.</EmptyState>
        }
        paging={paging}
      />
    </>
  );
}
