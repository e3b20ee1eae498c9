/**
 * Notifications: what the person's alert rules showed in the dashboard for this workspace (spikes,
 * new videos of tracked accounts, analyses and radar searches finished, credits low), newest first;
 * each opens its page and can be marked read, or all at once. The bell in the header counts the
 * unread ones, live. Which rules show here, and which also mail, is chosen in Settings → Alerts.
 */
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { NotificationsPagePaginationQuery } from "../../__generated__/NotificationsPagePaginationQuery.graphql";
import type { NotificationsPage_query$data, NotificationsPage_query$key } from "../../__generated__/NotificationsPage_query.graphql";
import type { NotificationsPageMarkMutation } from "../../__generated__/NotificationsPageMarkMutation.graphql";
import { paths } from "../../lib/paths";
import { Badge } from "../../components/Badge";
import { actionsColumn, DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { PageHeader } from "../../components/PageHeader";
import { Time } from "../../components/Time";
import { useAction } from "../../relay/action";
import { useRouteConnection } from "../../relay/paged";

const query = graphql`
  query NotificationsPageQuery {
    ...NotificationsPage_query
  }
`;

const fragment = graphql`
  fragment NotificationsPage_query on Query
  @refetchable(queryName: "NotificationsPagePaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 30 }, after: { type: "String" }) {
    notifications(first: $first, after: $after) @connection(key: "NotificationsPage_notifications") {
      totalCount
      edges {
        node {
          id
          rule
          title
          path
          createdAt
          readAt
        }
      }
    }
  }
`;

const markMutation = graphql`
  mutation NotificationsPageMarkMutation($ids: [ID!], $all: Boolean) {
    markNotificationsRead(ids: $ids, all: $all) {
      marked
      unreadCount
    }
  }
`;

type Notification = NotificationsPage_query$data["notifications"]["edges"][number]["node"];

export default function NotificationsPage() {
  const { rows, paging, refetch } = useRouteConnection<NotificationsPagePaginationQuery, NotificationsPage_query$key, Notification>(
    query,
    fragment,
    (d) => d.notifications,
    "notifications",
  );
  const mark = useAction<NotificationsPageMarkMutation>(markMutation);
  const unread = rows.filter((n) => !n.readAt).length;

  async function markRead(variables: { ids?: string[]; all?: boolean }) {
    const done = await mark.run(variables, {
      done: (r) => `Marked ${r.markNotificationsRead.marked} read.`,
      failed: "Could not mark them read",
    });
    if (done) refetch({}, { fetchPolicy: "network-only" });
  }

  const columns: Column<Notification>[] = [
    {
      id: "what",
      header: "What",
      className: "cell-wrap",
      cell: (n) => (
        <>
          <Link to={n.path}>{n.title}</Link> {!n.readAt && <Badge tone="info">Unread</Badge>}
        </>
      ),
    },
    { id: "when", header: "When", cell: (n) => <Time value={n.createdAt} /> },
    actionsColumn((n) =>
      n.readAt ? (
        <span className="muted">Read</span>
      ) : (
        <button type="button" onClick={() => void markRead({ ids: [n.id] })} disabled={mark.pending}>
          Mark read<span className="visually-hidden"> {n.title}</span>
        </button>
      ),
    ),
  ];

  return (
    <>
      <PageHeader title="Notifications">
        <button type="button" onClick={() => void markRead({ all: true })} disabled={mark.pending || unread === 0}>
          Mark all read
        </button>
      </PageHeader>
      <p className="muted">
        What your alert rules show in the dashboard for this workspace. Choose the rules, and which also come by mail, in{" "}
        <Link to={paths.settingsSection("alerts")}>Settings → Alerts</Link>.
      </p>
      <Outcome outcome={mark.outcome} />
      <DataTable
        label="Your notifications, newest first"
        columns={columns}
        rows={rows}
        empty={
          <EmptyState title="No notifications yet.">
            Spikes, new videos of tracked accounts, finished analyses and radar searches show here as they happen.
          </EmptyState>
        }
        paging={paging}
      />
    </>
  );
}
