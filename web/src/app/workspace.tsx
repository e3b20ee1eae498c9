/**
 * Which workspace the dashboard acts on, and the Relay environment for it. The choice is kept in
 * this browser (localStorage) and sent on every request (relay/environment.ts); the server also
 * remembers a session's last choice. Choosing another workspace builds a fresh environment, so
 * nothing read for the previous one is shown for the new one.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { RelayEnvironmentProvider } from "react-relay";
import { createEnvironment } from "../relay/environment";

const STORAGE_KEY = "dashboard.workspaceId";

interface WorkspaceChoice {
  /** The chosen workspace's node id, or null before a choice (the server then uses the session's last). */
  workspaceId: string | null;
  chooseWorkspace(id: string | null): void;
  /** After signing in or out: forget the choice and start from an empty store. */
  startOver(): void;
}

const WorkspaceContext = createContext<WorkspaceChoice>({ workspaceId: null, chooseWorkspace: () => undefined, startOver: () => undefined });

export const useWorkspaceChoice = () => useContext(WorkspaceContext);

function stored(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function WorkspaceEnvironment({ children }: { children: ReactNode }) {
  const [workspaceId, setWorkspaceId] = useState<string | null>(stored);
  const [generation, setGeneration] = useState(0);
  // A new generation is a new, empty store (after signing in or out), even for the same workspace.
  const current = useMemo(() => createEnvironment(workspaceId), [workspaceId, generation]);
  useEffect(() => () => current.dispose(), [current]);

  const chooseWorkspace = useCallback((id: string | null) => {
    try {
      if (id) window.localStorage.setItem(STORAGE_KEY, id);
      else window.localStorage.removeItem(STORAGE_KEY);
    } catch {
      // storage refused (private mode): the choice lasts for this tab only
    }
    setWorkspaceId(id);
  }, []);

  const startOver = useCallback(() => {
    chooseWorkspace(null);
    setGeneration((g) => g + 1);
  }, [chooseWorkspace]);

  const choice = useMemo(() => ({ workspaceId, chooseWorkspace, startOver }), [workspaceId, chooseWorkspace, startOver]);
  return (
    <WorkspaceContext.Provider value={choice}>
      <RelayEnvironmentProvider environment={current.environment}>{children}</RelayEnvironmentProvider>
    </WorkspaceContext.Provider>
  );
}
