/**
 * Notifications, alert rules and digests belong to a person in a workspace: an API key acts for a
 * workspace, not a person, so these doors answer it FORBIDDEN (docs/notifications.md).
 */
import type { Actor } from "../actors/actor.ts";
import { DomainError } from "../shared/errors.ts";

export interface PersonInWorkspace {
  workspaceId: string;
  userId: string;
}

export function personIn(actor: Actor): PersonInWorkspace {
  if (actor.principal.kind !== "user") {
    throw new DomainError(
      "FORBIDDEN",
      "Notifications and alert rules belong to a person: sign in (a session), an API key acts for the workspace only.",
    );
  }
  return { workspaceId: actor.workspaceId, userId: actor.principal.id };
}
