/**
 * Folders: create one by name, and the workspace's folders (newest first, "Show more" for the next
 * cursor page) with their counts. A folder's page (pages/folder) renames, deletes, shows its contents,
 * analytics cards and top videos.
 */
import { Suspense, useState, type FormEvent } from "react";
import { graphql, useLazyLoadQuery, usePaginationFragment } from "react-relay";
import { Link } from "react-router";
import type { FoldersPageQuery } from "../../__generated__/FoldersPageQuery.graphql";
import type { FoldersPage_query$key } from "../../__generated__/FoldersPage_query.graphql";
import type { FoldersPageCreateMutation } from "../../__generated__/FoldersPageCreateMutation.graphql";
import { paths } from "../../app/paths";
import { EmptyState } from "../../components/EmptyState";
import { ErrorMessage } from "../../components/ErrorMessage";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { Time } from "../../components/Time";
import { formatWhole } from "../../lib/format";
import { useMutationAsync } from "../../relay/mutations";

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

export default function FoldersPage() {
  return (
    <>
      <PageHeader title="Folders" />
      <Suspense fallback={<Loading what="Loading the folders" />}>
        <Folders />
      </Suspense>
    </>
  );
}

function Folders() {
  const data = useLazyLoadQuery<FoldersPageQuery>(query, {}, { fetchPolicy: "store-and-network" });
  return <FolderList query={data} />;
}

function FolderList({ query }: { query: FoldersPage_query$key }) {
  const { data, hasNext, loadNext, isLoadingNext } = usePaginationFragment(fragment, query);
  const folders = data.folders.edges.map((e) => e.node);
  return (
    <>
      <CreateFolderForm connectionId={data.folders.__id} />
      <section aria-labelledby="folders-heading" className="panel">
        <h2 id="folders-heading">Your folders</h2>
        {folders.length === 0 ? (
          <EmptyState title="No folders yet.">
            Name one in the form above and press Create folder, then add videos from the <Link to={paths.videos()}>Videos</Link> page or the folder's page.
          </EmptyState>
        ) : (
          <div className="table-scroll">
            <table className="data-table">
              <caption className="visually-hidden">Folders, {formatWhole(data.folders.totalCount)} in all, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Videos</th>
                  <th scope="col">Accounts</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {folders.map((f) => (
                  <tr key={f.id}>
                    <td>
                      <Link to={paths.folder(f.uuid)}>{f.name}</Link>
                    </td>
                    <td>{formatWhole(f.videoCount)}</td>
                    <td>{formatWhole(f.accountCount)}</td>
                    <td>
                      <Time value={f.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {hasNext && (
          <div className="row table-footer">
            <button type="button" onClick={() => loadNext(50)} disabled={isLoadingNext}>
              {isLoadingNext ? "Loading…" : "Show more"}
            </button>
          </div>
        )}
      </section>
    </>
  );
}

function CreateFolderForm({ connectionId }: { connectionId: string }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [create, creating] = useMutationAsync<FoldersPageCreateMutation>(createMutation);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setCreated(null);
    try {
      const r = await create({ name, connections: [connectionId] });
      setCreated(r.createFolder.name);
      setName("");
    } catch (e) {
      setError(e);
    }
  }

  return (
    <section aria-labelledby="create-folder-heading" className="panel">
      <h2 id="create-folder-heading">Create a folder</h2>
      <form className="row" onSubmit={submit}>
        <label>
          Folder name
          <input type="text" value={name} maxLength={255} required onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" className="button-primary" disabled={creating}>
          Create folder
        </button>
      </form>
      {created && (
        <p role="status" className="notice">
          Created the folder “{created}”.
        </p>
      )}
      {error !== null && <ErrorMessage error={error} title="Could not create the folder" />}
    </section>
  );
}
