/**
 * Share links (owners): every folder's read-only report links, newest first, with who made
 * each, when, its expiry, when it was last viewed and its status; revoke after a confirmation (the
 * page answers "no longer valid" from the next request). Links are made on a folder's page.
 */
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { ShareLinksSectionPaginationQuery } from "../../__generated__/ShareLinksSectionPaginationQuery.graphql";
import type { ShareLinksSection_query$data, ShareLinksSection_query$key } from "../../__generated__/ShareLinksSection_query.graphql";
import type { ShareLinksSectionRevokeMutation } from "../../__generated__/ShareLinksSectionRevokeMutation.graphql";
import { paths } from "../../lib/paths";
import { Badge } from "../../components/Badge";
import { ConfirmButton } from "../../components/ConfirmButton";
import { actionsColumn, DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { Time } from "../../components/Time";
import { useAction } from "../../relay/action";
import { OwnersOnly } from "./OwnersOnly";
import { Panel } from "../../components/Panel";
import { useRouteConnection } from "../../relay/paged";

const query = graphql`
  query ShareLinksSectionQuery {
    ...ShareLinksSection_query
  }
`;

const fragment = graphql`
  fragment ShareLinksSection_query on Query
  @refetchable(queryName: "ShareLinksSectionPaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 50 }, after: { type: "String" }) {
    folderShareLinks(first: $first, after: $after) @connection(key: "ShareLinksSection_folderShareLinks") {
      totalCount
      edges {
        node {
          id
          folderUuid
          folderName
          createdBy
          createdAt
          expiresAt
          revokedAt
          lastViewedAt
          forSchedule
          status
        }
      }
    }
  }
`;

const revokeMutation = graphql`
  mutation ShareLinksSectionRevokeMutation($id: ID!) {
    revokeFolderShareLink(id: $id) {
      id
      revokedAt
      status
    }
  }
`;

export function ShareLinksSection({ isOwner }: { isOwner: boolean }) {
  return (
    <Panel title="Share links">
      <p className="muted">Read-only links to a folder's report, opened without signing in. Make one from a folder's page (Reports).</p>
      {isOwner ? <ShareLinks /> : <OwnersOnly what="share links" />}
    </Panel>
  );
}

type ShareLink = ShareLinksSection_query$data["folderShareLinks"]["edges"][number]["node"];

const TONES = { ACTIVE: "success", EXPIRED: "neutral", REVOKED: "danger" } as const;

function ShareLinks() {
  const { rows, paging } = useRouteConnection<ShareLinksSectionPaginationQuery, ShareLinksSection_query$key, ShareLink>(
    query,
    fragment,
    (d) => d.folderShareLinks,
    "links",
  );
  const revoke = useAction<ShareLinksSectionRevokeMutation>(revokeMutation);
  const columns: Column<ShareLink>[] = [
    { id: "folder", header: "Folder", className: "cell-wrap", cell: (l) => <Link to={paths.folder(l.folderUuid)}>{l.folderName}</Link> },
    { id: "by", header: "Made by", className: "cell-wrap", cell: (l) => l.createdBy },
    { id: "created", header: "Made", cell: (l) => <Time value={l.createdAt} /> },
    { id: "expires", header: "Expires", cell: (l) => <Time value={l.expiresAt} /> },
    { id: "viewed", header: "Last viewed", cell: (l) => <Time value={l.lastViewedAt} fallback="Never" /> },
    {
      id: "status",
      header: "Status",
      cell: (l) => (
        <Badge tone={TONES[l.status as keyof typeof TONES] ?? "neutral"}>
          {l.status === "ACTIVE" ? "Active" : l.status === "EXPIRED" ? "Expired" : "Revoked"}
        </Badge>
      ),
    },
    actionsColumn(
      (l) =>
        l.status === "ACTIVE" && (
          <ConfirmButton
            question={`Revoke this share link of “${l.folderName}”? Its page stops working at once; this cannot be undone.`}
            confirmLabel="Revoke link"
            onConfirm={() =>
              void revoke.run({ id: l.id }, { done: () => `Revoked the link of “${l.folderName}”.`, failed: "Could not revoke the link" })
            }
            disabled={revoke.pending}
          >
            Revoke<span className="visually-hidden"> the link of {l.folderName}</span>
          </ConfirmButton>
        ),
    ),
  ];
  return (
    <>
      <Outcome outcome={revoke.outcome} />
      <DataTable
        label="Share links of this workspace, newest first"
        columns={columns}
        rows={rows}
        empty={<EmptyState title="No share links yet.">Open a folder and make one in its Reports section.</EmptyState>}
        paging={paging}
      />
    </>
  );
}
