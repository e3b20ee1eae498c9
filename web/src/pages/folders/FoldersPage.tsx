/**
 * Folders: create one by name, and the workspace's folders (newest first, "Show more" for the next
 * cursor page) with their counts. A folder's page (pages/folder) renames, deletes, shows its contents,
 * analytics cards and top videos.
 */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import { Link } from "react-router";
import type { FoldersPageQuery } from "../../__generated__/FoldersPageQuery.graphql";
import type { FoldersPage_query$data, FoldersPage_query$key } from "../../__generated__/FoldersPage_query.graphql";
import type { FoldersPagePaginationQuery } from "../../__generated__/FoldersPagePaginationQuery.graphql";
import type { FoldersPageCreateMutation } from "../../__generated__/FoldersPageCreateMutation.graphql";
import { paths } from "../../app/paths";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { PageHeader } from "../../components/PageHeader";
import { Time } from "../../components/Time";
import { formatWhole } from "../../lib/format";
import { useAction } from "../../relay/action";
import { countChange } from "../../relay/connections";
import { usePagedConnection } from "../../relay/paged";
import { useRouteQuery } from "../../relay/route-query";

const query = graphql`
  query FoldersPageQuery {
    ...FoldersPage_query
  }
`;

const fragment = graphql`
  fragment FoldersPage_query on Query
  @refetchable(queryName: "FoldersPagePaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 50 }, after: { type: "String" }) {
    folders(first: $first, after: $after) @connection(key: "FoldersPage_folders") {
      __id
      totalCount
      edges {
        node {
          id
          uuid
          name
          videoCount
          accountCount
          createdAt
        }
      }
    }
  }
`;

const createMutation = graphql`
  mutation FoldersPageCreateMutation($name: String!, $connections: [ID!]!) {
    createFolder(name: $name) @prependNode(connections: $connections, edgeTypeName: "FolderEdge") {
      id
      uuid
      name
      videoCount
      accountCount
      createdAt
    }
  }
`;

type Row = FoldersPage_query$data["folders"]["edges"][number]["node"];

const COLUMNS: Column<Row>[] = [
  { id: "name", header: "Name", className: "cell-wrap", cell: (f) => <Link to={paths.folder(f.uuid)}>{f.name}</Link> },
  { id: "videos", header: "Videos", cell: (f) => formatWhole(f.videoCount) },
  { id: "accounts", header: "Accounts", cell: (f) => formatWhole(f.accountCount) },
  { id: "created", header: "Created", cell: (f) => <Time value={f.createdAt} /> },
];

export default function FoldersPage() {
  const data = useRouteQuery<FoldersPageQuery>(query);
  return (
    <>
      <PageHeader title="Folders" />
      <FolderList query={data} />
    </>
  );
}

function FolderList({ query }: { query: FoldersPage_query$key }) {
  const { data, rows, paging } = usePagedConnection<FoldersPagePaginationQuery, FoldersPage_query$key, Row>(fragment, query, (d) => d.folders, "folders");
  return (
    <>
      <CreateFolderForm connectionId={data.folders.__id} />
      <section aria-labelledby="folders-heading" className="panel">
        <h2 id="folders-heading">Your folders</h2>
        <DataTable
          label={`Folders, ${formatWhole(paging.total)} in all, newest first`}
          columns={COLUMNS}
          rows={rows}
          rowKey={(f) => f.id}
          empty={
            <EmptyState title="No folders yet.">
              Name one in the form above and press Create folder, then add videos from the <Link to={paths.videos()}>Videos</Link> page or the folder's page.
            </EmptyState>
          }
          paging={paging}
        />
      </section>
    </>
  );
}

function CreateFolderForm({ connectionId }: { connectionId: string }) {
  const [name, setName] = useState("");
  const create = useAction<FoldersPageCreateMutation>(createMutation);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const connections = [connectionId];
    const r = await create.run({ name, connections }, { updater: countChange(connections, 1), done: (d) => `Created the folder “${d.createFolder.name}”.`, failed: "Could not create the folder" });
    if (r) setName("");
  }

  return (
    <section aria-labelledby="create-folder-heading" className="panel">
      <h2 id="create-folder-heading">Create a folder</h2>
      <form className="row" onSubmit={submit}>
        <label>
          Folder name
          <input type="text" value={name} maxLength={255} required onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" className="button-primary" disabled={create.pending}>
          Create folder
        </button>
      </form>
      <Outcome outcome={create.outcome} />
    </section>
  );
}
