/**
 * The bell in the header: a link to the notifications page with the signed-in person's unread
 * count, read with the shell and then kept live by the `notificationsChanged` subscription (its
 * state at once, then after each new notification or mark read, from any tab or process).
 */
import { useMemo, useState } from "react";
import { graphql, useSubscription } from "react-relay";
import { NavLink } from "react-router";
import type { GraphQLSubscriptionConfig } from "relay-runtime";
import type { NotificationBellSubscription } from "../__generated__/NotificationBellSubscription.graphql";
import { paths } from "../lib/paths";

const subscription = graphql`
  subscription NotificationBellSubscription {
    notificationsChanged {
      unreadCount
    }
  }
`;

export function NotificationBell({ initial }: { initial: number }) {
  const [live, setLive] = useState<number | null>(null);
  const config = useMemo<GraphQLSubscriptionConfig<NotificationBellSubscription>>(
    () => ({
      subscription,
      variables: {},
      onNext: (payload) => {
        if (payload) setLive(payload.notificationsChanged.unreadCount);
      },
    }),
    [],
  );
  useSubscription(config);
  const count = live ?? initial;
  // The name is the link's own text ("Notifications, 2 unread"): the word (hidden on phones), the count in words for
  // screen readers, and the badge for the eye.
  return (
    <NavLink to={paths.notifications()} className="bell">
      {/* An inline bell, not the emoji: a machine without an emoji font draws that as an empty box. */}
      <svg
        className="bell-icon"
        aria-hidden="true"
        viewBox="0 0 24 24"
        width="18"
        height="18"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      <span className="bell-text">Notifications</span>
      <span className="visually-hidden">{count === 0 ? ", none unread" : `, ${count} unread`}</span>
      {count > 0 && (
        <span className="bell-count" aria-hidden="true">
          {count > 99 ? "99+" : count}
        </span>
      )}
    </NavLink>
  );
}
