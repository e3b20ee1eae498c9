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
import { paths } from "./paths";

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
      <span aria-hidden="true">🔔</span>
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
