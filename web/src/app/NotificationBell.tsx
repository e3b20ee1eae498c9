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
  const label = count === 0 ? "Notifications, none unread" : `Notifications, ${count} unread`;
  return (
    <NavLink to={paths.notifications()} className="bell" aria-label={label} title={label}>
      <span aria-hidden="true">🔔</span>
      <span className="bell-text">Notifications</span>
      {count > 0 && (
        <span className="bell-count" aria-hidden="true" data-testid="unread-count">
          {count > 99 ? "99+" : count}
        </span>
      )}
    </NavLink>
  );
}
