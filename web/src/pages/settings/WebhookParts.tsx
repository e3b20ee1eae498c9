/**
 * Pieces the webhooks list and a webhook's page share: the event names (the webhook contract's, as
 * receivers see them), the status badge, and deleting an endpoint after a confirmation.
 */
import { graphql } from "react-relay";
import type { WebhookPartsDeleteMutation } from "../../__generated__/WebhookPartsDeleteMutation.graphql";
import { Badge } from "../../components/Badge";
import { ConfirmButton } from "../../components/ConfirmButton";
import { Outcome } from "../../components/Outcome";
import { useAction } from "../../relay/action";
import { removeNodes, rootConnection } from "../../relay/connections";

type EventType =
  | "ANALYSIS_COMPLETED"
  | "ANALYSIS_FAILED"
  | "RADAR_COMPLETED"
  | "RADAR_FAILED"
  | "ACCOUNT_VIDEO_DISCOVERED"
  | "VIDEO_SPIKE"
  | "CREDITS_LOW"
  | "PLAN_LIMIT_REACHED"
  | "WEBHOOK_TEST";

/** Every event an endpoint may receive, in the contract's order, with what it means. */
export const EVENTS: { value: EventType; what: string }[] = [
  { value: "ANALYSIS_COMPLETED", what: "a video analysis finished" },
  { value: "ANALYSIS_FAILED", what: "a video analysis failed (its credits are refunded)" },
  { value: "RADAR_COMPLETED", what: "a radar search has its results" },
  { value: "RADAR_FAILED", what: "a radar search failed" },
  { value: "ACCOUNT_VIDEO_DISCOVERED", what: "a tracked account posted a new video" },
  { value: "VIDEO_SPIKE", what: "a video's views jumped" },
  { value: "CREDITS_LOW", what: "the credit balance ran low" },
  { value: "PLAN_LIMIT_REACHED", what: "the plan's video tracking limit refused an addition (at most once a day)" },
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

const removeMutation = graphql`
  mutation WebhookPartsDeleteMutation($id: ID!) {
    deleteWebhook(id: $id)
  }
`;

/** Deletes the endpoint (and its delivery log) after a confirmation, and takes it out of the list (and its count) in the store. */
export function DeleteWebhookButton({ id, url, onDeleted }: { id: string; url: string; onDeleted: () => void }) {
  const remove = useAction<WebhookPartsDeleteMutation>(removeMutation);
  async function confirm() {
    const gone = removeNodes([rootConnection("WebhooksSection_webhooks")], [id]);
    if (await remove.run({ id }, { updater: gone, failed: "Could not delete the webhook" })) onDeleted();
  }
  return (
    <>
      <ConfirmButton
        question={`Delete the webhook to ${url}? No more events are sent to it, and its delivery log is deleted too.`}
        confirmLabel="Delete webhook"
        onConfirm={() => void confirm()}
        disabled={remove.pending}
      >
        Delete<span className="visually-hidden"> the webhook to {url}</span>
      </ConfirmButton>
      <Outcome outcome={remove.outcome} />
    </>
  );
}
