/**
 * Which workspace the dashboard acts on: the person's workspaces, with their role. Choosing one
 * remembers it for the session on the server (selectWorkspace) and in this browser, then rebuilds
 * the Relay environment (relay/workspace.ts), so every page reads the new workspace's data.
 */
import { graphql, useFragment } from "react-relay";
import type { WorkspaceSwitcher_viewer$key } from "../__generated__/WorkspaceSwitcher_viewer.graphql";
import type { WorkspaceSwitcherSelectMutation } from "../__generated__/WorkspaceSwitcherSelectMutation.graphql";
import { Outcome } from "../components/Outcome";
import { useAction } from "../relay/action";
import { useWorkspaceChoice } from "../relay/workspace";

const fragment = graphql`
  fragment WorkspaceSwitcher_viewer on Viewer {
    currentWorkspace {
      id
    }
    workspaces {
      id
      name
      role
    }
  }
`;

const selectMutation = graphql`
  mutation WorkspaceSwitcherSelectMutation($id: ID!) {
    selectWorkspace(id: $id) {
      id
    }
  }
`;

export function WorkspaceSwitcher({ viewer }: { viewer: WorkspaceSwitcher_viewer$key }) {
  const v = useFragment(fragment, viewer);
  const { chooseWorkspace } = useWorkspaceChoice();
  const select = useAction<WorkspaceSwitcherSelectMutation>(selectMutation);

  async function choose(id: string) {
    if (await select.run({ id }, { failed: "Could not switch workspace" })) chooseWorkspace(id);
  }

  if (v.workspaces.length <= 1) return <span className="workspace-name">{v.workspaces[0]?.name}</span>;
  // The error sits beside the label, not in it: it is no part of the select's name.
  return (
    <div className="workspace-switcher">
      <label>
        <span className="visually-hidden">Workspace</span>
        <select value={v.currentWorkspace?.id ?? ""} disabled={select.pending} onChange={(e) => void choose(e.target.value)}>
          {v.workspaces.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name} ({w.role === "OWNER" ? "owner" : "member"})
            </option>
          ))}
        </select>
      </label>
      <Outcome outcome={select.outcome} />
    </div>
  );
}
