/**
 * API keys (owners): create one by name (its secret shown once), the list with prefix, creation and
 * last use, revoke after a confirmation. Keys are for integrations (REST, GraphQL, MCP); people use
 * their session. The names "Key name" and "Create key" are the contract's (docs/contract/decisions.md).
 */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import type { ApiKeysSectionPaginationQuery } from "../../__generated__/ApiKeysSectionPaginationQuery.graphql";
import type { ApiKeysSection_query$key } from "../../__generated__/ApiKeysSection_query.graphql";
import type { ApiKeysSectionCreateMutation } from "../../__generated__/ApiKeysSectionCreateMutation.graphql";
import type { ApiKeysSectionRevokeMutation } from "../../__generated__/ApiKeysSectionRevokeMutation.graphql";
import { Badge } from "../../components/Badge";
import { ConfirmButton } from "../../components/ConfirmButton";
import { EmptyState } from "../../components/EmptyState";
import { ErrorMessage } from "../../components/ErrorMessage";
import { Time } from "../../components/Time";
import { useMutationAsync } from "../../relay/mutations";
import { OwnersOnly } from "./OwnersOnly";
import { SettingsTable, useSettingsList } from "./SettingsTable";
import { ShownOnce } from "./ShownOnce";

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
          id
          name
          prefix
          createdAt
          lastUsedAt
          revokedAt
        }
      }
    }
  }
`;

const create = graphql`
  mutation ApiKeysSectionCreateMutation($name: String!, $connections: [ID!]!) {
    createApiKey(name: $name) {
      secret
      apiKey @appendNode(connections: $connections, edgeTypeName: "ApiKeyEdge") {
        id
        name
        prefix
        createdAt
        lastUsedAt
        revokedAt
      }
    }
  }
`;

const revoke = graphql`
  mutation ApiKeysSectionRevokeMutation($id: ID!) {
    revokeApiKey(id: $id) {
      id
      revokedAt
    }
  }
`;

export function ApiKeysSection({ isOwner }: { isOwner: boolean }) {
  return (
    <section aria-labelledby="keys-heading" className="panel">
      <h2 id="keys-heading">API keys</h2>
      <p className="muted">
        Integrations (scripts, the REST API under /api/v1, GraphQL, MCP) send a key as <code>Authorization: Bearer &lt;key&gt;</code>. A key acts as an
        owner of this workspace; at most 5 are active at a time. To try the API as yourself, open the <a href="/graphql">GraphQL explorer</a>: it
        uses your session.
      </p>
      {isOwner ? <ApiKeys /> : <OwnersOnly what="API keys" />}
    </section>
  );
}

function ApiKeys() {
  const { data, hasNext, loadNext, isLoadingNext } = useSettingsList<ApiKeysSectionPaginationQuery, ApiKeysSection_query$key>(query, fragment);
  const keys = data.apiKeys.edges.map((e) => e.node);
  const [createKey, creating] = useMutationAsync<ApiKeysSectionCreateMutation>(create);
  const [revokeKey, revoking] = useMutationAsync<ApiKeysSectionRevokeMutation>(revoke);
  const [name, setName] = useState("");
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [error, setError] = useState<{ title: string; error: unknown } | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setDone(null);
    try {
      const r = await createKey({ name: name.trim(), connections: [data.apiKeys.__id] });
      setCreated({ name: r.createApiKey.apiKey.name, secret: r.createApiKey.secret });
      setName("");
    } catch (e) {
      setError({ title: "Could not create the key", error: e });
    }
  }

  async function doRevoke(id: string, keyName: string) {
    setError(null);
    setDone(null);
    try {
      await revokeKey({ id });
      setDone(`Revoked “${keyName}”: it is refused from now on.`);
    } catch (e) {
      setError({ title: "Could not revoke the key", error: e });
    }
  }

  return (
    <>
      <form className="row settings-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="key-name">Key name</label>
          <input id="key-name" name="name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder="e.g. Reporting script" />
        </div>
        <button type="submit" className="button-primary" disabled={creating}>
          Create key
        </button>
      </form>
      {created && (
        <ShownOnce
          title={`Your new API key “${created.name}”`}
          value={created.secret}
          note="Store it where your integration reads its secrets; if it is lost, create another and revoke this one."
          onDone={() => setCreated(null)}
        />
      )}
      {error && <ErrorMessage error={error.error} title={error.title} />}
      {done && (
        <p role="status" className="notice">
          {done}
        </p>
      )}
      <SettingsTable
        label="API keys of this workspace"
        columns={["Name", "Prefix", "Created", "Last used", "Status"]}
        actions
        rows={keys}
        row={(k) => (
          <tr key={k.id}>
            <td className="cell-wrap">{k.name}</td>
            <td>
              <code>{k.prefix}…</code>
            </td>
            <td>
              <Time value={k.createdAt} />
            </td>
            <td>
              <Time value={k.lastUsedAt} fallback="Never" />
            </td>
            <td>
              {k.revokedAt ? (
                <Badge tone="danger">
                  Revoked <Time value={k.revokedAt} />
                </Badge>
              ) : (
                <Badge tone="success">Active</Badge>
              )}
            </td>
            <td>
              {!k.revokedAt && (
                <ConfirmButton
                  question={`Revoke the key “${k.name}”? Every request made with it is refused from now on; this cannot be undone.`}
                  confirmLabel="Revoke key"
                  onConfirm={() => void doRevoke(k.id, k.name)}
                  disabled={revoking}
                >
                  Revoke<span className="visually-hidden"> {k.name}</span>
                </ConfirmButton>
              )}
            </td>
          </tr>
        )}
        empty={<EmptyState title="No API keys yet.">Name one above (what will use it, e.g. “Reporting script”) and press Create key.</EmptyState>}
        paging={{ hasNext, isLoadingNext, loadNext, pageSize: 50, total: data.apiKeys.totalCount, what: "keys" }}
      />
    </>
  );
}
