/**
 * The bell's live stream: the person's unread count now, then again after every change of their
 * notifications in this workspace (a new one, marked read), from any process.
 */
import { currentThenEvents } from "../shared/events.ts";
import type { PersonInWorkspace } from "./person.ts";
import { unreadCount } from "./service.ts";

export interface NotificationsState {
  workspaceId: string;
  userId: string;
  unreadCount: number;
}

export async function* watchNotifications(who: PersonInWorkspace): AsyncGenerator<NotificationsState> {
  const at = () => new Date().toISOString();
  for await (const _ of currentThenEvents("notificationsChanged", `${who.workspaceId}:${who.userId}`, async () => ({ ...who, at: at() }))) {
    yield { ...who, unreadCount: await unreadCount(who) };
  }
}
