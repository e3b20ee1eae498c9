/**
 * Which workspace the dashboard acts on: the person's workspaces, with their role. Choosing one
 * remembers it for the session on the server (selectWorkspace) and in this browser, then rebuilds
 * the Relay environment (app/workspace.tsx), so every page reads the new workspace's data.
 */
import { useState } from "react";
import { graphql, useFragment } from "react-relay";
import type { WorkspaceSwitcher_viewer$key } from "../__generated__/WorkspaceSwitcher_viewer.graphql";
import type { WorkspaceSwitcherSelectMutation } from "../__generated__/WorkspaceSwitcherSelectMutation.graphql";
import { describeError } from "../lib/errors";
import { useMutationAsync } from "../relay/mutations";
import { useWorkspaceChoice } from "./workspace";

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

const select = graphql`
  mutation WorkspaceSwitcherSelectMutation($id: ID!) {
    selectWorkspace(id: $id) {
      id
    }
  }
`;

export function WorkspaceSwitcher({ viewer }: { viewer: WorkspaceSwitcher_viewer$key }) {
  const v = useFragment(fragment, viewer);
  const { chooseWorkspace } = useWorkspaceChoice();
  const [selectWorkspace, selecting] = useMutationAsync<WorkspaceSwitcherSelectMutation>(select);
  const [error, setError] = useState<string | null>(null);

  async function choose(id: string) {
    setError(null);
    try {
      await selectWorkspace({ id });
      chooseWorkspace(id);
    } catch (e) {
      setError(describeError(e).message);
    }
  }

  if (v.workspaces.length <= 1) return <span className="workspace-name">{v.workspaces[0]?.name}</span>;
  return (
    <label className="workspace-switcher">
      <span className="visually-hidden">Workspace</span>
      <select value={v.currentWorkspace?.id ?? ""} disabled={selecting} onChange={(e) => void choose(e.target.value)}>
        {v.workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name} ({w.role === "OWNER" ? "owner" : "member"})
          </option>
        ))}
      </select>
      {error && (
        <span role="alert" className="notice notice-error">
          {error}
        </span>
      )}
    </label>
  );
}
