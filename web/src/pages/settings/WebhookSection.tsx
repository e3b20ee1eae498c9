/**
 * One webhook endpoint (/settings/webhooks/<uuid>, owners): what it receives, its status, "Send a
 * test", and its delivery log (status, attempts, the receiver's answer). While a delivery is pending
 * the log is read again every few seconds, so a test's outcome appears without a reload.
 */
import { startTransition, useEffect } from "react";
import { graphql } from "react-relay";
import { Link, useNavigate } from "react-router";
import type { WebhookSectionDeliveriesQuery } from "../../__generated__/WebhookSectionDeliveriesQuery.graphql";
import type { WebhookSectionQuery } from "../../__generated__/WebhookSectionQuery.graphql";
import type { WebhookSection_deliveries$data, WebhookSection_deliveries$key } from "../../__generated__/WebhookSection_deliveries.graphql";
import type { WebhookSectionTestMutation } from "../../__generated__/WebhookSectionTestMutation.graphql";
import { paths } from "../../lib/paths";
import { Badge } from "../../components/Badge";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { Time } from "../../components/Time";
import { useAction } from "../../relay/action";
import { usePagedConnection } from "../../relay/paged";
import { useRouteQuery } from "../../relay/route-query";
import { OwnersOnly } from "./OwnersOnly";
import { DeleteWebhookButton, eventName, WebhookStatusBadge } from "./WebhookParts";

const query = graphql`
  query WebhookSectionQuery($id: ID!) {
    webhook(id: $id) {
      id
      url
      description
      events
      status
      disabledReason
      failingSince
      createdAt
      ...WebhookSection_deliveries
    }
  }
`;

const deliveriesFragment = graphql`
  fragment WebhookSection_deliveries on Webhook
  @refetchable(queryName: "WebhookSectionDeliveriesQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 20 }, after: { type: "String" }) {
    deliveries(first: $first, after: $after) @connection(key: "WebhookSection_deliveries") {
      __id
      totalCount
      edges {
        node {
          ...WebhookSection_delivery @relay(mask: false)
        }
      }
    }
  }
`;

// The fields of a delivery row; the test mutation asks for the same, so its row is complete at once.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- relay-compiler only needs the tag (spread with @relay(mask: false))
graphql`
  fragment WebhookSection_delivery on WebhookDelivery {
    id
    uuid
    event
    status
    attempts
    responseStatus
    lastError
    createdAt
    deliveredAt
    nextAttemptAt
  }
`;

const sendTest = graphql`
  mutation WebhookSectionTestMutation($id: ID!, $connections: [ID!]!) {
    sendWebhookTest(id: $id) @prependNode(connections: $connections, edgeTypeName: "WebhookDeliveriesEdge") {
      ...WebhookSection_delivery @relay(mask: false)
      webhook {
        id
        status
        disabledReason
        failingSince
      }
    }
  }
`;

/** How often the log is read again while a delivery is pending. */
const POLL_MS = 2000;

export function WebhookSection({ isOwner }: { isOwner: boolean }) {
  if (!isOwner) return <OwnersOnly what="webhooks" />;
  return <Webhook />;
}

