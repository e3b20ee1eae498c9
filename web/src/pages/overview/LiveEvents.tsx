/**
 * The workspace's events (analyses and radar searches finishing, discovered videos, spikes, low
 * credits …) as they arrive over the `workspaceEvents` subscription, newest first. Only events that
 * happen while the page is open: the subscription has no history.
 */
import { useMemo, useState } from "react";
import { graphql, useSubscription } from "react-relay";
import type { GraphQLSubscriptionConfig } from "relay-runtime";
import type { LiveEventsSubscription, LiveEventsSubscription$data } from "../../__generated__/LiveEventsSubscription.graphql";
import { EmptyState } from "../../components/EmptyState";
import { Time } from "../../components/Time";
import { humanize } from "../../lib/format";

const subscription = graphql`
  subscription LiveEventsSubscription {
    workspaceEvents {
      id
      type
      at
      data
    }
  }
`;

type WorkspaceEvent = LiveEventsSubscription$data["workspaceEvents"];
const KEEP = 50;

/** One line about an event, from the ids and values its payload carries. */
function describe(event: WorkspaceEvent): string {
  const d = event.data as Record<string, unknown>;
  const bits = [d.query, d.username, d.error, d.totalRemaining !== undefined ? `${d.totalRemaining} credits left` : null].filter(
    (b) => typeof b === "string" || typeof b === "number",
  );
  return bits.join(" · ");
}

export function LiveEvents() {
  const [events, setEvents] = useState<WorkspaceEvent[]>([]);
  const config = useMemo<GraphQLSubscriptionConfig<LiveEventsSubscription>>(
    () => ({
      subscription,
      variables: {},
      onNext: (payload) => {
        const event = payload?.workspaceEvents;
        // Events are deduplicated by id: a reconnect may deliver one twice.
        if (event) setEvents((list) => (list.some((e) => e.id === event.id) ? list : [event, ...list].slice(0, KEEP)));
      },
    }),
    [],
  );
  useSubscription(config);

  // The live region exists before the first event, so screen readers announce that one too.
  return (
    <div aria-live="polite">
      {events.length === 0 ? (
        <EmptyState title="Waiting for events.">
          Events appear here as they happen: an analysis or radar search finishing, a spike in views, credits running low. Start an analysis
          from a video's page to see one.
        </EmptyState>
      ) : (
        <ol className="event-list">
          {events.map((e) => (
            <li key={e.id}>
              <span className="event-type">{humanize(e.type)}</span> <span className="muted">{describe(e)}</span> <Time value={e.at} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
