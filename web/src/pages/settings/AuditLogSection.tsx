/**
 * The audit log (owners): who did what and when in this workspace (keys, webhooks, members,
 * invitations, sign-ins, sessions), newest first, with the client's address.
 */
import { graphql } from "react-relay";
import type { AuditLogSectionPaginationQuery } from "../../__generated__/AuditLogSectionPaginationQuery.graphql";
import type { AuditLogSection_query$data, AuditLogSection_query$key } from "../../__generated__/AuditLogSection_query.graphql";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Time } from "../../components/Time";
import { OwnersOnly } from "./OwnersOnly";
import { Panel } from "../../components/Panel";
import { useRouteConnection } from "../../relay/paged";

const query = graphql`
  query AuditLogSectionQuery {
    ...AuditLogSection_query
  }
`;

const fragment = graphql`
  fragment AuditLogSection_query on Query
  @refetchable(queryName: "AuditLogSectionPaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 50 }, after: { type: "String" }) {
    auditLog(first: $first, after: $after) @connection(key: "AuditLogSection_auditLog") {
      totalCount
      edges {
        node {
          id
          at
          action
          target
          ipAddress
          actor {
            kind
            label
          }
        }
      }
    }
  }
`;

/** `api_key.created` → "API key created". */
function actionName(action: string): string {
  const words = action.replace("api_key", "API key").replace(/[._]/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ACTOR_KINDS: Record<string, string> = { USER: "person", API_KEY: "API key", SYSTEM: "system" };

export function AuditLogSection({ isOwner }: { isOwner: boolean }) {
  return <Panel title="Audit log">{isOwner ? <AuditLog /> : <OwnersOnly what="the audit log" />}</Panel>;
}

type Entry = AuditLogSection_query$data["auditLog"]["edges"][number]["node"];

const COLUMNS: Column<Entry>[] = [
  { id: "when", header: "When", cell: (e) => <Time value={e.at} /> },
  {
    id: "who",
    header: "Who",
    className: "cell-wrap",
    cell: (e) => (
      <>
        {e.actor.label} <span className="muted">({ACTOR_KINDS[e.actor.kind] ?? e.actor.kind})</span>
      </>
    ),
  },
  { id: "action", header: "Action", cell: (e) => actionName(e.action) },
  { id: "target", header: "On", className: "cell-wrap", cell: (e) => e.target ?? "—" },
  { id: "ip", header: "IP address", cell: (e) => e.ipAddress ?? "—" },
];

function AuditLog() {
  const { rows, paging } = useRouteConnection<AuditLogSectionPaginationQuery, AuditLogSection_query$key, Entry>(
    query,
    fragment,
    (d) => d.auditLog,
    "entries",
  );
  return (
    <DataTable
      label="Recorded actions, newest first"
      columns={COLUMNS}
      rows={rows}
      empty={<EmptyState title="Nothing recorded yet.">Key, webhook, member and invitation changes and sign-ins show here.</EmptyState>}
      paging={paging}
    />
  );
}
