/**
 * Which workspace the dashboard acts on, and the Relay environment for it. The choice is kept in
 * this browser (localStorage) and sent on every request (relay/environment.ts); the server also
 * remembers a session's last choice. Choosing another workspace builds a fresh environment, so
 * nothing read for the previous one is shown for the new one.
 *
 * The environment lives here, outside React, because the route loaders (app/routes.tsx) start each
 * page's queries before anything renders. After a change the router reads every route again
 * (app/router.tsx): the root route hands the new environment to React together with the queries
 * loaded into it, so a page never reads a query of another environment.
 */
import { useSyncExternalStore } from "react";
import { createEnvironment, type DashboardEnvironment } from "./environment";

const STORAGE_KEY = "dashboard.workspaceId";

function stored(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function remember(id: string | null): void {
  try {
    if (id) window.localStorage.setItem(STORAGE_KEY, id);
    else window.localStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage refused (private mode): the choice lasts for this tab only
  }
}

interface Current {
  workspaceId: string | null;
  env: DashboardEnvironment;
}

let current: Current | null = null;
const listeners = new Set<() => void>();

function now(): Current {
  current ??= { workspaceId: stored(), env: createEnvironment(stored()) };
  return current;
}

/** The environment route loaders load into (and the root route provides to React). */
export const currentEnvironment = () => now().env.environment;

/** The chosen workspace's node id, or null before a choice (the server then uses the session's last). */
export const currentWorkspaceId = () => now().workspaceId;

/** Called after every change: the router reads its routes again (app/router.tsx). */
export function onWorkspaceChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Environments replaced but perhaps still on screen, until the router has moved to the new one. */
const retired: DashboardEnvironment[] = [];

function replace(workspaceId: string | null): void {
  remember(workspaceId);
  if (current) retired.push(current.env);
  current = { workspaceId, env: createEnvironment(workspaceId) };
  listeners.forEach((l) => l());
}

/** Acts on another workspace (null: the server's choice, the session's last) with a new, empty store. */
export const chooseWorkspace = (id: string | null) => replace(id);

/** After signing in or out: forget the choice and start from an empty store. */
export const startOver = () => replace(null);

/** Closes the live connections of the environments replaced before the one the router now provides. */
export function retireEnvironments(provided: unknown): void {
  if (provided !== current?.env.environment) return;
  retired.splice(0).forEach((env) => env.dispose());
}

export function useWorkspaceChoice() {
  const workspaceId = useSyncExternalStore(
    (l) => onWorkspaceChange(l),
    () => now().workspaceId,
  );
  return { workspaceId, chooseWorkspace, startOver };
}
