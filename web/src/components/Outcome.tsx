import type { ActionOutcome } from "../relay/action";
import { ErrorMessage } from "./ErrorMessage";

/** What an action did, in words: success announced politely (role=status), failure as an alert with what to do next. */
export function Outcome({ outcome }: { outcome: ActionOutcome | null }) {
  if (!outcome) return null;
  if (!outcome.ok) return <ErrorMessage error={outcome.error} title={outcome.title} />;
  return (
    <p role="status" className="notice">
      {outcome.message}
    </p>
  );
}
