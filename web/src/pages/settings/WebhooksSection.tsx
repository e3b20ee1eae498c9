/**
 * Webhooks (owners): create an endpoint with its URL, a description and the events it receives (the
 * signing secret shown once), the list with status, and each endpoint's page (./WebhookSection.tsx)
 * with its delivery log and a test to send.
 */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { WebhooksSectionPaginationQuery } from "../../__generated__/WebhooksSectionPaginationQuery.graphql";
import type { WebhooksSection_query$data, WebhooksSection_query$key } from "../../__generated__/WebhooksSection_query.graphql";
import type { WebhooksSectionCreateMutation, WorkspaceEventType } from "../../__generated__/WebhooksSectionCreateMutation.graphql";
import { paths } from "../../lib/paths";
import { actionsColumn, DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { Time } from "../../components/Time";
import { refused, useAction, type ActionOutcome } from "../../relay/action";
import { OwnersOnly } from "./OwnersOnly";
import { ShownOnce } from "./ShownOnce";
import { DeleteWebhookButton, EVENTS, eventName, WebhookStatusBadge } from "./WebhookParts";
import { Submit } from "../../components/Submit";
import { Panel } from "../../components/Panel";
import { useRouteConnection } from "../../relay/paged";

const query = graphql`
  query WebhooksSectionQuery {
    ...WebhooksSection_query
  }
`;

const fragment = graphql`
  fragment WebhooksSection_query on Query
  @refetchable(queryName: "WebhooksSectionPaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 50 }, after: { type: "String" }) {
    webhooks(first: $first, after: $after) @connection(key: "WebhooksSection_webhooks") {
      __id
      totalCount
      edges {
        node {
          ...WebhooksSection_webhook @relay(mask: false)
        }
      }
    }
  }
`;

// The fields of a webhook row; the create mutation asks for the same, so the new row is complete at once.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- relay-compiler only needs the tag (spread with @relay(mask: false))
graphql`
  fragment WebhooksSection_webhook on Webhook {
    id
    uuid
    url
    description
    events
    status
    createdAt
  }
`;

const createMutation = graphql`
  mutation WebhooksSectionCreateMutation($url: String!, $description: String, $events: [WorkspaceEventType!]!, $connections: [ID!]!) {
    createWebhook(url: $url, description: $description, events: $events) {
      secret
      webhook @prependNode(connections: $connections, edgeTypeName: "WebhookEdge") {
        ...WebhooksSection_webhook @relay(mask: false)
      }
    }
  }
`;

export function WebhooksSection({ isOwner }: { isOwner: boolean }) {
  return (
    <Panel title="Webhooks">
      <p className="muted">
        The service POSTs the events you choose to your URL, signed with the endpoint's secret (Standard Webhooks: <code>webhook-id</code>,{" "}
        <code>webhook-timestamp</code>, <code>webhook-signature</code>). Failed deliveries are retried.
      </p>
      {isOwner ? <Webhooks /> : <OwnersOnly what="webhooks" />}
    </Panel>
  );
}

type Hook = WebhooksSection_query$data["webhooks"]["edges"][number]["node"];

function Webhooks() {
  const { data, rows, paging } = useRouteConnection<WebhooksSectionPaginationQuery, WebhooksSection_query$key, Hook>(
    query,
    fragment,
    (d) => d.webhooks,
    "webhooks",
  );
  const [created, setCreated] = useState<{ uuid: string; secret: string } | null>(null);
  const [deleted, setDeleted] = useState<string | null>(null);
  const columns: Column<Hook>[] = [
    {
      id: "url",
      header: "URL",
      className: "cell-wrap",
      cell: (h) => <Link to={paths.settingsSection(`webhooks/${h.uuid}`)}>{h.url}</Link>,
    },
    { id: "description", header: "Description", className: "cell-wrap", cell: (h) => h.description || <span className="muted">—</span> },
    { id: "events", header: "Events", className: "cell-wrap", cell: (h) => h.events.map(eventName).join(", ") },
    { id: "status", header: "Status", cell: (h) => <WebhookStatusBadge status={h.status} /> },
    { id: "created", header: "Created", cell: (h) => <Time value={h.createdAt} /> },
    actionsColumn((h) => (
      <div className="row">
        <Link to={paths.settingsSection(`webhooks/${h.uuid}`)}>
          Delivery log<span className="visually-hidden"> of {h.url}</span>
        </Link>
        <DeleteWebhookButton id={h.id} url={h.url} onDeleted={() => setDeleted(`Deleted the webhook to ${h.url}.`)} />
      </div>
    )),
  ];
  return (
    <>
      <CreateWebhookForm
        connection={data.webhooks.__id}
        onCreated={(c) => {
          setDeleted(null);
          setCreated(c);
        }}
      />
      {created && (
        <ShownOnce
          title="The new webhook's signing secret"
          value={created.secret}
          note="Your receiver checks each request's signature with it."
          onDone={() => setCreated(null)}
        />
      )}
      <Outcome outcome={deleted ? { ok: true, message: deleted } : null} />
      <DataTable
        label="Webhook endpoints of this workspace"
        columns={columns}
        rows={rows}
        empty={
          <EmptyState title="No webhooks yet.">
            Enter the https URL of your receiver above, choose its events and press Create webhook.
          </EmptyState>
        }
        paging={paging}
      />
    </>
  );
}

function CreateWebhookForm({ connection, onCreated }: { connection: string; onCreated: (c: { uuid: string; secret: string }) => void }) {
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<Set<WorkspaceEventType>>(new Set());
  const [missing, setMissing] = useState<ActionOutcome | null>(null);
  const create = useAction<WebhooksSectionCreateMutation>(createMutation);

  function toggle(event: WorkspaceEventType, on: boolean) {
    const next = new Set(events);
    if (on) next.add(event);
    else next.delete(event);
    setEvents(next);
    setMissing(null);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    create.clear();
    if (events.size === 0) return setMissing(refused("Not created", "Choose at least one event."));
    const connections = [connection];
    const r = await create.run(
      {
        url: url.trim(),
        description: description.trim() || null,
        events: EVENTS.map((x) => x.value).filter((v) => events.has(v)),
        connections,
      },
      { failed: "Could not create the webhook" },
    );
    if (!r) return;
    onCreated({ uuid: r.createWebhook.webhook.uuid, secret: r.createWebhook.secret });
    setUrl("");
    setDescription("");
    setEvents(new Set());
  }

  return (
    <form className="settings-form stack" onSubmit={submit}>
      <h3>New webhook</h3>
      <div className="row">
        <div className="field grow">
          <label htmlFor="webhook-url">Endpoint URL</label>
          <input
            id="webhook-url"
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            required
            placeholder="https://hooks.example.com/video-service"
          />
        </div>
        <div className="field grow">
          <label htmlFor="webhook-description">Description</label>
          <input
            id="webhook-description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            maxLength={500}
            placeholder="optional, for people"
          />
        </div>
      </div>
      <fieldset className="checkboxes">
        <legend>Events</legend>
        {EVENTS.map((ev) => (
          <label key={ev.value} className="checkbox">
            <input type="checkbox" checked={events.has(ev.value)} onChange={(e) => toggle(ev.value, e.target.checked)} />
            <span>
              <code>{eventName(ev.value)}</code> <span className="muted">{ev.what}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <Outcome outcome={missing} />
      <div className="row">
        <Submit action={create}>Create webhook</Submit>
      </div>
      <Outcome outcome={create.outcome} />
    </form>
  );
}
