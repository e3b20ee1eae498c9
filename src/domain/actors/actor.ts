/**
 * The actor: what every door hands the domain, whatever authenticated the request
 * (docs/architecture.md, "The session door"). An API key acts as an owner of its workspace; a
 * person's session acts on one workspace (the `x-workspace-id` header, else the session's last
 * chosen one) with the role of their membership. The domain reads the workspace (tenancy), the
 * role (./roles.ts) and who acts (./audit.ts); it never asks how the request was authenticated.
 */
import type { WorkspaceRole } from "../../generated/prisma/client.ts";

export type { WorkspaceRole };

/** Who acts: a person (signed in), an integration's API key, or the operator's CLI and the service itself. */
export type Principal =
  | { kind: "user"; id: string; email: string; sessionId: string | null }
  | {
      kind: "api_key";
      id: string /** Its rate-limit budget: the secret's hash (src/domain/keys/access.ts, AuthContext). */;
      budget: string;
    }
  | { kind: "system"; label: string };

/** Who acts and from where: what an audit entry records (./audit.ts). */
export interface Acting {
  principal: Principal;
  /** The client's address as the HTTP server saw it (TRUST_PROXY decides whether forwarded headers count). */
  clientAddress: string | null;
}

export interface Actor extends Acting {
  workspaceId: string;
  role: WorkspaceRole;
}

/** The operator's CLI and the service's own start-up (demo workspace, first keys). */
export const OPERATOR: Acting = { principal: { kind: "system", label: "operator (CLI)" }, clientAddress: null };

/** An API key's actor: an owner of the key's workspace, as keys have always been. */
export function keyActor(auth: { workspaceId: string; keyId: string; budget: string }, clientAddress: string | null): Actor {
  return {
    workspaceId: auth.workspaceId,
    role: "owner",
    principal: { kind: "api_key", id: auth.keyId, budget: auth.budget },
    clientAddress,
  };
}

/**
 * The rate-limit budget the actor spends (src/domain/keys/access.ts): one per API key, and one per
 * person across their sessions (RATE_LIMIT_PER_MINUTE each, the same Redis counters).
 */
/** Who a principal is, as one string: the person (any of their sessions), the API key, or the system's label. */
export function principalId(principal: Principal): string {
  return principal.kind === "system" ? `system:${principal.label}` : `${principal.kind}:${principal.id}`;
}

export function budgetOf(principal: Principal): string {
  switch (principal.kind) {
    case "api_key":
      return principal.budget;
    case "user":
      return `user:${principal.id}`;
    case "system":
      return "system";
  }
}
