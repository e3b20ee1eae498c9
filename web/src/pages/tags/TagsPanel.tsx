/**
 * The workspace's tags: each with what it groups (videos, accounts, their views; links to the Videos
 * and Accounts lists filtered by it), a form that creates one with a colour of the palette, and
 * deleting one (after a confirmation; the items stay tracked).
 */
import { useState, type FormEvent } from "react";
import { graphql, useFragment } from "react-relay";
import { Link, useRevalidator } from "react-router";
import type { TagsPanel_query$data, TagsPanel_query$key } from "../../__generated__/TagsPanel_query.graphql";
import type { TagsPanelCreateMutation } from "../../__generated__/TagsPanelCreateMutation.graphql";
import type { TagsPanelDeleteMutation } from "../../__generated__/TagsPanelDeleteMutation.graphql";
import { paths } from "../../lib/paths";
import { ConfirmButton } from "../../components/ConfirmButton";
import { actionsColumn, DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { formatCount, formatWhole } from "../../lib/format";
import { useAction } from "../../relay/action";
import { TagChips } from "./TagChips";
import { Submit } from "../../components/Submit";
import { Panel } from "../../components/Panel";

const fragment = graphql`
  fragment TagsPanel_query on Query {
    tagPalette
    tags(first: 100) {
      totalCount
      edges {
        node {
          id
          name
          color
          videoCount
          accountCount
          totalViews
        }
      }
    }
  }
`;

const createMutation = graphql`
  mutation TagsPanelCreateMutation($name: String!, $color: String) {
    createTag(name: $name, color: $color) {
      id
      name
    }
  }
`;

const deleteMutation = graphql`
  mutation TagsPanelDeleteMutation($id: ID!) {
    deleteTag(id: $id)
  }
`;

/** The palette's colours in words (the form offers names, not codes). */
const COLOR_NAMES: Record<string, string> = {
  "#64748b": "Slate",
  "#ef4444": "Red",
  "#f97316": "Orange",
  "#eab308": "Yellow",
  "#22c55e": "Green",
  "#14b8a6": "Teal",
  "#3b82f6": "Blue",
  "#8b5cf6": "Violet",
  "#ec4899": "Pink",
};

type Row = TagsPanel_query$data["tags"]["edges"][number]["node"];
const filtered = (path: string, id: string) => `${path}?${new URLSearchParams({ tag: id })}`;

export function TagsPanel({ query }: { query: TagsPanel_query$key }) {
  const data = useFragment(fragment, query);
  const { revalidate } = useRevalidator();
  const remove = useAction<TagsPanelDeleteMutation>(deleteMutation);
  const rows = data.tags.edges.map((e) => e.node);
  const columns: Column<Row>[] = [
    { id: "name", header: "Tag", cell: (t) => <TagChips tags={[t]} /> },
    { id: "videos", header: "Videos", cell: (t) => <Link to={filtered(paths.videos(), t.id)}>{formatWhole(t.videoCount)}</Link> },
    { id: "accounts", header: "Accounts", cell: (t) => <Link to={filtered(paths.accounts(), t.id)}>{formatWhole(t.accountCount)}</Link> },
    { id: "views", header: "Views", cell: (t) => <span title={formatWhole(t.totalViews)}>{formatCount(t.totalViews)}</span> },
    actionsColumn((t) => (
      <ConfirmButton
        question={`Delete the tag “${t.name}”? Its videos and accounts stay tracked.`}
        confirmLabel="Delete"
        disabled={remove.pending}
        onConfirm={() =>
          void remove
            .run({ id: t.id }, { failed: "Could not delete the tag", done: () => `Deleted the tag “${t.name}”.` })
            .then((r) => r && revalidate())
        }
      >
        Delete tag {t.name}
      </ConfirmButton>
    )),
  ];
  return (
    <Panel title="Tags">
      <p className="muted">
        Label videos and accounts across folders; filter the Videos and Accounts lists by tag. Each tag's totals count the items carrying
        it.
      </p>
      <CreateTagForm palette={data.tagPalette} onCreated={() => void revalidate()} />
      <DataTable
        label={`Tags, ${formatWhole(data.tags.totalCount)} in all, by name`}
        columns={columns}
        rows={rows}
        empty={
          <EmptyState title="No tags yet.">
            Name one above, then tag videos on the Videos page (select them, choose the tag, Add tag).
          </EmptyState>
        }
      />
      <Outcome outcome={remove.outcome} />
    </Panel>
  );
}

function CreateTagForm({ palette, onCreated }: { palette: readonly string[]; onCreated: () => void }) {
  const [name, setName] = useState("");
  const [color, setColor] = useState(palette[0] ?? "#64748b");
  const create = useAction<TagsPanelCreateMutation>(createMutation);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const r = await create.run(
      { name, color },
      { failed: "Could not create the tag", done: (d) => `Created the tag “${d.createTag.name}”.` },
    );
    if (r) {
      setName("");
      onCreated();
    }
  }

  return (
    <>
      <form className="row" onSubmit={submit}>
        <label>
          Tag name
          <input type="text" value={name} maxLength={50} required onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Colour
          <select value={color} onChange={(e) => setColor(e.target.value)}>
            {palette.map((c) => (
              <option key={c} value={c}>
                {COLOR_NAMES[c] ?? c}
              </option>
            ))}
          </select>
        </label>
        <Submit action={create}>Create tag</Submit>
      </form>
      <Outcome outcome={create.outcome} />
    </>
  );
}