function Webhook() {
  const navigate = useNavigate();
  const { webhook } = useRouteQuery<WebhookSectionQuery>(query);
  return (
    <section aria-labelledby="webhook-heading" className="panel">
      <p className="breadcrumb">
        <Link to={paths.settingsSection("webhooks")}>← All webhooks</Link>
      </p>
      <h2 id="webhook-heading" className="cell-wrap">
        Webhook to {webhook.url}
      </h2>
      <dl className="facts">
        <div>
          <dt>Status</dt>
          <dd>
            <WebhookStatusBadge status={webhook.status} title={webhook.disabledReason ?? undefined} />
            {webhook.disabledReason && <span className="muted"> {webhook.disabledReason} A successful test enables it again.</span>}
            {webhook.failingSince && (
              <span className="muted">
                {" "}
                Failing since <Time value={webhook.failingSince} />.
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>Description</dt>
          <dd>{webhook.description || "—"}</dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd>{webhook.events.map(eventName).join(", ")}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <Time value={webhook.createdAt} />
          </dd>
        </div>
      </dl>
      <Deliveries webhook={webhook} webhookId={webhook.id} />
      <h3>Delete</h3>
      <p className="muted">Deleting stops every delivery to this URL at once and deletes its log.</p>
      <DeleteWebhookButton
        id={webhook.id}
        url={webhook.url}
        onDeleted={() => navigate(paths.settingsSection("webhooks"), { replace: true })}
      />
    </section>
  );
}

type Delivery = WebhookSection_deliveries$data["deliveries"]["edges"][number]["node"];

const COLUMNS: Column<Delivery>[] = [
  { id: "event", header: "Event", cell: (d) => <code>{eventName(d.event)}</code> },
  {
    id: "status",
    header: "Status",
    cell: (d) => (
      <Badge tone={d.status === "DELIVERED" ? "success" : d.status === "FAILED" ? "danger" : "info"}>
        {d.status === "DELIVERED" ? "Delivered" : d.status === "FAILED" ? "Failed" : "Pending"}
      </Badge>
    ),
  },
  { id: "attempts", header: "Attempts", cell: (d) => d.attempts },
  {
    id: "response",
    header: "Response",
    className: "cell-wrap",
    cell: (d) => (
      <>
        {d.responseStatus !== null && d.responseStatus !== undefined ? (
          <>HTTP {d.responseStatus}</>
        ) : (
          !d.lastError && <span className="muted">—</span>
        )}
        {d.lastError && <span className="muted"> {d.lastError}</span>}
      </>
    ),
  },
  { id: "created", header: "Created", cell: (d) => <Time value={d.createdAt} /> },
  {
    id: "next",
    header: "Delivered or next attempt",
    cell: (d) =>
      d.deliveredAt ? (
        <Time value={d.deliveredAt} />
      ) : d.nextAttemptAt ? (
        <>
          next <Time value={d.nextAttemptAt} />
        </>
      ) : (
        "—"
      ),
  },
];

function Deliveries({ webhook, webhookId }: { webhook: WebhookSection_deliveries$key; webhookId: string }) {
  const { data, rows, paging, refetch } = usePagedConnection<WebhookSectionDeliveriesQuery, WebhookSection_deliveries$key, Delivery>(
    deliveriesFragment,
    webhook,
    (d) => d.deliveries,
    "deliveries",
  );
  const test = useAction<WebhookSectionTestMutation>(sendTest);
  const pending = rows.some((r) => r.status === "PENDING");

  useEffect(() => {
    if (!pending) return;
    // In a transition: the rows stay on screen while the next read is on its way (no loading flash).
    const timer = setTimeout(() => startTransition(() => void refetch({}, { fetchPolicy: "network-only" })), POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, data, refetch]);

  function send() {
    const connections = [data.deliveries.__id];
    void test.run(
      { id: webhookId, connections },
      {
        done: () => "Test event sent: its delivery shows below as it happens.",
        failed: "Could not send a test",
      },
    );
  }

  return (
    <>
      <div className="row spread">
        <h3>Delivery log</h3>
        <button type="button" className="button-primary" onClick={send} disabled={test.pending}>
          Send a test
        </button>
      </div>
      <Outcome outcome={test.outcome} />
      <DataTable
        label="Deliveries to this endpoint, newest first"
        className="deliveries"
        columns={COLUMNS}
        rows={rows}
        rowProps={(d) => ({ "data-status": d.status })}
        empty={
          <EmptyState title="Nothing delivered yet.">
            Press Send a test to POST a webhook.test event to the URL now, or wait for an event you chose.
          </EmptyState>
        }
        paging={paging}
      />
    </>
  );
}
