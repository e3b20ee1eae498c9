/**
 * Folders: the workspace's folders as a tree (client → campaign → creator, up to 5 levels), a form that
 * creates one at the top level or inside another, and the workspace's tags (../tags/TagsPanel.tsx).
 * A folder is moved by dragging its name onto another folder (or onto "Top level"), or with the "Move
 * to" action on its page (the keyboard's way). The tree is built here from the folders' parents: the
 * list reads every folder, at every level, 100 at a time ("Show more").
 */
import { useMemo, useState, type DragEvent, type FormEvent } from "react";
import { graphql } from "react-relay";
import { Link, useRevalidator } from "react-router";
import type { FoldersPageQuery } from "../../__generated__/FoldersPageQuery.graphql";
import type { FoldersPage_query$data, FoldersPage_query$key } from "../../__generated__/FoldersPage_query.graphql";
import type { FoldersPagePaginationQuery } from "../../__generated__/FoldersPagePaginationQuery.graphql";
import type { SubFoldersCreateMutation } from "../../__generated__/SubFoldersCreateMutation.graphql";
import type { FolderActionsMoveMutation } from "../../__generated__/FolderActionsMoveMutation.graphql";
import { paths } from "../../lib/paths";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { PageHeader } from "../../components/PageHeader";
import { Time } from "../../components/Time";
import { formatWhole } from "../../lib/format";
import { useAction } from "../../relay/action";
import { usePagedConnection } from "../../relay/paged";
import { useRouteQuery } from "../../relay/route-query";
import { TagsPanel } from "../tags/TagsPanel";
import { createFolderMutation } from "../folder/SubFolders";
import { moveFolderMutation } from "../folder/FolderActions";
import { folderTree, type TreeRow } from "./tree";
import { Submit } from "../../components/Submit";
import { Panel } from "../../components/Panel";

const query = graphql`
  query FoldersPageQuery {
    ...FoldersPage_query
    ...TagsPanel_query
  }
`;

const fragment = graphql`
  fragment FoldersPage_query on Query
  @refetchable(queryName: "FoldersPagePaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 100 }, after: { type: "String" }) {
    # Oldest first: every page holds its folders' parents, so the tree drawn so far is the tree (./tree.ts).
    folders(first: $first, after: $after, order: OLDEST_FIRST) @connection(key: "FoldersPage_folders") {
      __id
      totalCount
      edges {
        node {
          id
          uuid
          name
          parentUuid
          videoCount
          accountCount
          childCount
          createdAt
        }
      }
    }
  }
`;

type Folder = FoldersPage_query$data["folders"]["edges"][number]["node"];
type Row = TreeRow<Folder>;

/** The dragged folder's Relay id travels in the drag's data under this type. */
const DRAG_TYPE = "application/x-folder-id";

export default function FoldersPage() {
  const data = useRouteQuery<FoldersPageQuery>(query);
  return (
    <>
      <PageHeader title="Folders" />
      <FolderTree query={data} />
      <TagsPanel query={data} />
    </>
  );
}

