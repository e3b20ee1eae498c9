import type { ReactNode } from "react";

/** A form's submit button for an action (relay/action.ts `useAction`): the primary button, disabled while it runs. */
export function Submit({ action, children }: { action: { pending: boolean }; children: ReactNode }) {
  return (
    <button type="submit" className="button-primary" disabled={action.pending}>
      {children}
    </button>
  );
}
