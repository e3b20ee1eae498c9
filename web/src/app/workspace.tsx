/**
 * Which workspace the dashboard acts on, and the Relay environment for it. The choice is kept in
 * this browser (localStorage) and sent on every request (relay/environment.ts); the server also
 * remembers a session's last choice. Choosing another workspace builds a fresh environment, so
 * nothing read for the previous one is shown for the new one.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { RelayEnvironmentProvider } from "react-relay";
import { createEnvironment, type DashboardEnvironment } from "../relay/environment";

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

/**
 * The environment of the first render, made before React starts (main.tsx) so that the first
 * page's queries can start at once (app/preload.ts); used once, for the workspace it was made for.
 */
let first: { workspaceId: string | null; env: DashboardEnvironment } | null = null;

export function firstEnvironment(): DashboardEnvironment {
  first ??= { workspaceId: stored(), env: createEnvironment(stored()) };
  return first.env;
}

function environmentFor(workspaceId: string | null, generation: number): DashboardEnvironment {
  if (first && generation === 0 && first.workspaceId === workspaceId) return first.env;
  return createEnvironment(workspaceId);
}

export function WorkspaceEnvironment({ children }: { children: ReactNode }) {
  const [workspaceId, setWorkspaceId] = useState<string | null>(stored);
  const [generation, setGeneration] = useState(0);
  // A new generation is a new, empty store (after signing in or out), even for the same workspace.
  const current = useMemo(() => environmentFor(workspaceId, generation), [workspaceId, generation]);
  useEffect(
    () => () => {
      // A disposed environment is never handed out again (switching back to the first workspace).
      if (first?.env === current) first = null;
      current.dispose();
    },
    [current],
  );

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
