/**
 * Pieces the webhooks list and a webhook's page share: the event names (the webhook contract's, as
 * receivers see them), the status badge, and deleting an endpoint after a confirmation.
 */
import { useState } from "react";
import { graphql } from "react-relay";
import { ConnectionHandler, ROOT_ID } from "relay-runtime";
import type { WebhookPartsDeleteMutation } from "../../__generated__/WebhookPartsDeleteMutation.graphql";
import { Badge } from "../../components/Badge";
import { ConfirmButton } from "../../components/ConfirmButton";
import { ErrorMessage } from "../../components/ErrorMessage";
import { useMutationAsync } from "../../relay/mutations";

type EventType = "ANALYSIS_COMPLETED" | "ANALYSIS_FAILED" | "RADAR_COMPLETED" | "RADAR_FAILED" | "ACCOUNT_VIDEO_DISCOVERED" | "VIDEO_SPIKE" | "CREDITS_LOW" | "WEBHOOK_TEST";

/** Every event an endpoint may receive, in the contract's order, with what it means. */
export const EVENTS: { value: EventType; what: string }[] = [
  { value: "ANALYSIS_COMPLETED", what: "a video analysis finished" },
  { value: "ANALYSIS_FAILED", what: "a video analysis failed (its credits are refunded)" },
  { value: "RADAR_COMPLETED", what: "a radar search has its results" },
  { value: "RADAR_FAILED", what: "a radar search failed" },
  { value: "ACCOUNT_VIDEO_DISCOVERED", what: "a tracked account posted a new video" },
  { value: "VIDEO_SPIKE", what: "a video's views jumped" },
  { value: "CREDITS_LOW", what: "the credit balance ran low" },
  { value: "WEBHOOK_TEST", what: "a test sent from this page" },
];

/** ANALYSIS_COMPLETED → analysis.completed, the name in the webhook body's `type`. */
export function eventName(value: string): string {
  const lower = value.toLowerCase();
  const at = lower.indexOf("_");
  return at < 0 ? lower : `${lower.slice(0, at)}.${lower.slice(at + 1)}`;
}

export function WebhookStatusBadge({ status, title }: { status: string; title?: string }) {
  return status === "ACTIVE" ? (
    <Badge tone="success">Active</Badge>
  ) : (
    <Badge tone="danger" title={title}>
      Disabled
    </Badge>
  );
}

const remove = graphql`
  mutation WebhookPartsDeleteMutation($id: ID!) {
    deleteWebhook(id: $id)
  }
`;

/** Deletes the endpoint (and its delivery log) after a confirmation, and takes it out of the list in the store. */
export function DeleteWebhookButton({ id, url, onDeleted }: { id: string; url: string; onDeleted: () => void }) {
  const [deleteWebhook, deleting] = useMutationAsync<WebhookPartsDeleteMutation>(remove);
  const [error, setError] = useState<unknown>(null);
  async function confirm() {
    setError(null);
    try {
      await deleteWebhook(
        { id },
        {
          updater: (store) => {
            const list = store.get(ROOT_ID);
            const connection = list && ConnectionHandler.getConnection(list, "WebhooksSection_webhooks");
            if (connection) ConnectionHandler.deleteNode(connection, id);
          },
        },
      );
      onDeleted();
    } catch (e) {
      setError(e);
    }
  }
  return (
    <>
      <ConfirmButton
        question={`Delete the webhook to ${url}? No more events are sent to it, and its delivery log is deleted too.`}
        confirmLabel="Delete webhook"
        onConfirm={() => void confirm()}
        disabled={deleting}
      >
        Delete<span className="visually-hidden"> the webhook to {url}</span>
      </ConfirmButton>
      {error !== null && <ErrorMessage error={error} title="Could not delete the webhook" />}
    </>
  );
}