function FolderTree({ query }: { query: FoldersPage_query$key }) {
  const { rows: folders, paging } = usePagedConnection<FoldersPagePaginationQuery, FoldersPage_query$key, Folder>(
    fragment,
    query,
    (d) => d.folders,
    "folders",
  );
  const rows = useMemo(() => folderTree(folders), [folders]);
  const { revalidate } = useRevalidator();
  const move = useAction<FolderActionsMoveMutation>(moveFolderMutation);
  const [dropTarget, setDropTarget] = useState<string | null>(null);

  async function moveTo(folderId: string, parent: Folder | null) {
    const name = folders.find((f) => f.id === folderId)?.name ?? "the folder";
    const r = await move.run(
      { id: folderId, parentId: parent?.id ?? null },
      {
        failed: `Could not move “${name}”`,
        done: () => (parent ? `Moved “${name}” into “${parent.name}”.` : `Moved “${name}” to the top level.`),
      },
    );
    if (r) void revalidate();
  }

  // Dragging: a folder's name is the handle; a row (or the "Top level" zone) is the target.
  const dropProps = (key: string, parent: Folder | null) => ({
    onDragOver: (e: DragEvent) => {
      if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
      e.preventDefault();
      setDropTarget(key);
    },
    onDragLeave: () => setDropTarget((t) => (t === key ? null : t)),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setDropTarget(null);
      const id = e.dataTransfer.getData(DRAG_TYPE);
      if (id && id !== parent?.id) void moveTo(id, parent);
    },
  });

  const columns: Column<Row>[] = [
    {
      id: "name",
      header: "Name",
      className: "cell-wrap",
      cell: ({ node, depth }) => (
        <span className={`tree-name tree-depth-${depth}`}>
          <span
            className="drag-handle"
            draggable
            aria-hidden="true"
            title="Drag onto another folder to move it there"
            onDragStart={(e) => {
              e.dataTransfer.setData(DRAG_TYPE, node.id);
              e.dataTransfer.effectAllowed = "move";
            }}
          >
            ⠿
          </span>
          <Link to={paths.folder(node.uuid)}>{node.name}</Link>
          {depth > 0 && <span className="visually-hidden">, level {depth + 1}</span>}
          {node.childCount > 0 && <span className="muted"> ({formatWhole(node.childCount)} inside)</span>}
        </span>
      ),
    },
    { id: "videos", header: "Videos", cell: ({ node }) => formatWhole(node.videoCount) },
    { id: "accounts", header: "Accounts", cell: ({ node }) => formatWhole(node.accountCount) },
    { id: "created", header: "Created", cell: ({ node }) => <Time value={node.createdAt} /> },
  ];

  return (
    <>
      <CreateFolderForm folders={rows} onCreated={() => void revalidate()} />
      <Panel title="Your folders">
        <p {...dropProps("top", null)} className={dropTarget === "top" ? "drop-zone drop-active" : "drop-zone"}>
          Drag a folder here to move it to the top level. (Or open it and use Move to.)
        </p>
        <DataTable
          label={`Folders, ${formatWhole(paging.total)} in all, as a tree`}
          columns={columns}
          rows={rows}
          rowKey={({ node }) => node.id}
          rowProps={({ node, depth }) => ({
            ...dropProps(node.id, node),
            "data-level": String(depth + 1),
            "data-folder-id": node.uuid,
            className: dropTarget === node.id ? "drop-active" : undefined,
          })}
          empty={
            <EmptyState title="No folders yet.">
              Name one in the form above and press Create folder, then add videos from the <Link to={paths.videos()}>Videos</Link> page or
              the folder's page.
            </EmptyState>
          }
          paging={paging}
        />
        <Outcome outcome={move.outcome} />
      </Panel>
    </>
  );
}

function CreateFolderForm({ folders, onCreated }: { folders: readonly Row[]; onCreated: () => void }) {
  const [name, setName] = useState("");
  const [parentId, setParentId] = useState("");
  const create = useAction<SubFoldersCreateMutation>(createFolderMutation);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const r = await create.run(
      { name, parentId: parentId || null },
      { done: (d) => `Created the folder “${d.createFolder.name}”.`, failed: "Could not create the folder" },
    );
    if (r) {
      setName("");
      onCreated();
    }
  }

  return (
    <Panel title="Create a folder">
      <form className="row" onSubmit={submit}>
        <label>
          Folder name
          <input type="text" value={name} maxLength={255} required onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Inside
          <select value={parentId} onChange={(e) => setParentId(e.target.value)}>
            <option value="">Top level</option>
            {folders.map(({ node, path }) => (
              <option key={node.id} value={node.id}>
                {path}
              </option>
            ))}
          </select>
        </label>
        <Submit action={create}>Create folder</Submit>
      </form>
      <Outcome outcome={create.outcome} />
    </Panel>
  );
}
